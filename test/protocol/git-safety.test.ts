import { describe, expect, it } from 'vitest';
import { hardenedGitArgs, namesProgram, parseGitConfigList, repositoryProgramKeys } from '../../src/protocol/git-safety.js';

describe('git keys that run programs', () => {
  it('parses `git config --list --show-scope -z`, values with newlines included', () => {
    expect(parseGitConfigList('global\0user.name\nMe\0local\0core.fsmonitor\ntouch x\ny\0local\0core.bare\0')).toEqual([
      { scope: 'global', key: 'user.name', value: 'Me' },
      { scope: 'local', key: 'core.fsmonitor', value: 'touch x\ny' },
      { scope: 'local', key: 'core.bare', value: '' },
    ]);
  });

  it.each([
    ['core.fsmonitor', 'touch /tmp/x', true],
    ['core.fsmonitor', 'true', false],
    ['core.fsmonitor', 'false', false],
    ['core.pager', 'less', true],
    ['core.sshcommand', 'ssh -i k', true],
    ['core.hookspath', '/evil', true],
    ['pager.log', 'evil', true],
    ['diff.external', 'evil', true],
    ['diff.Evil.textconv', 'evil', true],
    ['diff.evil.command', 'evil', true],
    ['filter.lfs.process', 'git-lfs filter-process', true],
    ['filter.x.clean', 'evil', true],
    ['credential.helper', 'store', true],
    ['credential.https://example.com.helper', 'evil', true],
    ['gpg.program', 'evil', true],
    ['gpg.ssh.program', 'evil', true],
    ['user.name', 'me', false],
    ['core.autocrlf', 'true', false],
    ['diff.renames', 'true', false],
  ])('%s = %s: %s', (key, value, runs) => {
    expect(namesProgram({ key, value })).toBe(runs);
  });

  it("only the repository's own scopes decide; the user's global pager is theirs", () => {
    const entries = parseGitConfigList(
      'global\0core.pager\ndelta\0system\0credential.helper\nstore\0local\0user.name\nx\0worktree\0diff.external\nevil\0',
    );
    expect(repositoryProgramKeys(entries)).toEqual(['diff.external']);
  });

  it("Tiller's own git: no pager, fsmonitor or hooks, and every configured program emptied", () => {
    const entries = parseGitConfigList('global\0core.pager\ndelta\0local\0filter.x.clean\nevil\0local\0core.hookspath\n/e\0');
    expect(hardenedGitArgs(entries)).toEqual([
      '--no-pager',
      '-c',
      'core.fsmonitor=false',
      '-c',
      'core.hooksPath=/dev/null',
      '-c',
      'core.pager=',
      '-c',
      'filter.x.clean=',
    ]);
  });
});
