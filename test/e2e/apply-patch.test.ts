/**
 * apply_patch in the terminal: the fake model sends a freeform patch; inside the workspace it is
 * applied unasked and its cell shows each file with +/− counts and the numbered diff; under
 * read-only the patch cell is shown above the approval prompt with its file list: `y` applies it all,
 * Tab rejects one file and Enter applies the rest, Ctrl+E edits a file's proposed content in $EDITOR.
 */
import { chmodSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TYPING_GAP_MS } from '../../src/tui/chat/approvals/typing-run.js';
import { tempDir } from '../runtime/support/config.js';
import type { RecordedRequest } from '../support/fake-responses-server.js';
import { sessionPerTest, typeSlowly } from './helpers.js';

const openSession = sessionPerTest();

function workspace(): string {
  const ws = realpathSync(tempDir('tiller-e2e-ws-'));
  mkdirSync(join(ws, '.git'));
  writeFileSync(join(ws, 'upd.txt'), 'alpha\nbeta\ngamma\n');
  return ws;
}

const PATCH = '*** Begin Patch\n*** Update File: upd.txt\n@@\n alpha\n-beta\n+BETA\n*** Add File: notes/new.txt\n+fresh\n*** End Patch';

describe('apply_patch in the TUI', { timeout: 90_000 }, () => {
  it('applies a patch in the workspace and draws its cell: files, counts, numbered diff', async () => {
    const ws = workspace();
    const { server, pty } = await openSession({ cwd: ws, args: ['-m', 'gpt-5.5', '--full-auto'] });
    server.enqueue({ customToolCalls: [{ name: 'apply_patch', input: PATCH }] }, { text: 'Patched it.' });
    await typeSlowly(pty, 'edit');
    pty.press('enter');
    const screen = await pty.waitFor('Patched it.', 30_000);
    expect(screen).toContain('✓ 2 files (+2 -1)');
    expect(screen).toContain('└ upd.txt (+1 -1)');
    expect(screen).toContain('Edited upd.txt (+1 -1)');
    expect(screen).toMatch(/1 {2}alpha/);
    expect(screen).toMatch(/2 -beta/);
    expect(screen).toMatch(/2 \+BETA/);
    expect(screen).toContain('Added notes/new.txt (+1 -0)');
    expect(readFileSync(join(ws, 'upd.txt'), 'utf8')).toBe('alpha\nBETA\ngamma\n');
  });

  it('under read-only shows the diff above the approval prompt; y applies it', async () => {
    const ws = workspace();
    const { server, pty } = await openSession({ cwd: ws, args: ['-m', 'gpt-5.5', '-s', 'read-only', '-a', 'on-request'] });
    server.enqueue({ customToolCalls: [{ name: 'apply_patch', input: PATCH }] }, { text: 'Done after approval.' });
    await typeSlowly(pty, 'edit');
    pty.press('enter');
    const asking = await pty.waitFor((s) => s.includes('waiting for approval') && s.includes('▸ ✓ accept  upd.txt'), 30_000);
    expect(asking).toContain('  ✓ accept  notes/new.txt');
    expect(asking).toMatch(/2 \+BETA/);
    expect(asking).toContain('Would you like to make the following edits?');
    expect(asking).toContain("a  Yes, and don't ask again for these files in this session");
    expect(readFileSync(join(ws, 'upd.txt'), 'utf8')).toBe('alpha\nbeta\ngamma\n');
    await new Promise((resolve) => setTimeout(resolve, TYPING_GAP_MS));
    pty.write('y');
    await pty.waitFor('Done after approval.', 30_000);
    expect(readFileSync(join(ws, 'upd.txt'), 'utf8')).toBe('alpha\nBETA\ngamma\n');
  });

  it('rejecting one file leaves it untouched, applies the other, and the next request tells the model so', async () => {
    const ws = workspace();
    const { server, pty } = await openSession({ cwd: ws, args: ['-m', 'gpt-5.5', '-s', 'read-only', '-a', 'on-request'] });
    server.enqueue({ customToolCalls: [{ name: 'apply_patch', input: PATCH }] }, { text: 'Done with one file.' });
    await typeSlowly(pty, 'edit');
    pty.press('enter');
    await pty.waitFor((s) => s.includes('▸ ✓ accept  upd.txt'), 30_000);
    pty.press('tab');
    await pty.waitFor('▸ ✗ reject  upd.txt');
    pty.press('enter');
    await pty.waitFor('Done with one file.', 30_000);
    expect(readFileSync(join(ws, 'upd.txt'), 'utf8')).toBe('alpha\nbeta\ngamma\n');
    expect(readFileSync(join(ws, 'notes/new.txt'), 'utf8')).toBe('fresh\n');
    const output = toolOutput(server.requests.at(-1)!);
    expect(output).toContain('A notes/new.txt');
    expect(output).toContain('The user rejected the changes to these files; they were left as they were:\nR upd.txt');
  });

  it('a file edited in $EDITOR is applied as edited, and the model is told the user changed it', async () => {
    const ws = workspace();
    const editor = join(tempDir('tiller-e2e-editor-'), 'editor');
    // Stands in for the user: rewrites the proposed content it is given.
    writeFileSync(editor, `#!/bin/sh\nsed 's/BETA/Beta by hand/' "$1" > "$1.new" && mv "$1.new" "$1"\n`);
    chmodSync(editor, 0o755);
    const { server, pty } = await openSession({
      cwd: ws,
      args: ['-m', 'gpt-5.5', '-s', 'read-only', '-a', 'on-request'],
      env: { EDITOR: editor },
    });
    server.enqueue({ customToolCalls: [{ name: 'apply_patch', input: PATCH }] }, { text: 'Noted your edit.' });
    await typeSlowly(pty, 'edit');
    pty.press('enter');
    await pty.waitFor((s) => s.includes('▸ ✓ accept  upd.txt'), 30_000);
    pty.press('ctrl-e');
    await pty.waitFor('▸ ✓ edited  upd.txt', 30_000);
    pty.press('enter');
    await pty.waitFor('Noted your edit.', 30_000);
    expect(readFileSync(join(ws, 'upd.txt'), 'utf8')).toBe('alpha\nBeta by hand\ngamma\n');
    expect(readFileSync(join(ws, 'notes/new.txt'), 'utf8')).toBe('fresh\n');
    const output = toolOutput(server.requests.at(-1)!);
    expect(output).toContain('The user edited the proposed content of these files before it was applied');
    expect(output).toContain('E upd.txt');
  });
});

/** The apply_patch call's output as the model got it in `request`. */
function toolOutput(request: RecordedRequest): string {
  const input = (request.body?.input ?? []) as Array<Record<string, unknown>>;
  const item = input.find((entry) => entry.type === 'custom_tool_call_output' || entry.type === 'function_call_output');
  return typeof item?.output === 'string' ? item.output : JSON.stringify(item?.output ?? null);
}
