/** /diff in the real bin: the whole diff in a coloured pager, untracked files included, never sent to the model (issue 30). */
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
  it('opens every line in the pager, in colour, new files included, and the next message does not carry it', async () => {
    const repo = repository();
    writeFileSync(join(repo, 'big.txt'), `${Array.from({ length: 400 }, (_, i) => `changed ${i}`).join('\n')}\n`);
    writeFileSync(join(repo, 'untracked.txt'), 'UNTRACKED-LAST-LINE\n');
    const session = await openSession({ cwd: repo, rows: 30, cols: 100 });
    const { server, pty } = session;
    await typeSlowly(pty, '/diff');
    pty.press('enter');
    let screen = await pty.waitFor(/ Diff · 1–29 of \d+/);
    expect(pty.bufferType()).toBe('alternate');
    expect(screen).toContain('diff --git a/big.txt b/big.txt');
    const total = Number(/ Diff · 1–29 of (\d+)/.exec(screen)![1]);
    // 400 lines out, 400 in, the headers of both files and the untracked file's one line.
    expect(total).toBeGreaterThan(800);
    expect(pty.raw()).toMatch(/\x1b\[31m-old 0/);
    expect(pty.raw()).toMatch(/\x1b\[36m@@ -1,400 \+1,400 @@/);
    pty.press('end');
    screen = await pty.waitFor('+UNTRACKED-LAST-LINE');
    expect(pty.raw()).toMatch(/\x1b\[32m\+UNTRACKED-LAST-LINE/);
    expect(screen).toMatch(new RegExp(`Diff · ${total - 28}–${total} of ${total}`));
    expect(screen).toContain('+++ b/untracked.txt');
    pty.write('q');
    screen = await pty.waitFor('Shown in the pager, not sent to the model.');
    expect(screen).toContain('/diff: 2 files changed, 1 untracked (+401 −400).');
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
    expect(await clean.pty.waitFor(NO_CHANGES)).not.toContain(' Diff · ');
    clean.pty.kill();
    const outside = await openSession({ cwd: mkdtempSync(join(tmpdir(), 'tiller-e2e-no-repo-')) });
    await typeSlowly(outside.pty, '/diff');
    outside.pty.press('enter');
    const screen = await outside.pty.waitFor(NOT_A_REPOSITORY);
    expect(screen).not.toContain('usage: git');
  });
});
