/**
 * The patch cell's rows: with more than one file, first the file list with each one's `+a -r`; then
 * per file a header (`Added`/`Edited`/`Deleted`, the path, `+a -r`) and its diff (diff/diff-rows.ts:
 * line numbers, syntax colour, changed words marked, wrapped, never cut). In the transcript a diff
 * past a screenful (the terminal's height, patchCellRows) stops there with the Ctrl+T hint, as a
 * reasoning summary does; the pager draws it whole (`whole`).
 */
import type { ChalkInstance } from 'chalk';
import { diffRows } from '../diff/diff-rows.js';
import { sanitize } from '../markdown.js';
import type { PatchCellFile, TranscriptCell } from '../store-types.js';
import { defaultChalk, wrapWithPrefix } from './row-shapes.js';
import { palette } from '../theme.js';

/** Rows of diff the transcript shows of one patch when the screen's height is not known. */
export const PATCH_CELL_MAX_ROWS = 40;
/** What a screen keeps besides the cell: the composer, the status and footer rows, the cell's head. */
export const PATCH_CELL_CHROME_ROWS = 8;
const PATCH_CELL_MIN_ROWS = 6;

/** Rows of diff the transcript shows on a screen `screenRows` high before the rest waits for Ctrl+T: a screenful. */
export function patchCellRows(screenRows: number): number {
  return screenRows > 0 ? Math.max(PATCH_CELL_MIN_ROWS, screenRows - PATCH_CELL_CHROME_ROWS) : PATCH_CELL_MAX_ROWS;
}
export const PATCH_EXPAND_HINT = 'Ctrl+T shows all';

function fileName(file: PatchCellFile): string {
  return file.movePath === null ? sanitize(file.path) : `${sanitize(file.path)} → ${sanitize(file.movePath)}`;
}

function counts(added: number, removed: number, c: ChalkInstance): string {
  return `(${palette(c).added(`+${added}`)} ${palette(c).removed(`-${removed}`)})`;
}

function fileHeader(file: PatchCellFile, c: ChalkInstance): string {
  const verb = file.kind === 'add' ? 'Added' : file.kind === 'delete' ? 'Deleted' : 'Edited';
  return `${c.bold(verb)} ${fileName(file)} ${counts(file.added, file.removed, c)}`;
}

const STATUS_ROW: Record<string, [string, 'red' | 'yellow']> = {
  declined: ['declined', 'red'],
  failed: ['failed', 'red'],
  interrupted: ['interrupted', 'red'],
  pending: ['waiting for approval', 'yellow'],
};

export function patchLines(
  cell: Extract<TranscriptCell, { kind: 'patch' }>,
  width: number,
  c: ChalkInstance = defaultChalk,
  whole = false,
  maxRows = PATCH_CELL_MAX_ROWS,
): string[] {
  const rows: string[] = [];
  const mark =
    cell.status === 'completed' ? palette(c).success('✓') : cell.status === 'pending' ? palette(c).warning('?') : palette(c).danger('✗');
  if (cell.files.length > 1) {
    const added = cell.files.reduce((sum, file) => sum + file.added, 0);
    const removed = cell.files.reduce((sum, file) => sum + file.removed, 0);
    rows.push(...wrapWithPrefix(`${c.bold(`${cell.files.length} files`)} ${counts(added, removed, c)}`, width, `${mark} `, '  '));
    for (const file of cell.files)
      rows.push(...wrapWithPrefix(`${fileName(file)} ${counts(file.added, file.removed, c)}`, width, '  └ ', '    '));
  }
  let budget = whole ? Infinity : maxRows;
  let hidden = 0;
  for (const [index, file] of cell.files.entries()) {
    if (budget <= 0) {
      hidden += file.added + file.removed;
      continue;
    }
    rows.push(...wrapWithPrefix(fileHeader(file, c), width, index === 0 && cell.files.length === 1 ? `${mark} ` : '  ', '    '));
    const diff = diffRows(file, width, c, budget);
    rows.push(...diff.rows);
    budget -= diff.rows.length;
    hidden += diff.more;
  }
  if (hidden > 0) rows.push(c.dim(`    … ${hidden} more lines (${PATCH_EXPAND_HINT})`));
  const status = STATUS_ROW[cell.status];
  if (status !== undefined) rows.push(c[status[1]](`  └ ${status[0]}`));
  return rows;
}
