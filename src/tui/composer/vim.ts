/**
 * Vim mode of the composer (reference §1.13): Normal-mode keys, the `d`/`y` operators with motions,
 * and the Insert-mode Esc. Pure functions over TextArea; the reducer decides which keys get here.
 */
import type { KeyEvent } from '../keys/types.js';
import {
  beginningOfNextWord,
  beginningOfPreviousWord,
  endOfWordChar,
  insertText,
  killRange,
  lineEnd,
  lineStart,
  moveLeft,
  moveRight,
  setCursor,
  setKillBuffer,
  snapOut,
  type TextArea,
} from './textarea.js';
import { moveDownWrapped, moveUpWrapped } from './wrapped-motion.js';

export type VimMode = 'normal' | 'insert';
export type VimOperator = 'd' | 'y';

export interface VimState {
  mode: VimMode;
  pending: VimOperator | null;
}

export const VIM_NORMAL: VimState = { mode: 'normal', pending: null };
export const VIM_INSERT: VimState = { mode: 'insert', pending: null };

/** In Normal mode the caret sits on a character: never past the last one of a non-empty line. */
export function clampNormal(ta: TextArea): TextArea {
  const bol = lineStart(ta.text, ta.cursor);
  const eol = lineEnd(ta.text, ta.cursor);
  if (ta.cursor === eol && eol > bol) return { ...moveLeft(ta), preferredCol: ta.preferredCol };
  return ta;
}

/** Insert-mode Esc: one atomic step left (not past the line start), then Normal. */
export function escapeInsert(ta: TextArea): TextArea {
  if (ta.cursor === lineStart(ta.text, ta.cursor)) return ta;
  return moveLeft(ta);
}

function keyChar(key: KeyEvent): string | null {
  if (key.ctrl || key.alt || key.meta) return null;
  if (key.name === 'char') return key.char ?? null;
  switch (key.name) {
    case 'left':
      return 'h';
    case 'right':
      return 'l';
    case 'up':
      return 'k';
    case 'down':
      return 'j';
    case 'insert':
      return 'i';
    case 'home':
      return '0';
    case 'end':
      return '$';
    default:
      return null;
  }
}

/** Whether Normal mode has a meaning for this key (else the reducer's editor handles it, e.g. Backspace). */
export function isNormalModeKey(key: KeyEvent): boolean {
  return keyChar(key) !== null || key.name === 'escape';
}

export interface VimResult {
  ta: TextArea;
  vim: VimState;
}

/** The end (exclusive) of the character under the caret: the next grapheme or element end. */
function charEnd(ta: TextArea, pos: number): number {
  return moveRight({ ...ta, cursor: pos }).cursor;
}

function lastCharStart(ta: TextArea, bol: number, eol: number): number {
  if (eol === bol) return bol;
  return moveLeft({ ...ta, cursor: eol }).cursor;
}

/** A charwise motion target, or a linewise line span, for the operator keys. */
type Motion = { kind: 'char'; to: number; inclusive: boolean } | { kind: 'line'; from: number; to: number };

function motionFor(ta: TextArea, ch: string): Motion | null {
  const c = ta.cursor;
  const bol = lineStart(ta.text, c);
  const eol = lineEnd(ta.text, c);
  switch (ch) {
    case 'h':
      return { kind: 'char', to: c === bol ? c : moveLeft(ta).cursor, inclusive: false };
    case 'l':
      return { kind: 'char', to: Math.min(charEnd(ta, c), eol), inclusive: false };
    case 'w':
      // As Vim: `dw` on the last word of a line stops at the line end.
      return { kind: 'char', to: c < eol ? Math.min(beginningOfNextWord(ta), eol) : beginningOfNextWord(ta), inclusive: false };
    case 'b':
      return { kind: 'char', to: beginningOfPreviousWord(ta), inclusive: false };
    case 'e':
      return { kind: 'char', to: endOfWordChar(ta), inclusive: true };
    case '0':
      return { kind: 'char', to: bol, inclusive: false };
    case '$':
      return { kind: 'char', to: eol, inclusive: false };
    case 'j':
      return eol < ta.text.length ? { kind: 'line', from: bol, to: lineEnd(ta.text, eol + 1) } : null;
    case 'k':
      return bol > 0 ? { kind: 'line', from: lineStart(ta.text, bol - 1), to: eol } : null;
    default:
      return null;
  }
}

function applyOperator(ta: TextArea, op: VimOperator, motion: Motion): TextArea {
  if (motion.kind === 'line') return lineOperator(ta, op, motion.from, motion.to);
  let from = Math.min(ta.cursor, motion.to);
  let to = Math.max(ta.cursor, motion.to);
  if (motion.inclusive) to = charEnd(ta, to);
  from = snapOut(ta, from, true);
  if (from === to) return ta;
  if (op === 'y') return { ...setKillBuffer(ta, ta.text.slice(from, to), false), cursor: from };
  return clampNormal(killRange(ta, from, to));
}

/** `dd`/`yy`/`dj`/`dk`: whole lines `[from, to)` (to = end of the last line, without its newline). */
function lineOperator(ta: TextArea, op: VimOperator, from: number, to: number): TextArea {
  const lines = ta.text.slice(from, to);
  if (op === 'y') return setKillBuffer(ta, lines, true);
  // Remove the lines with one adjacent newline so no empty line is left behind.
  const start = to < ta.text.length ? from : Math.max(0, from - 1);
  const end = to < ta.text.length ? to + 1 : to;
  const killed = killRange(ta, start, end);
  const next = { ...killed, killBuffer: lines, killLinewise: true };
  return clampNormal(setCursor(next, lineStart(next.text, Math.min(start, next.text.length))));
}

/** `p`: after the caret, or below the current line for a linewise kill buffer. */
function put(ta: TextArea): TextArea {
  if (ta.killBuffer === '') return ta;
  if (ta.killLinewise) {
    const eol = lineEnd(ta.text, ta.cursor);
    const inserted = insertText({ ...ta, cursor: eol }, `\n${ta.killBuffer}`);
    return setCursor(inserted, eol + 1);
  }
  const at = ta.cursor < lineEnd(ta.text, ta.cursor) ? charEnd(ta, ta.cursor) : ta.cursor;
  const inserted = insertText({ ...ta, cursor: at }, ta.killBuffer);
  return clampNormal({ ...inserted, cursor: moveLeft(inserted).cursor });
}

/**
 * One key in Normal mode (or with an operator pending). Keys without a meaning are consumed. `width`
 * is the wrap width on screen: `j`/`k` move by wrapped row (the `dj`/`dk` operators stay linewise).
 */
export function normalModeKey(ta: TextArea, vim: VimState, key: KeyEvent, width: number | null = null): VimResult {
  const ch = keyChar(key);
  if (vim.pending !== null) {
    // A pending operator consumes any key: a motion completes it, anything else (Enter too) cancels it.
    const op = vim.pending;
    if (ch === op) {
      const bol = lineStart(ta.text, ta.cursor);
      return { ta: lineOperator(ta, op, bol, lineEnd(ta.text, ta.cursor)), vim: VIM_NORMAL };
    }
    const motion = ch === null ? null : motionFor(ta, ch);
    return { ta: motion === null ? ta : applyOperator(ta, op, motion), vim: VIM_NORMAL };
  }
  if (ch === null) return { ta, vim };
  const bol = lineStart(ta.text, ta.cursor);
  const eol = lineEnd(ta.text, ta.cursor);
  const normal = (t: TextArea): VimResult => ({ ta: clampNormal(t), vim: VIM_NORMAL });
  const insert = (t: TextArea): VimResult => ({ ta: t, vim: VIM_INSERT });
  switch (ch) {
    case 'i':
      return insert(ta);
    case 'a':
      return insert(ta.cursor < eol ? moveRight(ta) : ta);
    case 'A':
      return insert(setCursor(ta, eol));
    case 'I': {
      let pos = bol;
      while (pos < eol && (ta.text[pos] === ' ' || ta.text[pos] === '\t')) pos++;
      return insert(setCursor(ta, pos));
    }
    case 'o':
      return insert(insertText(setCursor(ta, eol), '\n'));
    case 'O': {
      const t = insertText(setCursor(ta, bol), '\n');
      return insert(setCursor(t, bol));
    }
    case 'h':
      return normal(ta.cursor === bol ? ta : moveLeft(ta));
    case 'l': {
      const next = moveRight(ta);
      return normal(next.cursor >= eol ? ta : next);
    }
    case 'k':
      return normal(moveUpWrapped(ta, width));
    case 'j':
      return normal(moveDownWrapped(ta, width));
    case 'w':
      return normal(setCursor(ta, beginningOfNextWord(ta)));
    case 'b':
      return normal(setCursor(ta, beginningOfPreviousWord(ta)));
    case 'e':
      return normal(setCursor(ta, endOfWordChar(ta)));
    case '0':
      return normal(setCursor(ta, bol));
    case '$':
      return normal(setCursor(ta, lastCharStart(ta, bol, eol)));
    case 'x':
      return normal(ta.cursor < eol ? killRange(ta, ta.cursor, charEnd(ta, ta.cursor)) : ta);
    case 'D':
      return normal(killRange(ta, ta.cursor, eol));
    case 'Y':
      return normal(setKillBuffer(ta, ta.text.slice(bol, eol), true));
    case 'p':
      return normal(put(ta));
    case 'd':
    case 'y':
      return { ta, vim: { mode: 'normal', pending: ch } };
    default:
      return { ta, vim };
  }
}
