/**
 * The "changed by commands" cell: files a turn's commands (`sed -i`, a formatter, a generator)
 * changed, as the runtime found them by comparing its checkpoints before and after the turn
 * (apply_patch's own files left out), drawn as the patch cell draws a patch.
 */
import type { FileUpdateChange } from '../../../protocol/api.js';
import type { NewCell } from '../../store-types.js';
import { changeFiles } from './patch-cell.js';

/** Null when commands changed nothing (the checkpoint before a turn, or a turn that only patched). */
export function commandChangesCell(changes: readonly FileUpdateChange[], cwd: string): NewCell | null {
  if (changes.length === 0) return null;
  return { kind: 'commandChanges', files: changeFiles(changes.map(asHunks), cwd) };
}

/**
 * An update's diff comes from `git diff`: its `diff --git`, `---` and `+++` lines go (the patch cell
 * draws hunks, and would count them as changed lines). A binary one has no hunk: it becomes the NUL
 * the patch cell shows as a binary file.
 */
function asHunks(change: FileUpdateChange): FileUpdateChange {
  if (change.kind.type !== 'update') return change;
  const lines = change.diff.split('\n');
  const first = lines.findIndex((line) => line.startsWith('@@'));
  return { ...change, diff: first === -1 ? '\u0000' : lines.slice(first).join('\n') };
}
