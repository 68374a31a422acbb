/**
 * The /diff explorer in the real bin (issue 28): two turns patch files in a workspace of its own (the
 * checkpoints are on there), /diff lists them grouped by turn, Enter shows a file's numbered diff,
 * `y` writes its patch as OSC 52, `s` saves it, `r` puts a file back byte for byte (asking first
 * when it was changed by hand), Tab shows the git working tree.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NOT_A_REPOSITORY } from '../../src/tui/chat/commands/git-diff.js';
import type { TillerPty } from '../support/pty.js';
import { sessionPerTest, typeSlowly } from './helpers.js';

const openSession = sessionPerTest();

const A = 'alpha\nbeta\ngamma\n';
// No newline at the end and executable: a revert must bring both back.
const B = '#!/bin/sh\necho one\necho two';

function workspace(git: boolean): string {
  const ws = realpathSync(mkdtempSync(join(tmpdir(), 'tiller-e2e-explorer-')));
  writeFileSync(join(ws, 'a.txt'), A);
  writeFileSync(join(ws, 'b.sh'), B);
  chmodSync(join(ws, 'b.sh'), 0o755);
  if (git) {
    const run = (...args: string[]): void => void execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { cwd: ws });
    run('init', '-q');
    run('add', '.');
    run('commit', '-qm', 'init');
  }
  return ws;
}

const TURN_1 = '*** Begin Patch\n*** Update File: a.txt\n@@\n alpha\n-beta\n+BETA\n*** Add File: notes/new.txt\n+fresh\n*** End Patch';
const TURN_2 = '*** Begin Patch\n*** Update File: b.sh\n@@\n echo one\n-echo two\n+echo TWO\n*** End Patch';

async function turn(pty: TillerPty, prompt: string, answer: string): Promise<void> {
  await typeSlowly(pty, prompt);
  pty.press('enter');
  await pty.waitFor(answer, 30_000);
  // The turn ends (its checkpoint recorded) before the composer takes a command again.
  await pty.waitFor((s) => s.includes(answer) && !s.includes('esc to interrupt'), 30_000);
}

async function openExplorer(pty: TillerPty): Promise<string> {
  await typeSlowly(pty, '/diff');
  pty.press('enter');
  return pty.waitFor(' this session', 15_000);
}

const osc52Payloads = (raw: string): string[] =>
  [...raw.matchAll(/\x1b\]52;c;([A-Za-z0-9+/=]*)\x07/g)].map((m) => Buffer.from(m[1]!, 'base64').toString('utf8'));

describe('the /diff explorer', { timeout: 120_000 }, () => {
  it('lists the files by turn; Enter diff, y copies, s saves, r reverts byte for byte, Tab shows git', async () => {
    const ws = workspace(true);
    const { server, pty } = await openSession({ cwd: ws, rows: 30, cols: 110, args: ['-m', 'gpt-5.5', '--full-auto'] });
    server.enqueue({ customToolCalls: [{ name: 'apply_patch', input: TURN_1 }] }, { text: 'First done.' });
    await turn(pty, 'first change', 'First done.');
    server.enqueue({ customToolCalls: [{ name: 'apply_patch', input: TURN_2 }] }, { text: 'Second done.' });
    await turn(pty, 'second change', 'Second done.');

    let screen = await openExplorer(pty);
    screen = await pty.waitFor('Turn 2 · second change', 15_000);
    expect(pty.bufferType()).toBe('alternate');
    expect(screen).toContain('Turn 1 · first change');
    expect(screen).toMatch(/› a\.txt edited \+1 −1/);
    expect(screen).toMatch(/notes\/new\.txt added \+1 −0/);
    expect(screen).toMatch(/b\.sh edited \+1 −1/);
    expect(screen.indexOf('a.txt')).toBeLessThan(screen.indexOf('Turn 2'));
    expect(screen.indexOf('b.sh')).toBeGreaterThan(screen.indexOf('Turn 2'));
    expect(screen).toContain('Tab git working tree');

    pty.press('enter');
    screen = await pty.waitFor(/2 \+BETA/);
    expect(screen).toMatch(/1 {2}alpha/);
    expect(screen).toMatch(/2 -beta/);
    expect(screen).toContain('Esc back');

    pty.write('y');
    await pty.waitFor('Copied the patch of a.txt');
    const copied = osc52Payloads(pty.raw()).at(-1)!;
    expect(copied).toMatch(/^diff --git a\/a\.txt b\/a\.txt\n/);
    expect(copied).toContain('-beta\n+BETA\n');
    expect(copied).not.toContain('new.txt');

    pty.write('s');
    await pty.waitFor('Save the patch to (Enter save · Esc cancel): a.txt.turn-1.patch');
    pty.press('enter');
    await pty.waitFor(`Saved the patch of a.txt to ${join(ws, 'a.txt.turn-1.patch')}.`);
    expect(readFileSync(join(ws, 'a.txt.turn-1.patch'), 'utf8')).toBe(copied);
    // The same name again: the file is not overwritten, the prompt stays for another path.
    pty.write('s');
    await pty.waitFor('Save the patch to');
    pty.press('enter');
    await pty.waitFor('Not saved (that file exists; type another path): ');
    pty.press('esc');
    await pty.waitFor('Cancelled.');

    pty.press('esc');
    await pty.waitFor('Tab git working tree');
    pty.write('r');
    await pty.waitFor('Reverted a.txt to before Turn 1.');
    expect(readFileSync(join(ws, 'a.txt'), 'utf8')).toBe(A);
    expect(readFileSync(join(ws, 'notes/new.txt'), 'utf8')).toBe('fresh\n');
    expect(pty.screen()).toMatch(/a\.txt edited \+1 −1 reverted/);

    // b.sh changed by hand after turn 2: Tiller names it and asks before overwriting.
    writeFileSync(join(ws, 'b.sh'), `${B}\n# mine\n`);
    pty.press('down');
    pty.press('down');
    await pty.waitFor(/› b\.sh/);
    pty.write('r');
    await pty.waitFor(`Changed by hand since the agent's last turn: ${join(ws, 'b.sh')}`);
    expect(readFileSync(join(ws, 'b.sh'), 'utf8')).toBe(`${B}\n# mine\n`);
    pty.write('y');
    await pty.waitFor('Reverted b.sh to before Turn 2.');
    expect(readFileSync(join(ws, 'b.sh'), 'utf8')).toBe(B);
    expect(statSync(join(ws, 'b.sh')).mode & 0o777).toBe(0o755);

    pty.press('tab');
    screen = await pty.waitFor(' git working tree · 2 files · Tab this session');
    screen = await pty.waitFor('Working tree against the last commit');
    // a.txt and b.sh are back as committed: only what the session added is left.
    expect(screen).toContain('Working tree against the last commit: 2 files changed, 2 untracked (+10 −0)');
    expect(screen).toMatch(/notes\/new\.txt added/);
    expect(screen).toMatch(/a\.txt\.turn-1\.patch added/);
    expect(screen).not.toMatch(/› a\.txt edited/);
    expect(screen).toContain('Tab this session');

    pty.write('q');
    await pty.waitFor('Ask Tiller to do anything');
    expect(pty.bufferType()).toBe('normal');
  });

  it('outside a git repository the session view still lists the turn, and the git view says why it is empty', async () => {
    const ws = workspace(false);
    const { server, pty } = await openSession({ cwd: ws, args: ['-m', 'gpt-5.5', '--full-auto'] });
    server.enqueue({ customToolCalls: [{ name: 'apply_patch', input: TURN_1 }] }, { text: 'First done.' });
    await turn(pty, 'first change', 'First done.');
    await openExplorer(pty);
    await pty.waitFor(/› a\.txt edited \+1 −1/, 15_000);
    pty.press('tab');
    await pty.waitFor(NOT_A_REPOSITORY);
  });
});
