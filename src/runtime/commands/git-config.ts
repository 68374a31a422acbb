/**
 * Reads a repository's git config as git resolves it (includes followed), for the rule in
 * protocol/git-safety.ts. `git config --list` itself runs no configured program.
 */
import { execFile } from 'node:child_process';
import { type GitConfigEntry, parseGitConfigList } from '../../protocol/git-safety.js';

/** The entries git sees from `cwd`; null when git cannot tell (no git, a config it cannot read, a timeout). */
export function readGitConfig(cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<GitConfigEntry[] | null> {
  return new Promise((resolve) => {
    execFile(
      'git',
      ['--no-pager', 'config', '--list', '--show-scope', '--includes', '-z'],
      { cwd, env: { ...env, GIT_TERMINAL_PROMPT: '0' }, timeout: 5000, maxBuffer: 8 * 1024 * 1024 },
      (error, stdout) => resolve(error === null ? parseGitConfigList(stdout) : null),
    );
  });
}
