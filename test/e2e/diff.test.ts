/** /diff in the real bin: the explorer's git view, untracked files included, each diff coloured, never sent to the model (issue 30). */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NO_CHANGES, NOT_A_REPOSITORY } from '../../src/tui/chat/commands/git-diff.js';
import { sessionPerTest, typeSlowly, userTexts, waitForRequests } from './helpers.js';

const openSession = sessionPerTest();

function repository(): string {
  const repo = mkdtempSync(join(tmpdir(), 'tiller-e2e-diff-'));
  const git = (...args: string[]): void => {
    execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { cwd: repo });
  };
  git('init', '-q');
  writeFileSync(join(repo, 'big.txt'), `${Array.from({ length: 400 }, (_, i) => `old ${i}`).join('\n')}\n`);
  git('add', '.');
  git('commit', '-qm', 'init');
  return repo;
}

describe('/diff', { timeout: 60_000 }, () => {
  it("lists the working tree's files, new ones included, shows each diff in colour to its last line, and the next message does not carry it", async () => {
    const repo = repository();
    writeFileSync(join(repo, 'big.txt'), `${Array.from({ length: 400 }, (_, i) => `changed ${i}`).join('\n')}\n`);
    writeFileSync(join(repo, 'untracked.txt'), 'UNTRACKED-LAST-LINE\n');
    const session = await openSession({ cwd: repo, rows: 30, cols: 100 });
    const { server, pty } = session;
    await typeSlowly(pty, '/diff');
    pty.press('enter');
    let screen = await pty.waitFor('Tab this session · ↑/↓ select · Enter diff · y copy · s save · q close');
    expect(pty.bufferType()).toBe('alternate');
    expect(screen).toContain('Working tree against the last commit: 2 files changed, 1 untracked (+401 −400)');
    expect(screen).toMatch(/› big\.txt edited \+400 −400/);
    expect(screen).toMatch(/untracked\.txt added \+1 −0/);
    pty.press('enter');
    screen = await pty.waitFor(/1 -old 0/);
    expect(pty.raw()).toMatch(/\x1b\[31m +1 -\x1b\[39mold 0/);
    pty.press('end');
    screen = await pty.waitFor(/400 \+changed 399/);
    expect(screen).not.toContain('old 0');
    pty.press('esc');
    await pty.waitFor(/› big\.txt/);
    pty.press('down');
    await pty.waitFor(/› untracked\.txt/);
    pty.press('enter');
    await pty.waitFor(/1 \+UNTRACKED-LAST-LINE/);
    expect(pty.raw()).toMatch(/\x1b\[32m +1 \+\x1b\[39mUNTRACKED-LAST-LINE/);
    pty.write('q');
    await pty.waitFor(/› untracked\.txt/);
    pty.write('q');
    await pty.waitFor('Ask Tiller to do anything');
    expect(pty.bufferType()).toBe('normal');
    server.enqueue({ text: 'Answer.' });
    await typeSlowly(pty, 'next');
    pty.press('enter');
    await pty.waitFor('Answer.');
    const [request] = await waitForRequests(session, 1);
    expect(userTexts(request!).join('\n')).not.toContain('changed');
    expect(JSON.stringify(request!.body)).not.toContain('UNTRACKED-LAST-LINE');
  });

  it('says there are no changes on a clean tree, and that the directory is no repository outside one', async () => {
    const clean = await openSession({ cwd: repository() });
    await typeSlowly(clean.pty, '/diff');
    clean.pty.press('enter');
    expect(await clean.pty.waitFor(NO_CHANGES)).toContain('Diff explorer · git working tree');
    clean.pty.kill();
    const outside = await openSession({ cwd: mkdtempSync(join(tmpdir(), 'tiller-e2e-no-repo-')) });
    await typeSlowly(outside.pty, '/diff');
    outside.pty.press('enter');
    const screen = await outside.pty.waitFor(NOT_A_REPOSITORY);
    expect(screen).not.toContain('usage: git');
  });
});
