/**
 * Typing with the paste-burst detector in front (docs/codex-parity.md#paste-burst-detection, Codex `handle_input_basic`): plain
 * characters may be held or buffered, a burst flushes as one paste, and non-character keys flush the
 * burst before they act.
 */
import type { KeyEvent } from '../keys/types.js';
import { applyEditorKey, insertableChar, isNewlineKey } from './editor-keys.js';
import { insertPaste } from './paste.js';
import { commitTextArea, type ComposerState } from './state.js';
import { insertText, replaceRange } from './textarea.js';

function burstEnabled(state: ComposerState): boolean {
  return !state.disablePasteBurst && !(state.vimEnabled && state.vim.mode === 'normal');
}

/**
 * One typed character. `!` typed with nothing before the caret turns on shell mode instead of being
 * inserted (docs/codex-parity.md#shell-escape).
 */
export function insertTypedChar(state: ComposerState, ch: string): ComposerState {
  if (ch === '!' && !state.bashMode && state.ta.cursor === 0) return { ...state, bashMode: true };
  return commitTextArea(state, insertText(state.ta, ch));
}

/** Flushes a burst that has been idle long enough (on a tick, and before each key). */
export function flushDueBurst(state: ComposerState, now: number): ComposerState {
  if (state.disablePasteBurst) return state;
  const r = state.burst.flushIfDue(now);
  if (r.type === 'paste') return insertPaste(state, r.text);
  if (r.type === 'typed') return insertTypedChar(state, r.ch);
  return state;
}

/** Everything buffered or held goes in as a paste now (before a non-character or modified key). */
export function flushBurstBeforeKey(state: ComposerState): ComposerState {
  const pasted = state.burst.flushBeforeModifiedInput();
  return pasted === null || pasted === '' ? state : insertPaste(state, pasted);
}

function isAscii(ch: string): boolean {
  return ch.length === 1 && ch.charCodeAt(0) < 0x80;
}

/** Start of the plain text run before the caret (a retro-grab must not reach into an element). */
function grabFloor(state: ComposerState): number {
  let floor = 0;
  for (const el of state.ta.elements) if (el.end <= state.ta.cursor) floor = Math.max(floor, el.end);
  return floor;
}

/** Starts buffering with the pastey chars already typed before the caret, if the detector wants them. */
function tryRetroGrab(state: ComposerState, ch: string, retroChars: number, now: number): ComposerState | null {
  const floor = grabFloor(state);
  const before = state.ta.text.slice(floor, state.ta.cursor);
  const grab = state.burst.decideBeginBuffer(now, before, retroChars);
  if (!grab.grab) return null;
  const next = grab.grabbed === '' ? state : commitTextArea(state, replaceRange(state.ta, floor + grab.start, state.ta.cursor, ''));
  next.burst.appendCharToBuffer(ch, now);
  return next;
}

/** A plain character on the burst-aware path; null when it should simply be typed. */
function burstChar(state: ComposerState, ch: string, now: number): ComposerState | null {
  const burst = state.burst;
  if (!isAscii(ch)) {
    // IME commits arrive fast too: never hold them, but keep detecting pastes.
    if (burst.tryAppendCharIfActive(ch, now)) return state;
    const flushed = flushBurstBeforeKey(state);
    const d = burst.onPlainCharNoHold(ch, now);
    if (d.type === 'bufferAppend') {
      burst.appendCharToBuffer(ch, now);
      return flushed;
    }
    if (d.type === 'beginBuffer') return tryRetroGrab(flushed, ch, d.retroChars, now) ?? insertTypedChar(flushed, ch);
    return insertTypedChar(flushed, ch);
  }
  const d = burst.onPlainChar(ch, now);
  switch (d.type) {
    case 'bufferAppend':
    case 'beginBufferFromPending':
      burst.appendCharToBuffer(ch, now);
      return state;
    case 'retainFirstChar':
      return state;
    case 'beginBuffer':
      return tryRetroGrab(state, ch, d.retroChars, now);
    case 'insert':
      return null;
  }
}

/** A key that reached the editor: paste-burst handling, then the keymap. */
export function basicInput(state0: ComposerState, key: KeyEvent, now: number): ComposerState {
  let state = state0;
  const burst = state.burst;
  if (isNewlineKey(key) && burst.isActive() && burst.appendNewlineIfActive(now)) return state;

  const ch = insertableChar(key);
  if (ch !== null) {
    if (burstEnabled(state)) {
      const r = burstChar(state, ch, now);
      if (r !== null) return r;
    }
    return insertTypedChar(flushBurstBeforeKey(state), ch);
  }

  if (!isNewlineKey(key)) state = flushBurstBeforeKey(state);
  if (key.name === 'backspace' && state.bashMode && state.ta.cursor === 0 && !key.ctrl && !key.alt) {
    state = { ...state, bashMode: false };
  } else {
    state = commitTextArea(state, applyEditorKey(state.ta, key, state.width));
  }
  // A modified character or a non-character key ends the burst's timing window; a newline keeps it
  // (blank lines inside a paste).
  if (!isNewlineKey(key)) state.burst.clearWindowAfterNonChar();
  return state;
}
