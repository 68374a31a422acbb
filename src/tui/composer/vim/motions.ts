/**
 * Vim motions (`:help motion.txt`) over the composer text: where each one goes and whether it is
 * exclusive, inclusive or linewise. A null result is a failed motion: the cursor stays and a pending
 * operator is cancelled, as Vim beeps.
 *
 * One buffer is the whole screen here, so `H`, `M` and `L` go to the first, middle and last line of
 * the text (`3H`: the third line, `3L`: the third from the end). Not here: the sentence motions
 * `(` `)`, searches (`/ ? n N * #`), marks and jumps.
 */
import { wrapLine } from '../layout.js';
import { moveDown, moveUp, type TextArea } from '../textarea.js';
import { moveDownWrapped, moveUpWrapped } from '../wrapped-motion.js';
import {
  charEnd,
  charStart,
  elementStartingAt,
  firstNonBlank,
  isBol,
  isEol,
  lastCharOfLine,
  lineCount,
  lineEnd,
  lineIndex,
  lineStart,
  lineStartAt,
  Walker,
} from './chars.js';
import type { FindState, MotionSpec, OperatorName } from './types.js';
import { bckendWord, bckWord, endWord, fwdWord } from './words.js';

export type MotionType = 'exclusive' | 'inclusive' | 'linewise';

export interface MotionResult {
  pos: number;
  type: MotionType;
  /** The display column `j`/`k` keep (`$` keeps the line end); undefined: forget it. */
  preferredCol?: number | null;
  /** A new `f`/`t` search to remember for `;` and `,`. */
  find?: FindState;
}

export interface MotionEnv {
  ta: TextArea;
  /** Wrap width on screen: `j`/`k` without an operator move by screen row. */
  width: number | null;
  lastFind: FindState | null;
  /** The pending operator, if any. */
  op: OperatorName | null;
  visual: boolean;
}

/** `$` remembers "the end of the line" for the next `j`/`k`. */
export const END_OF_LINE_COL = Number.MAX_SAFE_INTEGER;

const MOTION_KEYS = new Set([
  'h',
  'l',
  'j',
  'k',
  'w',
  'W',
  'b',
  'B',
  'e',
  'E',
  'ge',
  'gE',
  '0',
  '^',
  '$',
  '_',
  '+',
  '-',
  '<CR>',
  'f',
  'F',
  't',
  'T',
  ';',
  ',',
  'gg',
  'G',
  'H',
  'M',
  'L',
  '%',
  '{',
  '}',
  '<BS>',
  ' ',
]);

export function isMotionKey(key: string): boolean {
  return MOTION_KEYS.has(key);
}

/** Motions that take a character argument. */
export function needsChar(key: string): boolean {
  return key === 'f' || key === 'F' || key === 't' || key === 'T';
}

function linewiseTo(text: string, line: number): MotionResult {
  return { pos: firstNonBlank(text, lineStartAt(text, line)), type: 'linewise' };
}

/**
 * The line `n` down (negative: up) from the cursor's, stopping at the first/last line; null when the
 * cursor is already there (Vim's cursor_down/cursor_up fail only then).
 */
function linesFrom(text: string, pos: number, n: number): number | null {
  const cur = lineIndex(text, pos);
  const last = lineCount(text) - 1;
  if ((n > 0 && cur === last) || (n < 0 && cur === 0)) return null;
  return Math.max(0, Math.min(last, cur + n));
}

export function runMotion(env: MotionEnv, spec: MotionSpec, count: number | null): MotionResult | null {
  const { ta } = env;
  const text = ta.text;
  const cursor = ta.cursor;
  const n = count ?? 1;
  switch (spec.key) {
    case 'h':
    case '<BS>': {
      let p = cursor;
      for (let i = 0; i < n && !isBol(text, p); i++) p = charStart(ta, p);
      return p === cursor ? null : { pos: p, type: 'exclusive' };
    }
    case 'l':
    case ' ': {
      let p = cursor;
      for (let i = 0; i < n && !isEol(text, p); i++) {
        const next = charEnd(ta, p);
        // Without an operator the cursor stays on a character; `dl` may reach the line end.
        if (env.op === null && isEol(text, next)) break;
        p = next;
      }
      return p === cursor ? null : { pos: p, type: 'exclusive' };
    }
    case '0':
      return { pos: lineStart(text, cursor), type: 'exclusive' };
    case '^':
      return { pos: firstNonBlank(text, cursor), type: 'exclusive' };
    case '$': {
      const line = linesFrom(text, cursor, n - 1);
      if (line === null) return null;
      return { pos: lastCharOfLine(ta, lineStartAt(text, line)), type: 'inclusive', preferredCol: END_OF_LINE_COL };
    }
    case '_': {
      const line = linesFrom(text, cursor, n - 1);
      return line === null ? null : linewiseTo(text, line);
    }
    case '+':
    case '<CR>':
    case '-': {
      const line = linesFrom(text, cursor, spec.key === '-' ? -n : n);
      return line === null || line === lineIndex(text, cursor) ? null : linewiseTo(text, line);
    }
    case 'j':
    case 'k':
      return verticalMotion(env, spec.key === 'j', n);
    case 'w':
    case 'W':
      return wordMotion(env, spec.key === 'W', n);
    case 'e':
    case 'E': {
      const w = new Walker(ta, cursor, spec.key === 'E');
      endWord(w, n, false, false);
      return { pos: offNul(ta, w.pos), type: 'inclusive' };
    }
    case 'b':
    case 'B': {
      const w = new Walker(ta, cursor, spec.key === 'B');
      bckWord(w, n, false);
      return { pos: w.pos, type: 'exclusive' };
    }
    case 'ge':
    case 'gE': {
      const w = new Walker(ta, cursor, spec.key === 'gE');
      bckendWord(w, n, false);
      return { pos: w.pos, type: 'inclusive' };
    }
    case 'f':
    case 'F':
    case 't':
    case 'T': {
      if (spec.char === undefined) return null;
      const find: FindState = { cmd: spec.key, char: spec.char };
      const pos = findChar(ta, cursor, find, n, false);
      return pos === null ? null : { pos, type: find.cmd === 'f' || find.cmd === 't' ? 'inclusive' : 'exclusive', find };
    }
    case ';':
    case ',': {
      const last = env.lastFind;
      if (last === null) return null;
      const find = spec.key === ';' ? last : { ...last, cmd: REVERSE[last.cmd] };
      const pos = findChar(ta, cursor, find, n, true);
      return pos === null ? null : { pos, type: find.cmd === 'f' || find.cmd === 't' ? 'inclusive' : 'exclusive' };
    }
    case 'gg':
      return linewiseTo(text, Math.min(lineCount(text), count ?? 1) - 1);
    case 'G':
      return linewiseTo(text, Math.min(lineCount(text), count ?? lineCount(text)) - 1);
    case 'H':
      return linewiseTo(text, Math.min(lineCount(text), n) - 1);
    case 'L':
      return linewiseTo(text, Math.max(0, lineCount(text) - n));
    case 'M':
      return linewiseTo(text, Math.floor((lineCount(text) - 1) / 2));
    case '{':
    case '}':
      return paragraphMotion(ta, n, spec.key === '}');
    case '%': {
      if (count !== null) {
        if (count > 100) return null;
        return linewiseTo(text, Math.floor((count * lineCount(text) + 99) / 100) - 1);
      }
      const pos = matchBracket(ta, cursor);
      return pos === null ? null : { pos, type: 'inclusive' };
    }
    default:
      return null;
  }
}

const REVERSE = { f: 'F', F: 'f', t: 'T', T: 't' } as const;

/**
 * `}`/`{` (Vim's findpar): to the count'th empty line after (before) some text; at the text's end
 * `}` stops on the last character, inclusive. A line of blanks is not a boundary (`:help paragraph`).
 */
function paragraphMotion(ta: TextArea, count: number, forward: boolean): MotionResult | null {
  const text = ta.text;
  const last = lineCount(text) - 1;
  const empty = (l: number): boolean => isEol(text, lineStartAt(text, l));
  let curr = lineIndex(text, ta.cursor);
  for (let c = count; c > 0; c--) {
    let skipped = false;
    for (let first = true; ; first = false) {
      if (!empty(curr)) skipped = true;
      if (!first && skipped && empty(curr)) break;
      curr += forward ? 1 : -1;
      if (curr < 0 || curr > last) {
        if (c > 1) return null;
        curr -= forward ? 1 : -1;
        break;
      }
    }
  }
  const bol = lineStartAt(text, curr);
  if (forward && curr === last && !isEol(text, bol)) return { pos: lastCharOfLine(ta, bol), type: 'inclusive' };
  return { pos: bol, type: 'exclusive' };
}

/** Off a non-empty line's NUL onto its last character (Vim's adjust_cursor). */
function offNul(ta: TextArea, pos: number): number {
  return isEol(ta.text, pos) && !isBol(ta.text, pos) ? charStart(ta, pos) : pos;
}

function wordMotion(env: MotionEnv, big: boolean, n: number): MotionResult {
  const { ta } = env;
  const w = new Walker(ta, ta.cursor, big);
  // `cw` on a word changes to its end, not to the next word (`:help cw`): Vim makes it `ce`
  // with the cursor staying put on a word's last character.
  if (env.op === 'c' && w.cls() !== 0) {
    endWord(w, n, true, false);
    return { pos: offNul(ta, w.pos), type: 'inclusive' };
  }
  fwdWord(w, n, env.op !== null);
  // Left on the NUL past the line end (the last word of a line under an operator): back onto the
  // last character, inclusive, so the operator stops at the line end.
  if (w.pos > ta.cursor && isEol(ta.text, w.pos) && !isBol(ta.text, w.pos)) {
    return { pos: charStart(ta, w.pos), type: 'inclusive' };
  }
  return { pos: w.pos, type: 'exclusive' };
}

function verticalMotion(env: MotionEnv, down: boolean, n: number): MotionResult | null {
  const { ta } = env;
  if (env.op !== null) {
    const line = linesFrom(ta.text, ta.cursor, down ? n : -n);
    if (line === null) return null;
    // The caret's column on the target line (a `yk` leaves the cursor there).
    let t = ta;
    const steps = Math.abs(line - lineIndex(ta.text, ta.cursor));
    for (let i = 0; i < steps; i++) t = down ? moveDown(t) : moveUp(t);
    return { pos: lineStart(ta.text, t.cursor) === lineStartAt(ta.text, line) ? t.cursor : lineStartAt(ta.text, line), type: 'linewise' };
  }
  // By screen row; Vim's `j` on the last line (and `k` on the first) does not move.
  let t = ta;
  for (let i = 0; i < n && !onEdgeRow(t, env.width, down); i++) t = down ? moveDownWrapped(t, env.width) : moveUpWrapped(t, env.width);
  return t === ta ? null : { pos: t.cursor, type: 'linewise', preferredCol: t.preferredCol };
}

/** On the text's first (up) or last (down) screen row. */
function onEdgeRow(ta: TextArea, width: number | null, down: boolean): boolean {
  const bol = lineStart(ta.text, ta.cursor);
  const eol = lineEnd(ta.text, ta.cursor);
  if (down ? eol < ta.text.length : bol > 0) return false;
  if (width === null) return true;
  const rows = wrapLine(ta.text.slice(bol, eol), bol, width, ta.elements);
  let r = 0;
  while (r + 1 < rows.length && rows[r + 1]!.start <= ta.cursor) r++;
  return down ? r === rows.length - 1 : r === 0;
}

function charAtIs(ta: TextArea, pos: number, ch: string): boolean {
  return elementStartingAt(ta, pos) === undefined && ta.text.startsWith(ch, pos) && charEnd(ta, pos) === pos + ch.length;
}

/**
 * Vim's searchc(): the count'th `find.char` in the line. A repeated `t`/`T` (`;`, `,`) with count 1
 * does not stop on the character right next to the cursor (`cpo` without `;`, Vim's default).
 */
export function findChar(ta: TextArea, from: number, find: FindState, count: number, repeat: boolean): number | null {
  const forward = find.cmd === 'f' || find.cmd === 't';
  const till = find.cmd === 't' || find.cmd === 'T';
  const bol = lineStart(ta.text, from);
  const eol = lineEnd(ta.text, from);
  let p = from;
  let stop = !(repeat && till && count === 1);
  for (let i = 0; i < count; i++) {
    for (;;) {
      if (forward) {
        p = charEnd(ta, p);
        if (p >= eol) return null;
      } else {
        if (p <= bol) return null;
        p = charStart(ta, p);
      }
      if (stop && charAtIs(ta, p, find.char)) break;
      stop = true;
    }
  }
  if (till) p = forward ? charStart(ta, p) : charEnd(ta, p);
  return p;
}

const OPEN = '([{';
const CLOSE = ')]}';

/** `%`: the first bracket at or after the cursor in the line, and the bracket matching it. */
export function matchBracket(ta: TextArea, from: number): number | null {
  const eol = lineEnd(ta.text, from);
  let p = from;
  while (p < eol && !isBracket(ta, p)) p = charEnd(ta, p);
  if (p >= eol) return null;
  const ch = ta.text[p]!;
  const open = OPEN.includes(ch);
  const pair = open ? CLOSE[OPEN.indexOf(ch)]! : OPEN[CLOSE.indexOf(ch)]!;
  return open ? scanForClose(ta, p, ch, pair) : scanForOpen(ta, p, pair, ch);
}

function isBracket(ta: TextArea, p: number): boolean {
  const ch = ta.text[p];
  return ch !== undefined && (OPEN.includes(ch) || CLOSE.includes(ch)) && elementStartingAt(ta, p) === undefined;
}

/** The unmatched `close` after `from` (nesting counted; elements skipped whole). */
export function scanForClose(ta: TextArea, from: number, open: string, close: string): number | null {
  let depth = 0;
  for (let p = charEnd(ta, from); p < ta.text.length; p = charEnd(ta, p)) {
    if (elementStartingAt(ta, p) !== undefined) continue;
    const ch = ta.text[p];
    if (ch === open) depth++;
    else if (ch === close) {
      if (depth === 0) return p;
      depth--;
    }
  }
  return null;
}

/** The unmatched `open` before `from`. */
export function scanForOpen(ta: TextArea, from: number, open: string, close: string): number | null {
  let depth = 0;
  for (let p = from; p > 0; ) {
    p = charStart(ta, p);
    if (elementStartingAt(ta, p) !== undefined) continue;
    const ch = ta.text[p];
    if (ch === close) depth++;
    else if (ch === open) {
      if (depth === 0) return p;
      depth--;
    }
  }
  return null;
}
