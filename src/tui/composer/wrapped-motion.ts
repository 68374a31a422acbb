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

/** The caret's logical line wrapped, the row it is drawn on, and the column it keeps while moving. */
function caretRow(ta: TextArea, width: number): { rows: LayoutRow[]; r: number; col: number } {
  const rows = rowsOfLine(ta, lineStart(ta.text, ta.cursor), width);
  const r = rowIndex(rows, ta.cursor);
  return { rows, r, col: ta.preferredCol ?? columnIn(ta.text, rows[r]!.start, ta.cursor) };
}

/** Up one wrapped row at the same display column; from the first row, to the start of the text. */
export function moveUpWrapped(ta: TextArea, width: number | null): TextArea {
  if (width === null) return moveUp(ta);
  const { rows, r, col } = caretRow(ta, width);
  const bol = rows[0]!.start;
  if (r === 0 && bol === 0) return setCursor(ta, 0);
  // The row above is either in this line (and wraps onto the caret's row) or the last row of the line above.
  const target = r > 0 ? rows[r - 1]! : rowsOfLine(ta, lineStart(ta.text, bol - 1), width).at(-1)!;
  const pos = snapOut(ta, positionOnRow(ta.text, target, r > 0, col), true);
  return { ...ta, cursor: pos, preferredCol: col };
}

/** Down one wrapped row at the same display column; from the last row, to the end of the text. */
export function moveDownWrapped(ta: TextArea, width: number | null): TextArea {
  if (width === null) return moveDown(ta);
  const { rows, r, col } = caretRow(ta, width);
  const eol = rows.at(-1)!.end;
  if (r + 1 === rows.length && eol === ta.text.length) return setCursor(ta, ta.text.length);
  const below = r + 1 < rows.length ? rows.slice(r + 1) : rowsOfLine(ta, eol + 1, width);
  const found = positionOnRow(ta.text, below[0]!, below.length > 1, col);
  // An element that starts before the caret and ends on the target row: going to its start would
  // move backwards, so the caret goes past it.
  const start = snapOut(ta, found, true);
  const pos = start > ta.cursor ? start : snapOut(ta, found, false);
  return { ...ta, cursor: pos, preferredCol: col };
}
