/**
 * The git lists the /review picker offers: the local branches but the current one, and the recent
 * commits. Run by the TUI itself, hardened as /diff's git (protocol/git-safety.ts).
 */
import { execFile } from 'node:child_process';
import { hardenedGitArgs } from '../../../protocol/git-safety.js';
import type { ReviewCommit } from '../../store-types.js';

/** How many recent commits the commit stage lists. */
export const RECENT_COMMITS = 50;

/** `git for-each-ref --format=%(refname:short) refs/heads` without the branch checked out, sorted. */
export function parseBranches(stdout: string, current: string): string[] {
  const names = stdout.split('\n').map((l) => l.trim());
  return names.filter((n) => n !== '' && n !== current).sort((a, b) => a.localeCompare(b));
}

/** `git log --format=%H%x09%s`: one commit a line, its sha then a tab then its subject. */
export function parseCommits(stdout: string): ReviewCommit[] {
  const commits: ReviewCommit[] = [];
  for (const line of stdout.split('\n')) {
    const tab = line.indexOf('\t');
    const sha = (tab < 0 ? line : line.slice(0, tab)).trim();
    if (/^[0-9a-f]{7,64}$/.test(sha)) commits.push({ sha, subject: tab < 0 ? '' : line.slice(tab + 1).trim() });
  }
  return commits;
}

function git(cwd: string, args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('git', [...hardenedGitArgs(), ...args], { cwd, encoding: 'utf8' }, (error, stdout, stderr) => {
      if (error === null) return resolve(stdout);
      const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
      reject(new Error(missing ? 'git is not installed' : stderr.trim().split('\n')[0] || error.message));
    });
  });
}

/** The local branches a review can be against; an error message when there are none or git failed. */
export async function listBranches(cwd: string): Promise<{ branches: string[] } | { error: string }> {
  try {
    const current = (await git(cwd, ['branch', '--show-current'])).trim();
    const branches = parseBranches(await git(cwd, ['for-each-ref', '--format=%(refname:short)', 'refs/heads']), current);
    return branches.length === 0 ? { error: 'No other local branch to review against.' } : { branches };
  } catch (error) {
    return { error: `Could not list the branches: ${(error as Error).message}` };
  }
}

/** The last RECENT_COMMITS commits of HEAD; an error message when there are none or git failed. */
export async function listCommits(cwd: string): Promise<{ commits: ReviewCommit[] } | { error: string }> {
  try {
    const commits = parseCommits(await git(cwd, ['log', '-n', String(RECENT_COMMITS), '--format=%H%x09%s']));
    return commits.length === 0 ? { error: 'No commit to review yet.' } : { commits };
  } catch (error) {
    return { error: `Could not list the commits: ${(error as Error).message}` };
  }
}
