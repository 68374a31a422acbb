/**
 * A patch cell's syntax colour in the real bin comes from the highlighter's worker thread
 * (src/tui/diff/diff-colours.ts, dist/highlight-worker.mjs): the cell is printed once its colours came.
 */
import { mkdirSync, mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sessionPerTest, typeSlowly } from './helpers.js';

const openSession = sessionPerTest();

describe("a patch cell's colours", { timeout: 60_000 }, () => {
  it('are syntax colours from the worker when the cell is printed', async () => {
    const ws = realpathSync(mkdtempSync(join(tmpdir(), 'tiller-e2e-colours-')));
    mkdirSync(join(ws, '.git'));
    const { server, pty } = await openSession({ cwd: ws, args: ['-m', 'gpt-5.5', '--full-auto'] });
    const patch = '*** Begin Patch\n*** Add File: src/value.ts\n+export const answer = 42;\n*** End Patch';
    server.enqueue({ customToolCalls: [{ name: 'apply_patch', input: patch }] }, { text: 'Added.' });
    await typeSlowly(pty, 'add');
    pty.press('enter');
    await pty.waitFor('Added.', 30_000);
    expect(pty.screen()).toMatch(/1 \+export const answer = 42;/);
    // The gutter's green ends, then `export` in the keyword colour, not plain.
    expect(pty.raw()).toMatch(/1 \+\x1b\[39m\x1b\[[0-9;]+mexport\x1b\[[0-9;]+m/);
  });
});
