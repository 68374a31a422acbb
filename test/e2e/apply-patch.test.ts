/**
 * apply_patch in the terminal: the fake model sends a freeform patch; inside the workspace it is
 * applied unasked and its cell shows each file with +/− counts and the numbered diff; under
 * read-only the patch cell is shown above the approval prompt, and `y` applies it.
 */
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TYPING_GAP_MS } from '../../src/tui/chat/approvals/typing-run.js';
import { tempDir } from '../runtime/support/config.js';
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
    expect(screen).toContain('✓ Edited upd.txt (+1 -1)');
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
    const asking = await pty.waitFor((s) => s.includes('waiting for approval') && s.includes('apply_patch upd.txt, notes/new.txt'), 30_000);
    expect(asking).toMatch(/2 \+BETA/);
    expect(asking).toContain('Would you like to make the following edits?');
    expect(asking).toContain("a  Yes, and don't ask again for these files in this session");
    expect(readFileSync(join(ws, 'upd.txt'), 'utf8')).toBe('alpha\nbeta\ngamma\n');
    await new Promise((resolve) => setTimeout(resolve, TYPING_GAP_MS));
    pty.write('y');
    await pty.waitFor('Done after approval.', 30_000);
    expect(readFileSync(join(ws, 'upd.txt'), 'utf8')).toBe('alpha\nBETA\ngamma\n');
  });
});
