/**
 * Vim operators on a range of the draft: delete `d`, change `c`, yank `y`, shift `>` `<`, case
 * `g~ gu gU` (and Visual `~ u U`), join `J` and replace `r`. Ranges are charwise `[start, end)` or
 * linewise (whole lines, `start` at a line start, `end` at a line end).
 *
 * Elements stay atomic: a range always covers whole elements (they are single characters to Vim),
 * a deleted element takes its payload or attachment with it (commitTextArea), a yanked one keeps
 * them in the register (registers.ts).
 *
 * Shifting uses a shiftwidth of 2 and spaces (`'shiftwidth'=2 'expandtab'`; Vim's defaults are 8 and
 * tabs): a chat message is not a C file. Leading tabs count to the next multiple of 8.
 */
import { commitTextArea, type ComposerState } from '../state.js';
import { replaceRange, setCursor, type TextArea } from '../textarea.js';
import {
  charEnd,
  clampToLine,
  elementStartingAt,
  firstNonBlank,
  isBlankChar,
  isBol,
  isEol,
  lineCount,
  lineEnd,
  lineIndex,
  lineStart,
  lineStartAt,
} from './chars.js';
import { captureRange, storeDelete, storeYank } from './registers.js';
import type { Span } from './text-objects.js';
import type { OperatorName } from './types.js';

export const SHIFT_WIDTH = 2;

export interface OpRange {
  start: number;
  end: number;
  linewise: boolean;
}

/**
 * The range an operator acts on for a motion or text object span (`:help exclusive`): an inclusive
 * span takes its last character; an exclusive one that ends at a line start ends at the previous
 * line's end instead, and becomes linewise when it starts in the indent (so `dw` on an empty line
 * deletes the line).
 */
export function resolveSpan(ta: TextArea, span: Span): OpRange {
  const text = ta.text;
  const start = Math.min(span.start, span.end);
  let end = Math.max(span.start, span.end);
  if (span.linewise) return { start: lineStart(text, start), end: lineEnd(text, end), linewise: true };
  if (span.inclusive) return { start, end: isEol(text, end) ? end : charEnd(ta, end), linewise: false };
  if (end > start && isBol(text, end) && lineIndex(text, start) < lineIndex(text, end)) {
    end -= 1;
    if (firstNonBlank(text, start) >= start) return { start: lineStart(text, start), end: lineEnd(text, end), linewise: true };
  }
  return { start, end, linewise: false };
}

/**
 * `d{motion}` across lines with only blanks before the start and after the end deletes whole lines
 * (`:help d`), so no line of blanks is left behind.
 */
export function deleteBecomesLinewise(text: string, r: OpRange): boolean {
  if (r.linewise || lineIndex(text, r.start) === lineIndex(text, r.end)) return false;
  return firstNonBlank(text, r.start) >= r.start && onlyBlanks(text, r.end, lineEnd(text, r.end));
}

function onlyBlanks(text: string, from: number, to: number): boolean {
  for (let p = from; p < to; p++) if (!isBlankChar(text[p])) return false;
  return true;
}

/** Applies a textarea edit, dropping what belonged to removed elements. */
function commit(state: ComposerState, ta: TextArea): ComposerState {
  return commitTextArea(state, ta);
}

function withCursor(state: ComposerState, pos: number, normal = true): ComposerState {
  const ta = setCursor(state.ta, pos);
  return { ...state, ta: normal ? { ...ta, cursor: clampToLine(ta, ta.cursor) } : ta };
}

function withRegisters(state: ComposerState, registers: ComposerState['vim']['registers']): ComposerState {
  return { ...state, vim: { ...state.vim, registers } };
}

/** Yank: into the registers; the cursor goes to `cursor` (the start of what was yanked). */
export function yankRange(state: ComposerState, r: OpRange, reg: string | null, cursor: number): ComposerState {
  const content = captureRange(state, r.start, r.end, r.linewise);
  return withCursor(withRegisters(state, storeYank(state.vim.registers, reg, content)), cursor);
}

/** Delete: into the registers (unless `"_`), then out of the text. */
export function deleteRange(state: ComposerState, r: OpRange, reg: string | null): ComposerState {
  const content = captureRange(state, r.start, r.end, r.linewise);
  const s = withRegisters(state, storeDelete(state.vim.registers, reg, content));
  return r.linewise ? removeLines(s, r) : withCursor(commit(s, replaceRange(s.ta, r.start, r.end, '')), r.start);
}

/** Removes whole lines with one adjacent line break; the cursor goes to the first non-blank of the line after them. */
function removeLines(state: ComposerState, r: OpRange): ComposerState {
  const text = state.ta.text;
  let from = r.start;
  let to = r.end;
  if (to < text.length) to += 1;
  else if (from > 0) from -= 1;
  const next = commit(state, replaceRange(state.ta, from, to, ''));
  const at = Math.min(from === r.start ? r.start : lineStart(next.ta.text, from), next.ta.text.length);
  return withCursor(next, firstNonBlank(next.ta.text, at));
}

/** Change: delete (lines keep one empty line) and leave the cursor where typing starts. */
export function changeRange(state: ComposerState, r: OpRange, reg: string | null): ComposerState {
  const content = captureRange(state, r.start, r.end, r.linewise);
  const s = withRegisters(state, storeDelete(state.vim.registers, reg, content));
  const next = commit(s, replaceRange(s.ta, r.start, r.end, ''));
  return withCursor(next, r.start, false);
}

function indentWidth(text: string, bol: number): { width: number; end: number } {
  let width = 0;
  let p = bol;
  for (; p < text.length && isBlankChar(text[p]); p++) width = text[p] === '\t' ? width + 8 - (width % 8) : width + 1;
  return { width, end: p };
}

interface Edit {
  start: number;
  end: number;
  insert: string;
}

/**
 * Several replacements at once (sorted, not overlapping, on character boundaries) in one pass over
 * the text, so an operator over thousands of lines stays linear. An element inside a replaced range
 * goes; the others shift. `map` takes an old position to the new text.
 */
function applyEdits(ta: TextArea, edits: readonly Edit[]): { ta: TextArea; map: (pos: number) => number } {
  let text = '';
  let last = 0;
  for (const e of edits) {
    text += ta.text.slice(last, e.start) + e.insert;
    last = e.end;
  }
  text += ta.text.slice(last);
  const map = (pos: number): number => {
    let d = 0;
    for (const e of edits) {
      if (e.end <= pos) d += e.insert.length - (e.end - e.start);
      else if (e.start < pos) return e.start + d + Math.min(pos - e.start, e.insert.length);
      else break;
    }
    return pos + d;
  };
  const elements = ta.elements
    .filter((el) => !edits.some((e) => e.start < el.end && el.start < e.end))
    .map((el) => ({ ...el, start: map(el.start), end: map(el.end) }));
  return { ta: { ...ta, text, elements, preferredCol: null }, map };
}

/** `>`/`<`: each non-empty line of the range `times` shift widths right/left; the cursor to the first line's first non-blank. */
export function shiftLines(state: ComposerState, r: OpRange, right: boolean, times: number): ComposerState {
  const text = state.ta.text;
  const edits: Edit[] = [];
  for (let bol = lineStart(text, r.start); bol <= r.end; bol = lineEnd(text, bol) + 1) {
    if (!isEol(text, bol)) {
      const { width, end } = indentWidth(text, bol);
      const next = Math.max(0, width + (right ? 1 : -1) * SHIFT_WIDTH * times);
      if (next !== width || end - bol !== width) edits.push({ start: bol, end, insert: ' '.repeat(next) });
    }
    if (lineEnd(text, bol) >= text.length) break;
  }
  const { ta } = applyEdits(state.ta, edits);
  // The first line starts where it did.
  return withCursor(commit(state, ta), firstNonBlank(ta.text, lineStart(text, r.start)));
}

function toggled(g: string): string {
  const up = g.toUpperCase();
  const low = g.toLowerCase();
  if (g === up && g !== low) return low;
  if (g === low && g !== up) return up;
  return g;
}

/** One character's case; a mapping that changes the number of code points (ß → SS) is left alone, as in Vim. */
function mapCase(g: string, how: 'toggle' | 'lower' | 'upper'): string {
  const out = how === 'toggle' ? toggled(g) : how === 'lower' ? g.toLowerCase() : g.toUpperCase();
  return [...out].length === [...g].length ? out : g;
}

export function caseHow(op: OperatorName | '~' | 'u' | 'U'): 'toggle' | 'lower' | 'upper' {
  return op === 'gu' || op === 'u' ? 'lower' : op === 'gU' || op === 'U' ? 'upper' : 'toggle';
}

/** Maps each character of `[start, end)` but the elements and line breaks; `cursor` is an old position. */
export function mapChars(state: ComposerState, start: number, end: number, fn: (g: string) => string, cursor: number): ComposerState {
  const ta = state.ta;
  const edits: Edit[] = [];
  for (let p = start; p < end; ) {
    const e = charEnd(ta, p);
    if (elementStartingAt(ta, p) === undefined && ta.text[p] !== '\n') {
      const g = ta.text.slice(p, e);
      const out = fn(g);
      if (out !== g) edits.push({ start: p, end: e, insert: out });
    }
    p = e;
  }
  const next = applyEdits(ta, edits);
  return withCursor(commit(state, next.ta), next.map(cursor));
}

export function changeCase(state: ComposerState, r: OpRange, how: 'toggle' | 'lower' | 'upper', cursor: number): ComposerState {
  return mapChars(state, r.start, r.end, (g) => mapCase(g, how), cursor);
}

/**
 * `J` (and `gJ` with `spaces` false): joins `count` lines from the one holding `pos` (at least two).
 * `J` drops the next line's indent and puts one space between (none before `)`, after a blank or
 * next to an empty line; no second space after a period: `'nojoinspaces'`). The cursor goes to
 * where the last two lines met. Null on the last line.
 */
export function joinLines(state: ComposerState, pos: number, count: number, spaces: boolean): ComposerState | null {
  const first = lineIndex(state.ta.text, pos);
  const lines = Math.min(Math.max(2, count), lineCount(state.ta.text) - first);
  if (lines < 2) return null;
  let ta = state.ta;
  let meet = 0;
  for (let i = 1; i < lines; i++) {
    const text = ta.text;
    const bol = lineStartAt(text, first);
    const eol = lineEnd(text, bol);
    const nextStart = eol + 1;
    const lead = spaces ? firstNonBlank(text, nextStart) : nextStart;
    const restEmpty = isEol(text, lead);
    const last = text[eol - 1];
    const space = spaces && !restEmpty && eol > bol && text[lead] !== ')' && last !== ' ' && last !== '\t' ? ' ' : '';
    ta = replaceRange(ta, eol, lead, space);
    meet = eol;
  }
  return withCursor(commit(state, ta), meet);
}

/** `r`: every character of `[start, end)` (an element too; line breaks kept) becomes `ch`; `cursor` is an old position. */
export function replaceChars(state: ComposerState, start: number, end: number, ch: string, cursor: number): ComposerState {
  const edits: Edit[] = [];
  for (let p = start; p < end; p = charEnd(state.ta, p))
    if (state.ta.text[p] !== '\n') edits.push({ start: p, end: charEnd(state.ta, p), insert: ch });
  const next = applyEdits(state.ta, edits);
  return withCursor(commit(state, next.ta), next.map(cursor));
}
