/**
 * MCP tool calls under `tiller exec`, where no one is there to approve: the policy decides, and no
 * decline is reported that nobody made (issue 30). Against the reference everything server.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MCP_DECLINED_OUTPUT, MCP_NEEDS_APPROVAL_ERROR } from '../../src/runtime/tools/mcp/call.js';
import { FakeResponsesServer } from '../support/fake-responses-server.js';
import { callTool, everythingServer, functionOutputs } from './mcp-helpers.js';
import { fakeServerEnv, jsonEvents, spawnTiller } from './support/spawn.js';

let fake: FakeResponsesServer;
beforeEach(async () => {
  fake = await FakeResponsesServer.start();
});
afterEach(async () => {
  await fake.close();
});

function execEnv(): NodeJS.ProcessEnv {
  const env = fakeServerEnv(fake);
  const server = everythingServer();
  writeFileSync(
    join(env.TILLER_HOME!, 'config.toml'),
    `[mcp_servers.everything]\ncommand = ${JSON.stringify(server.command)}\nargs = ${JSON.stringify(server.args)}\n`,
  );
  return env;
}

type McpEvent = { type: string; item?: { type: string; status?: string; error?: { message: string } | null; result?: unknown } };
const mcpCompleted = (lines: string[]): McpEvent['item'][] =>
  (jsonEvents(lines) as McpEvent[]).filter((e) => e.type === 'item.completed' && e.item?.type === 'mcp_tool_call').map((e) => e.item);

describe('tiller exec --json: MCP calls with no one to approve', { timeout: 60_000 }, () => {
  it('--full-auto runs the echo tool of an untrusted server, as Codex does', async () => {
    fake.enqueue(callTool('everything__echo', { message: 'hello mcp' }), { text: 'done' });
    const child = spawnTiller(['exec', '--json', '--full-auto', '--skip-git-repo-check', 'echo it'], execEnv());
    expect(await child.exit).toBe(0);
    const [item] = mcpCompleted(child.lines);
    expect(item).toMatchObject({ status: 'completed', error: null });
    expect(JSON.stringify(item!.result)).toContain('hello mcp');
    const outputs = functionOutputs(fake.requests[1]!.body);
    expect(outputs.join('\n')).toContain('hello mcp');
    expect(outputs.join('\n')).not.toContain(MCP_DECLINED_OUTPUT);
  });

  it('-a untrusted does not run it, and says why: the policy, not a user who declined', async () => {
    fake.enqueue(callTool('everything__echo', { message: 'hello mcp' }), { text: 'done' });
    const child = spawnTiller(['exec', '--json', '-a', 'untrusted', '--skip-git-repo-check', 'echo it'], execEnv());
    expect(await child.exit).toBe(0);
    const [item] = mcpCompleted(child.lines);
    expect(item).toMatchObject({ status: 'failed', error: { message: MCP_NEEDS_APPROVAL_ERROR } });
    const outputs = functionOutputs(fake.requests[1]!.body).join('\n');
    expect(outputs).toContain(MCP_NEEDS_APPROVAL_ERROR);
    expect(outputs).not.toContain('declined');
  });
});
