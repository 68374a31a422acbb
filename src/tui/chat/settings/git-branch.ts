/**
 * The Git branch of a directory for the footer, read from `.git/HEAD` (a worktree's `.git` file
 * points to its own HEAD): no `git` process on a path that runs after every turn. Null outside a
 * repository; a detached HEAD shows its short commit, as a shell prompt does.
 */
import { readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';

export function gitBranch(cwd: string): string | null {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    const head = headFile(join(dir, '.git'));
    if (head !== null) return branchOf(head);
    if (dirname(dir) === dir) return null;
  }
}

function headFile(dotGit: string): string | null {
  try {
    if (statSync(dotGit).isDirectory()) return readFileSync(join(dotGit, 'HEAD'), 'utf8');
    const pointer = /^gitdir:\s*(.+)$/m.exec(readFileSync(dotGit, 'utf8'));
    if (pointer === null) return null;
    const gitDir = isAbsolute(pointer[1]!.trim()) ? pointer[1]!.trim() : resolve(dirname(dotGit), pointer[1]!.trim());
    return readFileSync(join(gitDir, 'HEAD'), 'utf8');
  } catch {
    return null;
  }
}

function branchOf(head: string): string | null {
  const ref = /^ref:\s*refs\/heads\/(.+)$/m.exec(head);
  if (ref !== null) return ref[1]!.trim();
  const sha = /^([0-9a-f]{7,})/.exec(head.trim());
  return sha === null ? null : sha[1]!.slice(0, 7);
}
