/**
 * A git patch (`diff --git` sections, as git and the checkpoint store write them) split into its
 * files: each one's own section (what `y` copies and `s` saves, `git apply` takes it alone), its
 * hunks for the diff rows, and its +/− counts. Pure.
 */

export interface PatchFile {
  path: string;
  kind: 'add' | 'delete' | 'update';
  /** This file's whole section of the patch, headers included. */
  patch: string;
  /** From the first hunk header on (what diff/diff-rows.ts numbers and colours). */
  hunks: string;
  added: number;
  removed: number;
  binary: boolean;
}

const HEADER = /^diff --git a\/(.*) b\/(.*)$/;

function unquote(path: string): string {
  return path.startsWith('"') && path.endsWith('"') ? path.slice(1, -1) : path;
}

function fileOf(lines: readonly string[]): PatchFile {
  const header = HEADER.exec(lines[0] ?? '');
  let path = unquote(header?.[2] ?? lines[0]?.slice('diff --git '.length) ?? '');
  let kind: PatchFile['kind'] = 'update';
  let binary = false;
  let added = 0;
  let removed = 0;
  let hunkStart = -1;
  for (const [i, line] of lines.entries()) {
    if (hunkStart < 0) {
      if (line.startsWith('new file mode')) kind = 'add';
      else if (line.startsWith('deleted file mode')) kind = 'delete';
      else if (line.startsWith('+++ b/')) path = unquote(line.slice('+++ b/'.length));
      else if (line.startsWith('--- a/') && kind === 'delete') path = unquote(line.slice('--- a/'.length));
      else if (line === 'GIT binary patch' || line.startsWith('Binary files ')) binary = true;
      else if (line.startsWith('@@')) hunkStart = i;
      continue;
    }
    if (line.startsWith('+')) added++;
    else if (line.startsWith('-')) removed++;
  }
  const patch = `${lines.join('\n')}\n`;
  const hunks = hunkStart < 0 ? '' : `${lines.slice(hunkStart).join('\n')}\n`;
  return { path, kind, patch, hunks, added, removed, binary };
}

/** The files of `patch`, in its order; text before the first `diff --git` is dropped. */
export function splitPatch(patch: string): PatchFile[] {
  const lines = patch.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const files: PatchFile[] = [];
  let current: string[] | null = null;
  for (const line of lines) {
    if (line.startsWith('diff --git ')) {
      if (current !== null) files.push(fileOf(current));
      current = [line];
    } else current?.push(line);
  }
  if (current !== null) files.push(fileOf(current));
  return files;
}
