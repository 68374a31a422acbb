/**
 * The store's view of the workspace before a record: `git ls-files --stage --debug --cached
 * --others` parsed (a tracked path with its mode and its size as last recorded, an untracked one
 * bare), the repositories nested in it, and a file to take one of them in by.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

export interface ListedPath {
  /** Relative to the workspace, `/`-separated; an untracked nested repository ends in `/`. */
  path: string;
  /** `100644`, `100755`, `120000`, `160000` (a nested repository's link); null when untracked. */
  mode: string | null;
  /** The size the index has (as of the last record); null when untracked. */
  size: number | null;
}

const STAGED = /^(\d{6}) [0-9a-f]+ \d\t/u;
const DEBUG = '  ctime: ';
const SIZE = /\n {2}size: (\d+)\t[^\n]*\n/u;

/** `-z` output: each path ends in NUL; a tracked one's debug lines (ending in its size) follow it. */
export function listedPaths(out: string): ListedPath[] {
  const listed: ListedPath[] = [];
  for (let token of out.split('\0')) {
    if (token.startsWith(DEBUG)) {
      const size = SIZE.exec(token);
      const last = listed[listed.length - 1];
      if (size === null) continue;
      if (last !== undefined) last.size = Number(size[1]);
      token = token.slice(size.index + size[0].length);
    }
    if (token === '') continue;
    const staged = STAGED.exec(token);
    if (staged === null) listed.push({ path: token, mode: null, size: null });
    else listed.push({ path: token.slice(staged[0].length), mode: staged[1] ?? null, size: 0 });
  }
  return listed;
}

/** Repositories nested in the workspace: untracked (`dir/`) or linked in the index (mode 160000). */
export function nestedRepositories(listed: readonly ListedPath[]): string[] {
  return listed.flatMap((entry) => {
    if (entry.mode === null && entry.path.endsWith('/')) return [entry.path.slice(0, -1)];
    return entry.mode === '160000' ? [entry.path] : [];
  });
}

/** A regular file under `dir` (breadth first, no `.git`), relative to the workspace; null when it holds none. */
export async function firstFile(workspace: string, dir: string): Promise<string | null> {
  const queue = [dir];
  for (let seen = 0; queue.length > 0 && seen < 10_000; seen++) {
    const current = queue.shift()!;
    const entries = await readdir(join(workspace, current), { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      // hash-object --stdin-paths reads one path a line.
      if (entry.name === '.git' || entry.name.includes('\n')) continue;
      if (entry.isFile()) return `${current}/${entry.name}`;
    }
    for (const entry of entries) if (entry.isDirectory() && entry.name !== '.git') queue.push(`${current}/${entry.name}`);
  }
  return null;
}
