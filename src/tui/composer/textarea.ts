/**
 * The composer's text buffer (Codex textarea.rs): text, a caret, atomic elements and a single-entry
 * kill buffer. Values are immutable; every operation returns a new TextArea.
 *
 * Positions are JS string indices internally (the caret is always on a grapheme boundary and never
 * strictly inside an element); element ranges leave this module as UTF-8 byte ranges.
 */
import type { TextElement } from '../../protocol/user-input.js';
import { indexToByteOffset } from '../../protocol/utf8.js';
import { floorGrapheme, isWhitespace, isWordSeparator, nextGrapheme, prevGrapheme } from './graphemes.js';
import stringWidth from '../string-width.js';

export type ElementKind = 'paste' | 'image' | 'audio' | 'mention' | 'slash';

/** An atomic span: its text is `text.slice(start, end)` and is edited only as a whole. */
export interface TextAreaElement {
  readonly id: number;
  readonly start: number;
  readonly end: number;
  readonly kind: ElementKind;
}

export interface TextArea {
  readonly text: string;
  readonly cursor: number;
  /** Sorted by start, non-overlapping, never empty. */
  readonly elements: readonly TextAreaElement[];
  readonly nextElementId: number;
  readonly killBuffer: string;
  /** The kill buffer holds whole lines (Vim `yy`/`dd`): `p` puts it below the current line. */
  readonly killLinewise: boolean;
  /** Display column kept while moving up/down across shorter lines. */
  readonly preferredCol: number | null;
}

export function emptyTextArea(): TextArea {
  return { text: '', cursor: 0, elements: [], nextElementId: 1, killBuffer: '', killLinewise: false, preferredCol: null };
}

export interface ElementSpec {
  start: number;
  end: number;
  kind: ElementKind;
}

/** Replaces the whole content (restore a draft, recall history); the kill buffer is kept. */
export function setContent(ta: TextArea, text: string, elements: readonly ElementSpec[] = [], cursor = text.length): TextArea {
  let id = ta.nextElementId;
  const els = [...elements]
    .filter((e) => e.start < e.end && e.end <= text.length)
    .sort((a, b) => a.start - b.start)
    .filter((e, i, arr) => i === 0 || e.start >= arr[i - 1]!.end)
    .map((e) => ({ id: id++, start: e.start, end: e.end, kind: e.kind }));
  const next = { ...ta, text, elements: els, nextElementId: id, preferredCol: null, cursor: 0 };
  return { ...next, cursor: snapOut(next, floorGrapheme(text, cursor), false) };
}

// ---------- queries ----------

export function elementAt(ta: TextArea, pos: number): TextAreaElement | undefined {
  return ta.elements.find((e) => e.start < pos && pos < e.end);
}

/** Moves a position strictly inside an element to its start or end. */
export function snapOut(ta: TextArea, pos: number, preferStart: boolean): number {
  const el = elementAt(ta, pos);
  if (el === undefined) return pos;
  return preferStart ? el.start : el.end;
}

/** Elements as protocol TextElements (UTF-8 byte ranges, placeholder = the element's text). */
export function textElementsOf(ta: TextArea): TextElement[] {
  return ta.elements.map((e) => ({
    byte_range: { start: indexToByteOffset(ta.text, e.start), end: indexToByteOffset(ta.text, e.end) },
    placeholder: ta.text.slice(e.start, e.end),
  }));
}

export function cursorByte(ta: TextArea): number {
  return indexToByteOffset(ta.text, ta.cursor);
}

export function lineStart(text: string, pos: number): number {
  // lastIndexOf treats a negative start as 0, which would find a newline at index 0 from position 0.
  return pos <= 0 ? 0 : text.lastIndexOf('\n', pos - 1) + 1;
}

export function lineEnd(text: string, pos: number): number {
  const i = text.indexOf('\n', pos);
  return i === -1 ? text.length : i;
}

function withCursor(ta: TextArea, pos: number, keepCol = false): TextArea {
  return { ...ta, cursor: pos, preferredCol: keepCol ? ta.preferredCol : null };
}

// ---------- editing primitives ----------

/**
 * Replaces `[start, end)` by `insert`. Elements touched by the range are removed whole (the range
 * grows to cover them); later elements shift. The caret lands after the inserted text.
 */
export function replaceRange(ta: TextArea, start: number, end: number, insert: string): TextArea {
  let s = start;
  let e = end;
  for (const el of ta.elements) {
    const touches = s === e ? el.start < s && s < el.end : el.start < e && s < el.end;
    if (touches) {
      s = Math.min(s, el.start);
      e = Math.max(e, el.end);
    }
  }
  const delta = insert.length - (e - s);
  const elements: TextAreaElement[] = [];
  for (const el of ta.elements) {
    if (el.end <= s) elements.push(el);
    else if (el.start >= e) elements.push({ ...el, start: el.start + delta, end: el.end + delta });
  }
  const text = ta.text.slice(0, s) + insert + ta.text.slice(e);
  return { ...ta, text, elements, cursor: s + insert.length, preferredCol: null };
}

export function insertText(ta: TextArea, s: string): TextArea {
  return replaceRange(ta, ta.cursor, ta.cursor, s);
}

/** Inserts `label` at the caret as one atomic element; returns its id. */
export function insertElement(ta: TextArea, label: string, kind: ElementKind): { ta: TextArea; id: number } {
  const at = ta.cursor;
  const next = replaceRange(ta, at, at, label);
  const id = next.nextElementId;
  const el: TextAreaElement = { id, start: at, end: at + label.length, kind };
  const elements = [...next.elements, el].sort((a, b) => a.start - b.start);
  return { ta: { ...next, elements, nextElementId: id + 1 }, id };
}

/** Turns an existing span into an element (e.g. a completed `/command`). */
export function markElement(ta: TextArea, start: number, end: number, kind: ElementKind): TextArea {
  if (start >= end || ta.elements.some((e) => e.start < end && start < e.end)) return ta;
  const el: TextAreaElement = { id: ta.nextElementId, start, end, kind };
  return {
    ...ta,
    elements: [...ta.elements, el].sort((a, b) => a.start - b.start),
    nextElementId: ta.nextElementId + 1,
    cursor: snapOut({ ...ta, elements: [el] }, ta.cursor, false),
  };
}

/** Drops the element (its text stays as plain text). */
export function unmarkElement(ta: TextArea, id: number): TextArea {
  return { ...ta, elements: ta.elements.filter((e) => e.id !== id) };
}

/** Rewrites an element's text in place (image renumbering); the caret keeps its logical place. */
export function replaceElementText(ta: TextArea, id: number, label: string): TextArea {
  const el = ta.elements.find((e) => e.id === id);
  if (el === undefined) return ta;
  const delta = label.length - (el.end - el.start);
  const text = ta.text.slice(0, el.start) + label + ta.text.slice(el.end);
  const elements = ta.elements.map((e) => {
    if (e.id === id) return { ...e, end: e.end + delta };
    if (e.start >= el.end) return { ...e, start: e.start + delta, end: e.end + delta };
    return e;
  });
  const cursor = ta.cursor >= el.end ? ta.cursor + delta : ta.cursor;
  return { ...ta, text, elements, cursor };
}

function kill(ta: TextArea, start: number, end: number): TextArea {
  if (start >= end) return ta;
  let s = start;
  let e = end;
  for (const el of ta.elements) {
    if (el.start < e && s < el.end) {
      s = Math.min(s, el.start);
      e = Math.max(e, el.end);
    }
  }
  const killed = ta.text.slice(s, e);
  return { ...replaceRange(ta, s, e, ''), killBuffer: killed, killLinewise: false };
}

/** Sets the kill buffer without editing (Vim yank). */
export function setKillBuffer(ta: TextArea, text: string, linewise: boolean): TextArea {
  return text === '' ? ta : { ...ta, killBuffer: text, killLinewise: linewise };
}

/** Removes `[start, end)` (grown to whole elements) into the kill buffer. */
export function killRange(ta: TextArea, start: number, end: number, linewise = false): TextArea {
  const next = kill(ta, start, end);
  return linewise && next !== ta ? { ...next, killLinewise: true } : next;
}

// ---------- deletion ----------

export function deleteBackward(ta: TextArea): TextArea {
  const c = ta.cursor;
  if (c === 0) return ta;
  const el = ta.elements.find((e) => e.start < c && c <= e.end);
  if (el !== undefined) return replaceRange(ta, el.start, el.end, '');
  return replaceRange(ta, prevGrapheme(ta.text, c), c, '');
}

export function deleteForward(ta: TextArea): TextArea {
  const c = ta.cursor;
  if (c >= ta.text.length) return ta;
  const el = ta.elements.find((e) => e.start <= c && c < e.end);
  if (el !== undefined) return replaceRange(ta, el.start, el.end, '');
  return replaceRange(ta, c, nextGrapheme(ta.text, c), '');
}

export function deleteWordBackward(ta: TextArea): TextArea {
  return kill(ta, beginningOfPreviousWord(ta), ta.cursor);
}

export function deleteWordForward(ta: TextArea): TextArea {
  return kill(ta, ta.cursor, endOfNextWord(ta));
}

/** Ctrl+K: to the end of the line; at the end of a line, the newline itself. */
export function killToLineEnd(ta: TextArea): TextArea {
  const eol = lineEnd(ta.text, ta.cursor);
  if (ta.cursor === eol) return eol < ta.text.length ? kill(ta, eol, eol + 1) : ta;
  return kill(ta, ta.cursor, eol);
}

/** Ctrl+U: to the start of the line; at the start of a line, the newline before it. */
export function killToLineStart(ta: TextArea): TextArea {
  const bol = lineStart(ta.text, ta.cursor);
  if (ta.cursor === bol) return bol > 0 ? kill(ta, bol - 1, bol) : ta;
  return kill(ta, bol, ta.cursor);
}

/** Ctrl+Y: inserts the kill buffer as plain text. */
export function yank(ta: TextArea): TextArea {
  return ta.killBuffer === '' ? ta : insertText(ta, ta.killBuffer);
}

// ---------- motions ----------

export function moveLeft(ta: TextArea): TextArea {
  const c = ta.cursor;
  if (c === 0) return withCursor(ta, 0);
  const el = ta.elements.find((e) => e.start < c && c <= e.end);
  return withCursor(ta, el !== undefined ? el.start : prevGrapheme(ta.text, c));
}

export function moveRight(ta: TextArea): TextArea {
  const c = ta.cursor;
  if (c >= ta.text.length) return withCursor(ta, ta.text.length);
  const el = ta.elements.find((e) => e.start <= c && c < e.end);
  return withCursor(ta, el !== undefined ? el.end : nextGrapheme(ta.text, c));
}

function codePointBefore(text: string, i: number): { ch: string; at: number } | null {
  if (i <= 0) return null;
  const low = text.charCodeAt(i - 1);
  const at = i >= 2 && low >= 0xdc00 && low <= 0xdfff && (text.charCodeAt(i - 2) & 0xfc00) === 0xd800 ? i - 2 : i - 1;
  return { ch: text.slice(at, i), at };
}

function codePointAt(text: string, i: number): string | null {
  if (i >= text.length) return null;
  return String.fromCodePoint(text.codePointAt(i)!);
}

type CharClass = 'space' | 'separator' | 'word';

function classOf(ch: string): CharClass {
  if (isWhitespace(ch)) return 'space';
  return isWordSeparator(ch) ? 'separator' : 'word';
}

/** The end of the run of same-class code points starting at `i` (`i` itself when its class is not `only`). */
function runEnd(text: string, i: number, only?: CharClass): number {
  let ch = codePointAt(text, i);
  if (ch === null) return i;
  const cls = classOf(ch);
  if (only !== undefined && cls !== only) return i;
  while (ch !== null && classOf(ch) === cls) {
    i += ch.length;
    ch = codePointAt(text, i);
  }
  return i;
}

/** The start of the run of same-class code points ending at `i` (`i` itself when its class is not `only`). */
function runStart(text: string, i: number, only?: CharClass): number {
  let cp = codePointBefore(text, i);
  if (cp === null) return i;
  const cls = classOf(cp.ch);
  if (only !== undefined && cls !== only) return i;
  while (cp !== null && classOf(cp.ch) === cls) {
    i = cp.at;
    cp = codePointBefore(text, i);
  }
  return i;
}

/** Start of the word before the caret (Alt+B, Ctrl+W, Vim `b`): whitespace, then one run of word or separator chars. */
export function beginningOfPreviousWord(ta: TextArea): number {
  const i = runStart(ta.text, ta.cursor, 'space');
  if (i === 0) return 0;
  return snapOut(ta, floorGrapheme(ta.text, runStart(ta.text, i)), true);
}

/** End of the word after the caret (Alt+F, Alt+D): whitespace, then one run of word or separator chars. */
export function endOfNextWord(ta: TextArea): number {
  const i = runEnd(ta.text, ta.cursor, 'space');
  if (i === ta.text.length) return i;
  return snapOut(ta, nextBoundaryAtOrAfter(ta.text, runEnd(ta.text, i)), false);
}

/** Start of the next word (Vim `w`): skip the current run, then whitespace. */
export function beginningOfNextWord(ta: TextArea): number {
  const text = ta.text;
  const afterRun = classOf(codePointAt(text, ta.cursor) ?? ' ') === 'space' ? ta.cursor : runEnd(text, ta.cursor);
  return snapOut(ta, nextBoundaryAtOrAfter(text, runEnd(text, afterRun, 'space')), false);
}

/** The last character of the current or next word (Vim `e`): lands on the character, not after it. */
export function endOfWordChar(ta: TextArea): number {
  const text = ta.text;
  const start = nextGrapheme(text, ta.cursor);
  const end = endOfNextWord({ ...ta, cursor: start });
  if (end <= start) return ta.cursor;
  return snapOut(ta, prevGrapheme(text, end), true);
}

function nextBoundaryAtOrAfter(text: string, i: number): number {
  const f = floorGrapheme(text, i);
  return f === i ? i : nextGrapheme(text, f);
}

export function moveWordLeft(ta: TextArea): TextArea {
  return withCursor(ta, beginningOfPreviousWord(ta));
}

export function moveWordRight(ta: TextArea): TextArea {
  return withCursor(ta, endOfNextWord(ta));
}

/** Home / Ctrl+A; with `moveUpAtBol` (Ctrl+A) a caret already at the line start goes to the previous line's start. */
export function moveLineStart(ta: TextArea, moveUpAtBol = false): TextArea {
  const bol = lineStart(ta.text, ta.cursor);
  if (moveUpAtBol && ta.cursor === bol && bol > 0) return withCursor(ta, snapOut(ta, lineStart(ta.text, bol - 1), true));
  return withCursor(ta, snapOut(ta, bol, true));
}

/** End / Ctrl+E; with `moveDownAtEol` (Ctrl+E) a caret already at the line end goes to the next line's end. */
export function moveLineEnd(ta: TextArea, moveDownAtEol = false): TextArea {
  const eol = lineEnd(ta.text, ta.cursor);
  if (moveDownAtEol && ta.cursor === eol && eol < ta.text.length) return withCursor(ta, snapOut(ta, lineEnd(ta.text, eol + 1), false));
  return withCursor(ta, snapOut(ta, eol, false));
}

/** Display column of the caret within its logical line. */
export function cursorColumn(ta: TextArea): number {
  return stringWidth(ta.text.slice(lineStart(ta.text, ta.cursor), ta.cursor));
}

/** The position in the line starting at `bol` closest to display column `col` without passing it. */
function positionAtColumn(ta: TextArea, bol: number, col: number): number {
  const eol = lineEnd(ta.text, bol);
  let pos = bol;
  let width = 0;
  while (pos < eol) {
    const next = nextGrapheme(ta.text, pos);
    const w = stringWidth(ta.text.slice(pos, next));
    if (width + w > col) break;
    width += w;
    pos = next;
  }
  return snapOut(ta, pos, true);
}

/** Up: same display column on the previous line; on the first line, to the start. */
export function moveUp(ta: TextArea): TextArea {
  const col = ta.preferredCol ?? cursorColumn(ta);
  const bol = lineStart(ta.text, ta.cursor);
  if (bol === 0) return withCursor(ta, 0);
  const pos = positionAtColumn(ta, lineStart(ta.text, bol - 1), col);
  return { ...ta, cursor: pos, preferredCol: col };
}

/** Down: same display column on the next line; on the last line, to the end. */
export function moveDown(ta: TextArea): TextArea {
  const col = ta.preferredCol ?? cursorColumn(ta);
  const eol = lineEnd(ta.text, ta.cursor);
  if (eol === ta.text.length) return withCursor(ta, ta.text.length);
  const pos = positionAtColumn(ta, eol + 1, col);
  return { ...ta, cursor: pos, preferredCol: col };
}

export function setCursor(ta: TextArea, pos: number): TextArea {
  const p = Math.max(0, Math.min(pos, ta.text.length));
  return withCursor(ta, snapOut(ta, floorGrapheme(ta.text, p), false));
}
