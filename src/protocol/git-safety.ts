/**
 * Git keys that make a read-only git command run a program: a repository's `.git/config` (or a
 * file it includes) can name one for `core.fsmonitor` (run by `git status`), `diff.external`,
 * a textconv or filter driver (`git diff`, `git log -p`), a pager, hooks, credential helpers or an
 * ssh command. The rule (docs/codex-parity.md, "git commands"):
 * - a git command the approval policy would run unasked as read-only is read-only only while the
 *   repository's own config (local and worktree scope) names none of these programs;
 * - every git Tiller runs itself, or runs unasked as read-only, has them turned off
 *   (`hardenedGitArgs`, `HARDENED_GIT_ENV`).
 * The user's global and system config are the user's own and are left as they are.
 */

/** One `git config --list --show-scope -z` entry; keys are lower-case except subsections. */
export interface GitConfigEntry {
  scope: string;
  key: string;
  value: string;
}

const PROGRAM_KEYS = [
  /^core\.(pager|sshcommand|editor|askpass|hookspath|alternaterefscommand|gitproxy)$/i,
  /^sequence\.editor$/i,
  /^pager\..+$/i,
  /^diff\.external$/i,
  /^diff\..+\.(textconv|command)$/i,
  /^filter\..+\.(clean|smudge|process)$/i,
  /^merge\..+\.driver$/i,
  /^credential\.(.+\.)?helper$/i,
  /^gpg\.(.+\.)?program$/i,
  /^uploadpack\.packobjectshook$/i,
  /^interactive\.difffilter$/i,
  /^remote\..+\.(uploadpack|receivepack)$/i,
];

const BOOLEAN_VALUE = /^(true|false|yes|no|on|off|1|0|)$/i;

/** Whether this entry names a program git may run. */
export function namesProgram(entry: Pick<GitConfigEntry, 'key' | 'value'>): boolean {
  // `core.fsmonitor = true` is git's own daemon; any other value is a hook program.
  if (/^core\.fsmonitor$/i.test(entry.key)) return !BOOLEAN_VALUE.test(entry.value.trim());
  return PROGRAM_KEYS.some((pattern) => pattern.test(entry.key));
}

/** The keys of the repository's own config (local, worktree) that name programs. */
export function repositoryProgramKeys(entries: readonly GitConfigEntry[]): string[] {
  return [...new Set(entries.filter((e) => (e.scope === 'local' || e.scope === 'worktree') && namesProgram(e)).map((e) => e.key))];
}

/** Parses `git config --list --show-scope -z`: `scope NUL key LF value NUL` per entry. */
export function parseGitConfigList(output: string): GitConfigEntry[] {
  const fields = output.split('\0');
  const entries: GitConfigEntry[] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const scope = fields[i]!;
    const pair = fields[i + 1]!;
    const newline = pair.indexOf('\n');
    entries.push(newline === -1 ? { scope, key: pair, value: '' } : { scope, key: pair.slice(0, newline), value: pair.slice(newline + 1) });
  }
  return entries;
}

/**
 * Global options for a git Tiller runs itself: no pager, no fsmonitor, no hooks, and every
 * program-naming key found in any scope set empty (an empty driver or helper is not run).
 * Diffs add `--no-ext-diff --no-textconv` (HARDENED_DIFF_OPTIONS).
 */
export function hardenedGitArgs(entries: readonly GitConfigEntry[] = []): string[] {
  const keys = [...new Set(entries.filter((e) => namesProgram(e) && !/^core\.fsmonitor$/i.test(e.key)).map((e) => e.key))];
  return [
    '--no-pager',
    '-c',
    'core.fsmonitor=false',
    '-c',
    'core.hooksPath=/dev/null',
    ...keys.filter((key) => !/^core\.hookspath$/i.test(key)).flatMap((key) => ['-c', `${key}=`]),
  ];
}

export const HARDENED_DIFF_OPTIONS = ['--no-ext-diff', '--no-textconv'];

/**
 * Environment for a command run unasked as read-only: git's command-line config through
 * GIT_CONFIG_COUNT (git 2.31+), so `git status` runs neither an fsmonitor nor a hook.
 */
export const HARDENED_GIT_ENV: Readonly<Record<string, string>> = {
  GIT_CONFIG_COUNT: '2',
  GIT_CONFIG_KEY_0: 'core.fsmonitor',
  GIT_CONFIG_VALUE_0: 'false',
  GIT_CONFIG_KEY_1: 'core.hooksPath',
  GIT_CONFIG_VALUE_1: '/dev/null',
  GIT_PAGER: 'cat',
};
