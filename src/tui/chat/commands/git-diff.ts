/**
 * /diff's git view (diff-explorer/explorer.ts), run by the TUI itself (as Codex's TUI does) rather than as a `!` command: what the
 * user only looks at is not recorded for the model. Every git here runs with the programs a
 * repository's config could name turned off (protocol/git-safety.ts). The diff is the working tree
 * against HEAD (the empty tree before the first commit), then each untracked file as a new file.
 */
import { execFile } from 'node:child_process';
import { HARDENED_DIFF_OPTIONS, hardenedGitArgs } from '../../../protocol/git-safety.js';

export type GitDiffResult =
  | { kind: 'notRepository' }
  | { kind: 'noGit' }
  | { kind: 'clean' }
  | { kind: 'diff'; text: string; files: number; untracked: number; added: number; removed: number }
  | { kind: 'failed'; message: string };

/** Untracked files diffed one by one; past this many the rest are named without their content. */
export const MAX_UNTRACKED_DIFFS = 500;
const MAX_OUTPUT_BYTES = 64 * 1024 * 1024;

interface GitRun {
  code: number | null;
  stdout: string;
  stderr: string;
  missing: boolean;
}

function git(cwd: string, args: readonly string[]): Promise<GitRun> {
  return new Promise((resolve) => {
    execFile(
      'git',
      [...hardenedGitArgs(), ...args],
      { cwd, encoding: 'utf8', maxBuffer: MAX_OUTPUT_BYTES, env: { ...process.env, GIT_PAGER: 'cat', GIT_OPTIONAL_LOCKS: '0' } },
      (error, stdout, stderr) => {
        const err = error as (NodeJS.ErrnoException & { code?: unknown }) | null;
        resolve({
          code: err === null ? 0 : typeof err.code === 'number' ? err.code : null,
          stdout,
          stderr,
          missing: err?.code === 'ENOENT',
        });
      },
    );
  });
}

/** The diff of the repository `cwd` is in, or why there is none. */
export async function gitDiff(cwd: string): Promise<GitDiffResult> {
  const top = await git(cwd, ['rev-parse', '--show-toplevel']);
  if (top.missing) return { kind: 'noGit' };
  if (top.code !== 0) return { kind: 'notRepository' };
  const root = top.stdout.trim();
  const head = await git(root, ['rev-parse', '--verify', '--quiet', 'HEAD']);
  const base = head.code === 0 ? 'HEAD' : (await git(root, ['hash-object', '-t', 'tree', '/dev/null'])).stdout.trim();
  const tracked = await git(root, ['diff', ...HARDENED_DIFF_OPTIONS, base, '--']);
  if (tracked.code !== 0) return { kind: 'failed', message: tracked.stderr.trim() || `git diff exited with ${tracked.code}` };
  const others = await git(root, ['ls-files', '--others', '--exclude-standard', '-z']);
  if (others.code !== 0) return { kind: 'failed', message: others.stderr.trim() || `git ls-files exited with ${others.code}` };
  const untracked = others.stdout.split('\0').filter((path) => path !== '');
  const parts = [tracked.stdout];
  for (const [i, path] of untracked.entries()) {
    if (i >= MAX_UNTRACKED_DIFFS) {
      parts.push(`… and ${untracked.length - i} more untracked files, not shown:\n${untracked.slice(i).join('\n')}\n`);
      break;
    }
    // --no-index exits 1 when the files differ, which a new file always does.
    const file = await git(root, ['diff', '--no-index', ...HARDENED_DIFF_OPTIONS, '--', '/dev/null', path]);
    if (file.code === 0 || file.code === 1) parts.push(file.stdout);
    else parts.push(`(could not diff untracked file ${path}: ${file.stderr.trim()})\n`);
  }
  const text = parts.join('');
  if (text.trim() === '') return { kind: 'clean' };
  return { kind: 'diff', text, untracked: untracked.length, ...diffCounts(text) };
}

/** Files, added and removed lines of a unified diff. */
export function diffCounts(text: string): { files: number; added: number; removed: number } {
  let files = 0;
  let added = 0;
  let removed = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith('diff --git ')) files += 1;
    else if (line.startsWith('+') && !line.startsWith('+++ ')) added += 1;
    else if (line.startsWith('-') && !line.startsWith('--- ')) removed += 1;
  }
  return { files, added, removed };
}

export const NOT_A_REPOSITORY = '/diff shows the changes of a Git repository, and this directory is not inside one.';
export const NO_GIT = '/diff needs git, and git is not installed here (or not on PATH).';
export const NO_CHANGES = 'No changes: the working tree matches the last commit and there are no untracked files.';

/** What the explorer's git view says of the working tree: why there is no diff, or its counts. */
export function diffSummary(result: GitDiffResult): { kind: 'info' | 'error'; text: string } {
  switch (result.kind) {
    case 'notRepository':
      return { kind: 'info', text: NOT_A_REPOSITORY };
    case 'noGit':
      return { kind: 'error', text: NO_GIT };
    case 'clean':
      return { kind: 'info', text: NO_CHANGES };
    case 'failed':
      return { kind: 'error', text: `/diff failed: ${result.message}` };
    case 'diff': {
      const files = `${result.files} file${result.files === 1 ? '' : 's'} changed`;
      const untracked = result.untracked === 0 ? '' : `, ${result.untracked} untracked`;
      return { kind: 'info', text: `Working tree against the last commit: ${files}${untracked} (+${result.added} −${result.removed})` };
    }
  }
}
