/** /diff's git: hardened against programs a repository's config names, untracked files included (issue 30). */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { diffSummary, gitDiff, NO_CHANGES, NOT_A_REPOSITORY } from '../../../../src/tui/chat/commands/git-diff.js';

function repository(): { repo: string; git: (...args: string[]) => string } {
  const repo = mkdtempSync(join(tmpdir(), 'tiller-diff-'));
  const git = (...args: string[]): string =>
    execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { cwd: repo, encoding: 'utf8' });
  git('init', '-q');
  return { repo, git };
}

describe("/diff's git", () => {
  it('runs neither the fsmonitor, a hook, an external diff nor a textconv, for tracked and untracked files', async () => {
    const { repo, git } = repository();
    writeFileSync(join(repo, 'f.txt'), 'a\n');
    writeFileSync(join(repo, '.gitattributes'), '*.txt diff=evil\n');
    git('add', '.');
    git('commit', '-qm', 'init');
    writeFileSync(join(repo, 'f.txt'), 'a\nb\n');
    writeFileSync(join(repo, 'new.txt'), 'brand new\n');
    for (const [key, mark] of [
      ['core.fsmonitor', 'FSMONITOR'],
      ['diff.external', 'EXTERNAL'],
      ['diff.evil.textconv', 'TEXTCONV'],
    ]) {
      git('config', key!, `touch ${join(repo, mark!)}; cat`);
    }
    const hook = join(repo, '.git', 'hooks', 'post-index-change');
    writeFileSync(hook, `#!/bin/sh\ntouch ${join(repo, 'HOOK')}\n`);
    chmodSync(hook, 0o755);
    const result = await gitDiff(repo);
    expect(result.kind).toBe('diff');
    if (result.kind !== 'diff') return;
    expect(result.text).toContain('+b');
    expect(result.text).toContain('+++ b/new.txt');
    expect(result.text).toContain('+brand new');
    expect(result).toMatchObject({ files: 2, untracked: 1, added: 2, removed: 0 });
    for (const mark of ['FSMONITOR', 'EXTERNAL', 'TEXTCONV', 'HOOK']) expect(existsSync(join(repo, mark))).toBe(false);
  });

  it('shows staged and unstaged changes against HEAD, and new files before the first commit', async () => {
    const { repo, git } = repository();
    writeFileSync(join(repo, 'staged.txt'), 'one\n');
    git('add', 'staged.txt');
    const first = await gitDiff(repo);
    expect(first.kind === 'diff' && first.text).toContain('+one');
    git('commit', '-qm', 'init');
    writeFileSync(join(repo, 'staged.txt'), 'two\n');
    git('add', 'staged.txt');
    const second = await gitDiff(repo);
    expect(second.kind === 'diff' && second.text).toContain('-one\n+two');
  });

  it('runs from a subdirectory and leaves ignored files out', async () => {
    const { repo, git } = repository();
    writeFileSync(join(repo, '.gitignore'), 'ignored.txt\n');
    git('add', '.');
    git('commit', '-qm', 'init');
    mkdirSync(join(repo, 'sub'));
    writeFileSync(join(repo, 'ignored.txt'), 'x\n');
    writeFileSync(join(repo, 'top.txt'), 'top\n');
    const result = await gitDiff(join(repo, 'sub'));
    expect(result.kind === 'diff' && result.text).toContain('+++ b/top.txt');
    expect(result.kind === 'diff' && result.text).not.toContain('ignored.txt');
  });

  it('says so on a clean tree and outside a repository', async () => {
    const { repo, git } = repository();
    writeFileSync(join(repo, 'f.txt'), 'a\n');
    git('add', '.');
    git('commit', '-qm', 'init');
    const clean = await gitDiff(repo);
    expect(clean).toEqual({ kind: 'clean' });
    expect(diffSummary(clean).text).toBe(NO_CHANGES);
    const outside = await gitDiff(mkdtempSync(join(tmpdir(), 'tiller-no-repo-')));
    expect(outside).toEqual({ kind: 'notRepository' });
    expect(diffSummary(outside).text).toBe(NOT_A_REPOSITORY);
  });
});
