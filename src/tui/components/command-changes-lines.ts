/**
 * The "changed by commands" cell's rows: a title naming how many files, then the files and their
 * diffs exactly as the patch cell draws them (patch-lines.ts), collapsed past a screenful the same way.
 */
import type { ChalkInstance } from 'chalk';
import type { TranscriptCell } from '../store-types.js';
import { PATCH_CELL_MAX_ROWS, patchLines } from './patch-lines.js';
import { defaultChalk, wrapWithPrefix } from './row-shapes.js';

export const COMMAND_CHANGES_TITLE = 'Changed by commands';

export function commandChangesLines(
  cell: Extract<TranscriptCell, { kind: 'commandChanges' }>,
  width: number,
  c: ChalkInstance = defaultChalk,
  whole = false,
  maxRows = PATCH_CELL_MAX_ROWS,
): string[] {
  const count = cell.files.length === 1 ? '1 file' : `${cell.files.length} files`;
  const title = wrapWithPrefix(`${c.bold(COMMAND_CHANGES_TITLE)} ${c.dim(`(${count}, found after the turn)`)}`, width, '• ', '  ');
  return [...title, ...patchLines({ kind: 'patch', id: cell.id, status: 'completed', files: cell.files }, width, c, whole, maxRows)];
}
