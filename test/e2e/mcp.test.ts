/**
 * MCP through the real bin: a config.toml with the reference `everything` server (stdio, from
 * node_modules), the fake Responses server making the model call its `echo` tool. The `@` popup
 * offers `mcp://everything`, the approval prompt names the tool, the call's cell shows on screen
 * with its result, and `/mcp` lists the server as ready with its tools.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { TYPING_GAP_MS } from '../../src/tui/chat/approvals/typing-run.js';
import { composerText, sessionPerTest, typeSlowly, waitForRequests } from './helpers.js';

const EVERYTHING = fileURLToPath(new URL('../../node_modules/.bin/mcp-server-everything', import.meta.url));
const openSession = sessionPerTest();

let home: string | null = null;
afterEach(() => {
  if (home !== null) rmSync(home, { recursive: true, force: true });
  home = null;
});

function homeWithEverything(): string {
  home = mkdtempSync(join(tmpdir(), 'tiller-e2e-mcp-'));
  writeFileSync(join(home, 'config.toml'), `[mcp_servers.everything]\ncommand = ${JSON.stringify(EVERYTHING)}\n`);
  return home;
}

/** The function_call_output items a Responses request carried. */
function toolOutputs(body: { input?: unknown }): string[] {
  const input = Array.isArray(body.input) ? (body.input as Array<Record<string, unknown>>) : [];
  return input
    .filter((item) => item.type === 'function_call_output')
    .map((item) => (typeof item.output === 'string' ? item.output : JSON.stringify(item.output)));
}

describe('MCP servers in the terminal', { timeout: 90_000 }, () => {
  it('the model calls everything.echo: approval, the call’s cell with its result, then /mcp shows the server ready', async () => {
    const session = await openSession({ env: { TILLER_HOME: homeWithEverything() } });
    const { server, pty } = session;
    const offered = server.requests.length;
    server.enqueue(
      { functionCall: { name: 'everything__echo', arguments: { message: 'hello from e2e' } } },
      { text: 'The server echoed it.' },
    );

    // `@` offers the configured server; choosing it puts `mcp://everything ` in the draft.
    await typeSlowly(pty, 'echo it via @every');
    await pty.waitFor((s) => s.includes('mcp://everything') && s.includes('echo it via @every'));
    pty.press('tab');
    await pty.waitFor((s) => composerText(s) === 'echo it via mcp://everything');
    pty.press('enter');

    const prompt = await pty.waitFor('Would you like to let the model call everything.echo?', 30_000);
    expect(prompt).toContain('everything.echo({"message":"hello from e2e"})');
    // A lone `y` after the prompt has been up a moment (letters sooner than that go to the draft).
    await new Promise((resolve) => setTimeout(resolve, TYPING_GAP_MS));
    pty.write('y');

    const screen = await pty.waitFor((s) => s.includes('The server echoed it.') && !s.includes('esc to interrupt'), 30_000);
    expect(screen).toMatch(/✓ Called everything\.echo\(\{"message":"hello from e2e"\}\) · \d+(ms|\.\ds)/);
    expect(screen).toContain('└ Echo: hello from e2e');
    const requests = await waitForRequests(session, offered + 2);
    // The model was offered the tool under its qualified name, and heard back what it returned.
    const tools = (requests[offered]!.body.tools as Array<{ name?: string }>).map((t) => t.name);
    expect(tools).toContain('everything__echo');
    expect(toolOutputs(requests[offered + 1]!.body).join('\n')).toContain('Echo: hello from e2e');

    await typeSlowly(pty, '/mcp');
    pty.press('enter');
    const listed = await pty.waitFor(/• MCP servers\n\s+everything\s+ready · \d+ tools\n\s+echo, /);
    expect(listed).not.toContain('Could not list the MCP servers');
  });
});
