/**
 * The default editing keymap (docs/codex-parity.md#default-editing-keys) applied to the textarea: what each key does to the text
 * and the caret. Submission, popups, Vim and paste bursts are decided before a key gets here.
 */
import { isCtrl } from '../keys/ctrl.js';
import type { KeyEvent, KeyName } from '../keys/types.js';
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
  return isCtrl(key, 'j') || isCtrl(key, 'm');
}

/**
 * Ctrl+Enter where the terminal tells it from Enter (kitty keyboard protocol, modifyOtherKeys):
 * interrupt the running turn and send only the draft.
 */
export function isSendNowKey(e: KeyEvent): boolean {
  return e.name === 'enter' && e.ctrl && !e.shift && !e.alt && !e.meta;
}

export function isPlainKey(key: KeyEvent, name: KeyEvent['name']): boolean {
  return key.name === name && !key.ctrl && !key.alt && !key.shift && !key.meta;
}

function isAltChar(key: KeyEvent, c: string): boolean {
  return key.type === 'key' && key.name === 'char' && (key.alt || key.meta) && !key.ctrl && key.char === c;
}

/**
 * Undo: Ctrl+_ (0x1f, also what Ctrl+/ and Ctrl+- send in many terminals), Ctrl+Z (0x1a in raw mode,
 * or kitty CSI-u `CSI 122;5u`) and Ctrl+/ reported as CSI-u.
 */
export function isUndoKey(key: KeyEvent): boolean {
  if (key.type !== 'key' || key.name !== 'char' || !key.ctrl || key.alt || key.meta || key.kind === 'release') return false;
  if (key.char === '_' || key.char === '/') return true;
  return key.char === 'z' && !key.shift;
}

/** Redo: Ctrl+Shift+Z (kitty CSI-u / xterm modifyOtherKeys; a legacy terminal cannot send it) and Alt+_. */
export function isRedoKey(key: KeyEvent): boolean {
  if (key.type !== 'key' || key.name !== 'char' || key.kind === 'release') return false;
  if (key.ctrl && key.shift && !key.alt && (key.char === 'z' || key.char === 'Z')) return true;
  return isAltChar(key, '_');
}

/** Which way a kill key cuts: forward (Ctrl+K, Alt+D, Ctrl/Alt+Delete) appends, backward (Ctrl+U, Ctrl+W, Alt+Backspace) prepends. */
export type KillDirection = 'forward' | 'backward';

export function killDirection(key: KeyEvent): KillDirection | null {
  if (key.type !== 'key' || key.kind === 'release') return null;
  if (key.name === 'backspace') return key.alt || key.ctrl ? 'backward' : null;
  if (key.name === 'delete') return key.alt || key.ctrl ? 'forward' : null;
  if (key.name !== 'char') return null;
  if (isCtrl(key, 'k')) return 'forward';
  if (isCtrl(key, 'u') || isCtrl(key, 'w')) return 'backward';
  if (isAltChar(key, 'd')) return 'forward';
  if (key.ctrl && key.alt && key.char === 'h') return 'backward';
  return null;
}

/** Ctrl+Y: yank the newest kill. */
export function isYankKey(key: KeyEvent): boolean {
  return isCtrl(key, 'y') && key.kind !== 'release';
}

/** Alt+Y right after a yank: replace it with the next older kill. */
export function isYankPopKey(key: KeyEvent): boolean {
  return isAltChar(key, 'y') && key.kind !== 'release';
}

/** Ctrl+S: stash the draft / bring the stash back. */
export function isStashKey(key: KeyEvent): boolean {
  return isCtrl(key, 's') && key.kind !== 'release';
}

/** A chord that does what a named key does: the key, and whether it acts by word (as with Ctrl/Alt). */
type Chord = readonly [KeyName, boolean];

const CTRL_CHORDS = new Map<string, Chord>([
  ['b', ['left', false]],
  ['f', ['right', false]],
  ['p', ['up', false]],
  ['n', ['down', false]],
  ['h', ['backspace', false]],
  ['d', ['delete', false]],
  ['w', ['backspace', true]],
]);
const ALT_CHORDS = new Map<string, Chord>([
  ['b', ['left', true]],
  ['f', ['right', true]],
  ['d', ['delete', true]],
]);
const CTRL_ALT_CHORDS = new Map<string, Chord>([['h', ['backspace', true]]]);

function chordOf(key: KeyEvent): Chord | undefined {
  const table = key.ctrl ? (key.alt ? CTRL_ALT_CHORDS : CTRL_CHORDS) : key.alt ? ALT_CHORDS : undefined;
  return key.char === undefined ? undefined : table?.get(key.char);
}

/**
 * Applies one editing key; keys without a binding leave the textarea unchanged. `width` is the wrap
 * width on screen (Up/Down move by wrapped row), null when unknown.
 */
export function applyEditorKey(ta: TextArea, key: KeyEvent, width: number | null = null): TextArea {
  if (isNewlineKey(key)) return insertText(ta, '\n');
  const ch = insertableChar(key);
  if (ch !== null) return insertText(ta, ch);
  if (key.name !== 'char') return applyNamedKey(ta, key.name, key.ctrl || key.alt, width);
  const chord = chordOf(key);
  if (chord !== undefined) return applyNamedKey(ta, chord[0], chord[1], width);
  if (!key.ctrl || key.alt) return ta;
  switch (key.char) {
    case 'a':
      return moveLineStart(ta, true);
    case 'e':
      return moveLineEnd(ta, true);
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

function applyNamedKey(ta: TextArea, name: KeyName, word: boolean, width: number | null): TextArea {
  switch (name) {
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
    default:
      return ta;
  }
}
