/** A `fileChange` item as the transcript's patch cell: paths shown relative to the session, +/− counted from the diff. */
import { relative, isAbsolute, sep } from 'node:path';
import type { FileUpdateChange, PatchApplyStatus, ThreadItem } from '../../../protocol/api.js';
import type { NewCell, PatchCellFile, PatchCellStatus } from '../../store-types.js';

type FileChangeItem = Extract<ThreadItem, { type: 'fileChange' }>;

export function shownPath(path: string, cwd: string): string {
  if (!isAbsolute(path)) return path;
  const rel = relative(cwd, path);
  return rel !== '' && !rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel) ? rel : path;
}

function counts(change: FileUpdateChange): { added: number; removed: number } {
  const lines = change.diff.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  if (change.kind.type === 'add') return { added: lines.length, removed: 0 };
  if (change.kind.type === 'delete') return { added: 0, removed: lines.length };
  let added = 0;
  let removed = 0;
  for (const line of lines) {
    if (line.startsWith('+')) added++;
    else if (line.startsWith('-')) removed++;
  }
  return { added, removed };
}

export function patchFiles(item: FileChangeItem, cwd: string): PatchCellFile[] {
  return changeFiles(item.changes, cwd);
}

/** Files of a change list (a patch's, or what commands changed in a turn) as the patch cell draws them. */
export function changeFiles(changes: readonly FileUpdateChange[], cwd: string): PatchCellFile[] {
  return changes.map((change) => ({
    path: shownPath(change.path, cwd),
    kind: change.kind.type,
    movePath: change.kind.type === 'update' && change.kind.move_path !== null ? shownPath(change.kind.move_path, cwd) : null,
    diff: change.diff,
    ...counts(change),
  }));
}

const STATUS: Record<PatchApplyStatus, PatchCellStatus> = {
  inProgress: 'interrupted',
  completed: 'completed',
  failed: 'failed',
  declined: 'declined',
};

/** `status`: overrides the item's (a patch waiting for approval is `pending`). */
export function patchCell(item: FileChangeItem, cwd: string, status?: PatchCellStatus): NewCell {
  return { kind: 'patch', status: status ?? STATUS[item.status], files: patchFiles(item, cwd) };
}
