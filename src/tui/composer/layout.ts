/**
 * Wraps the composer text into screen rows by display width (CJK and emoji take two cells, combining
 * marks none) and finds the caret's cell, so the real terminal cursor (and an IME window) sits there.
 * Control characters are shown visibly (`^[`, `^?`), never written raw to the terminal.
 */
import { graphemes, isWhitespace } from './graphemes.js';
import stringWidth from '../string-width.js';
import type { ElementKind } from './textarea.js';
import { visibleControl } from '../../protocol/control-chars.js';

export type SpanKind = 'text' | 'control' | ElementKind;

export interface LayoutSpan {
  text: string;
  kind: SpanKind;
  /** Inside the Vim Visual selection. */
  selected?: boolean;
}

/** A source range drawn selected (Vim's Visual mode). */
export interface Selection {
  start: number;
  end: number;
}

export interface LayoutRow {
  spans: LayoutSpan[];
  /** Display cells used. */
  width: number;
  /** Source string indices covered by the row. */
  start: number;
  end: number;
}

export interface Layout {
  rows: LayoutRow[];
  caret: { row: number; col: number };
}

export interface LayoutElement {
  start: number;
  end: number;
  kind: ElementKind;
}

const TAB = '    ';

/** How a grapheme is drawn: control characters become caret notation, tabs spaces. */
export function visibleForm(g: string): { text: string; control: boolean } {
  let out = '';
  let control = false;
  for (const ch of g) {
    const c = ch.codePointAt(0)!;
    if (ch === '\t') out += TAB;
    else if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) {
      out += visibleControl(ch);
      control = true;
    } else out += ch;
  }
  return { text: out, control };
}

interface Cell {
  text: string;
  width: number;
  kind: SpanKind;
  start: number;
  end: number;
  space: boolean;
  selected: boolean;
}

function kindAt(elements: readonly LayoutElement[], pos: number): ElementKind | null {
  for (const e of elements) if (e.start <= pos && pos < e.end) return e.kind;
  return null;
}

function toRow(cells: Cell[], start: number): LayoutRow {
  const spans: LayoutSpan[] = [];
  let width = 0;
  for (const c of cells) {
    width += c.width;
    const last = spans[spans.length - 1];
    if (last !== undefined && last.kind === c.kind && (last.selected === true) === c.selected) last.text += c.text;
    else spans.push(c.selected ? { text: c.text, kind: c.kind, selected: true } : { text: c.text, kind: c.kind });
  }
  return { spans, width, start: cells[0]?.start ?? start, end: cells[cells.length - 1]?.end ?? start };
}

/** Display cells of one grapheme as drawn (caret notation and tabs included). */
export function cellWidth(g: string): number {
  return stringWidth(visibleForm(g).text);
}

/**
 * Wraps one logical line (no `\n`) starting at source index `base` into rows of at most `width` cells.
 * The rows cover the line contiguously: each row starts where the previous one ends.
 */
export function wrapLine(
  line: string,
  base: number,
  width: number,
  elements: readonly LayoutElement[],
  selection: Selection | null = null,
): LayoutRow[] {
  const rows: LayoutRow[] = [];
  let cells: Cell[] = [];
  let used = 0;
  let pos = base;
  for (const g of graphemes(line)) {
    const vis = visibleForm(g);
    const w = cellWidth(g);
    const el = kindAt(elements, pos);
    const cell: Cell = {
      text: vis.text,
      width: w,
      kind: el ?? (vis.control ? 'control' : 'text'),
      start: pos,
      end: pos + g.length,
      space: el === null && isWhitespace(g),
      selected: selection !== null && pos >= selection.start && pos < selection.end,
    };
    pos += g.length;
    if (cell.space && used + w > width && cells.length > 0) {
      // Whitespace at a wrap point hangs at the row's end without taking a cell (as editors do).
      cells.push({ ...cell, text: '', width: 0 });
      rows.push(toRow(cells, cells[0]!.start));
      cells = [];
      used = 0;
      continue;
    }
    if (used + w > width && cells.length > 0) {
      // Break after the last whitespace in the row when there is one (word wrap), else before this cell.
      let brk = -1;
      for (let i = cells.length - 1; i >= 0; i--) {
        if (cells[i]!.space) {
          brk = i;
          break;
        }
      }
      const carry = brk >= 0 ? cells.slice(brk + 1) : [];
      const keep = brk >= 0 ? cells.slice(0, brk + 1) : cells;
      rows.push(toRow(keep, keep[0]!.start));
      cells = carry;
      used = carry.reduce((n, c) => n + c.width, 0);
      if (used + w > width && cells.length > 0) {
        rows.push(toRow(cells, cells[0]!.start));
        cells = [];
        used = 0;
      }
    }
    cells.push(cell);
    used += w;
  }
  // After whitespace hung at a wrap point the last row is empty and starts at the line's end.
  rows.push(toRow(cells, cells.length > 0 ? cells[0]!.start : pos));
  return rows;
}

/**
 * Lays out `text` for `width` cells. The caret at a soft-wrap point goes to the start of the next row;
 * a caret after a full row gets a row of its own.
 */
export function layoutText(
  text: string,
  cursor: number,
  width: number,
  elements: readonly LayoutElement[] = [],
  selection: Selection | null = null,
): Layout {
  const w = Math.max(1, Math.floor(width));
  const rows: LayoutRow[] = [];
  let base = 0;
  for (const line of text.split('\n')) {
    rows.push(...wrapLine(line, base, w, elements, selection));
    base += line.length + 1;
  }
  return { rows, caret: caretCell(rows, text, cursor, w) };
}

/**
 * The rows of the lines around the caret only: whole lines, until at least `context` rows lie
 * before the caret's line and after it (fewer at the text's start or end). What a window of
 * `context` rows scrolled to the caret shows is the same as with every line laid out, so a draft of
 * a megabyte costs a screenful of layout per key.
 */
export function layoutAround(
  text: string,
  cursor: number,
  width: number,
  context: number,
  elements: readonly LayoutElement[] = [],
  selection: Selection | null = null,
): Layout {
  const w = Math.max(1, Math.floor(width));
  // The start of the line holding index `i` (lastIndexOf would read a negative start as 0).
  const lineStart = (i: number): number => (i === 0 ? 0 : text.lastIndexOf('\n', i - 1) + 1);
  let first = lineStart(cursor);
  let last = text.indexOf('\n', cursor);
  if (last < 0) last = text.length;
  const before: LayoutRow[][] = [];
  const after: LayoutRow[][] = [];
  const caretLine = wrapLine(text.slice(first, last), first, w, elements, selection);
  for (let count = 0; first > 0 && count < context; ) {
    const end = first - 1;
    const start = lineStart(end);
    const rows = wrapLine(text.slice(start, end), start, w, elements, selection);
    before.push(rows);
    count += rows.length;
    first = start;
  }
  for (let count = 0; last < text.length && count < context; ) {
    const start = last + 1;
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const rows = wrapLine(text.slice(start, end), start, w, elements, selection);
    after.push(rows);
    count += rows.length;
    last = end;
  }
  const rows = [...before.reverse().flat(), ...caretLine, ...after.flat()];
  return { rows, caret: caretCell(rows, text, cursor, w) };
}

function caretCell(rows: LayoutRow[], text: string, cursor: number, width: number): { row: number; col: number } {
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r]!;
    const next = rows[r + 1];
    const lineEndsHere = next === undefined || text[row.end] === '\n' || row.start === row.end;
    if (cursor < row.start || cursor > row.end) continue;
    // At a soft wrap the caret belongs to the next row.
    if (cursor === row.end && !lineEndsHere && next !== undefined && next.start === row.end) continue;
    const col = stringWidth(rowCellsText(row, text, cursor));
    if (col >= width) {
      if (next === undefined || next.start !== cursor) rows.splice(r + 1, 0, { spans: [], width: 0, start: cursor, end: cursor });
      return { row: r + 1, col: 0 };
    }
    return { row: r, col };
  }
  return { row: rows.length - 1, col: rows[rows.length - 1]?.width ?? 0 };
}

/** The visible text of the row up to the caret. */
function rowCellsText(row: LayoutRow, text: string, cursor: number): string {
  let out = '';
  for (const g of graphemes(text.slice(row.start, cursor))) out += visibleForm(g).text;
  return out;
}
