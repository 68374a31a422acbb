/**
 * Up/Down by wrapped (visual) row, as Codex's textarea moves once it knows the wrap width: a long
 * line that wraps on screen is walked row by row, keeping the display column. Only the caret's
 * logical line and its neighbour are wrapped, so a keystroke never lays out the whole text.
 */
import { cellWidth, wrapLine, type LayoutRow } from './layout.js';
import { nextGrapheme, prevGrapheme } from './graphemes.js';
import { lineEnd, lineStart, moveDown, moveUp, setCursor, snapOut, type TextArea } from './textarea.js';

function rowsOfLine(ta: TextArea, bol: number, width: number): LayoutRow[] {
  return wrapLine(ta.text.slice(bol, lineEnd(ta.text, bol)), bol, width, ta.elements);
}

/** The row holding the caret: at a soft-wrap point that is the row starting there (as drawn). */
function rowIndex(rows: readonly LayoutRow[], pos: number): number {
  let r = 0;
  while (r + 1 < rows.length && rows[r + 1]!.start <= pos) r++;
  return r;
}

function columnIn(text: string, from: number, to: number): number {
  let col = 0;
  for (let p = from; p < to; ) {
    const next = nextGrapheme(text, p);
    col += cellWidth(text.slice(p, next));
    p = next;
  }
  return col;
}

/**
 * The position on `row` closest to display column `col` without passing it. On a row that wraps
 * onward the row's end would draw on the next row, so the last character is as far as it goes.
 */
function positionOnRow(text: string, row: LayoutRow, wrapsOnward: boolean, col: number): number {
  const limit = wrapsOnward && row.end > row.start ? prevGrapheme(text, row.end) : row.end;
  let pos = row.start;
  let used = 0;
  while (pos < limit) {
    const next = nextGrapheme(text, pos);
    used += cellWidth(text.slice(pos, next));
    if (used > col) break;
    pos = next;
  }
  return pos;
}

/** Up one wrapped row at the same display column; from the first row, to the start of the text. */
export function moveUpWrapped(ta: TextArea, width: number | null): TextArea {
  if (width === null) return moveUp(ta);
  const bol = lineStart(ta.text, ta.cursor);
  const rows = rowsOfLine(ta, bol, width);
  const r = rowIndex(rows, ta.cursor);
  const col = ta.preferredCol ?? columnIn(ta.text, rows[r]!.start, ta.cursor);
  let target: LayoutRow;
  let wrapsOnward = true;
  if (r > 0) target = rows[r - 1]!;
  else if (bol === 0) return setCursor(ta, 0);
  else {
    target = rowsOfLine(ta, lineStart(ta.text, bol - 1), width).at(-1)!;
    wrapsOnward = false;
  }
  const pos = snapOut(ta, positionOnRow(ta.text, target, wrapsOnward, col), true);
  return { ...ta, cursor: pos, preferredCol: col };
}

/** Down one wrapped row at the same display column; from the last row, to the end of the text. */
export function moveDownWrapped(ta: TextArea, width: number | null): TextArea {
  if (width === null) return moveDown(ta);
  const bol = lineStart(ta.text, ta.cursor);
  const rows = rowsOfLine(ta, bol, width);
  const r = rowIndex(rows, ta.cursor);
  const col = ta.preferredCol ?? columnIn(ta.text, rows[r]!.start, ta.cursor);
  let target: LayoutRow;
  let wrapsOnward: boolean;
  if (r + 1 < rows.length) {
    target = rows[r + 1]!;
    wrapsOnward = r + 2 < rows.length;
  } else {
    const eol = lineEnd(ta.text, ta.cursor);
    if (eol === ta.text.length) return setCursor(ta, ta.text.length);
    const next = rowsOfLine(ta, eol + 1, width);
    target = next[0]!;
    wrapsOnward = next.length > 1;
  }
  const found = positionOnRow(ta.text, target, wrapsOnward, col);
  // An element that starts before the caret and ends on the target row: going to its start would
  // move backwards, so the caret goes past it.
  const start = snapOut(ta, found, true);
  const pos = start > ta.cursor ? start : snapOut(ta, found, false);
  return { ...ta, cursor: pos, preferredCol: col };
}
