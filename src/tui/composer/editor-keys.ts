/**
 * The default editing keymap (reference §1.4) applied to the textarea: what each key does to the text
 * and the caret. Submission, popups, Vim and paste bursts are decided before a key gets here.
 */
import type { KeyEvent } from '../keys/types.js';
import {
  deleteBackward,
  deleteForward,
  deleteWordBackward,
  deleteWordForward,
  insertText,
  killToLineEnd,
  killToLineStart,
  moveLeft,
  moveLineEnd,
  moveLineStart,
  moveRight,
  moveWordLeft,
  moveWordRight,
  yank,
  type TextArea,
} from './textarea.js';
import { moveDownWrapped, moveUpWrapped } from './wrapped-motion.js';

export function isCtrlChar(key: KeyEvent, c: string): boolean {
  return key.type === 'key' && key.name === 'char' && key.ctrl && !key.alt && key.char === c;
}

/** A character to insert: no Ctrl/Alt/Meta, not a control character. */
export function insertableChar(key: KeyEvent): string | null {
  if (key.name !== 'char' || key.ctrl || key.alt || key.meta) return null;
  const ch = key.char;
  if (ch === undefined || ch === '') return null;
  const c = ch.codePointAt(0)!;
  if (ch.length === 1 && (c < 0x20 || c === 0x7f)) return null;
  return ch;
}

/** Keys that insert a newline (never submit): Ctrl+J, Ctrl+M, Shift/Alt/Ctrl+Enter. */
export function isNewlineKey(key: KeyEvent): boolean {
  if (key.name === 'enter') return key.shift || key.alt || key.ctrl || key.meta;
  return isCtrlChar(key, 'j') || isCtrlChar(key, 'm');
}

export function isPlainKey(key: KeyEvent, name: KeyEvent['name']): boolean {
  return key.name === name && !key.ctrl && !key.alt && !key.shift && !key.meta;
}

/**
 * Applies one editing key; keys without a binding leave the textarea unchanged. `width` is the wrap
 * width on screen (Up/Down move by wrapped row), null when unknown.
 */
export function applyEditorKey(ta: TextArea, key: KeyEvent, width: number | null = null): TextArea {
  if (isNewlineKey(key)) return insertText(ta, '\n');
  const ch = insertableChar(key);
  if (ch !== null) return insertText(ta, ch);
  const word = key.ctrl || key.alt;
  switch (key.name) {
    case 'backspace':
      return word ? deleteWordBackward(ta) : deleteBackward(ta);
    case 'delete':
      return word ? deleteWordForward(ta) : deleteForward(ta);
    case 'left':
      return word ? moveWordLeft(ta) : moveLeft(ta);
    case 'right':
      return word ? moveWordRight(ta) : moveRight(ta);
    case 'up':
      return moveUpWrapped(ta, width);
    case 'down':
      return moveDownWrapped(ta, width);
    case 'home':
      return moveLineStart(ta);
    case 'end':
      return moveLineEnd(ta);
    case 'char':
      return applyChordKey(ta, key, width);
    default:
      return ta;
  }
}

function applyChordKey(ta: TextArea, key: KeyEvent, width: number | null): TextArea {
  const c = key.char;
  if (key.ctrl && key.alt) return c === 'h' ? deleteWordBackward(ta) : ta;
  if (key.ctrl) {
    switch (c) {
      case 'a':
        return moveLineStart(ta, true);
      case 'e':
        return moveLineEnd(ta, true);
      case 'b':
        return moveLeft(ta);
      case 'f':
        return moveRight(ta);
      case 'p':
        return moveUpWrapped(ta, width);
      case 'n':
        return moveDownWrapped(ta, width);
      case 'h':
        return deleteBackward(ta);
      case 'd':
        return deleteForward(ta);
      case 'w':
        return deleteWordBackward(ta);
      case 'k':
        return killToLineEnd(ta);
      case 'u':
        return killToLineStart(ta);
      case 'y':
        return yank(ta);
      default:
        return ta;
    }
  }
  if (key.alt) {
    switch (c) {
      case 'b':
        return moveWordLeft(ta);
      case 'f':
        return moveWordRight(ta);
      case 'd':
        return deleteWordForward(ta);
      default:
        return ta;
    }
  }
  return ta;
}
