/** /diff runs git with every program a repository's config could name turned off (issue: the sandbox review). */
import { chmodSync, existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { execFileSync, execSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DIFF_COMMAND } from '../../../../src/tui/chat/commands/local-commands.js';

describe("/diff's git in a repository whose config names programs", () => {
  it('runs neither the fsmonitor, a hook, an external diff nor a textconv', () => {
    const repo = mkdtempSync(join(tmpdir(), 'tiller-diff-'));
    const git = (...args: string[]): string =>
      execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { cwd: repo, encoding: 'utf8' });
    git('init', '-q');
    writeFileSync(join(repo, 'f.txt'), 'a\n');
    writeFileSync(join(repo, '.gitattributes'), '*.txt diff=evil\n');
    git('add', '.');
    git('commit', '-qm', 'init');
    writeFileSync(join(repo, 'f.txt'), 'a\nb\n');
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
    const out = execSync(DIFF_COMMAND, { cwd: repo, encoding: 'utf8' });
    expect(out).toContain('+b');
    for (const mark of ['FSMONITOR', 'EXTERNAL', 'TEXTCONV', 'HOOK']) expect(existsSync(join(repo, mark))).toBe(false);
  });
});
