/**
 * Typing with the paste-burst detector in front (docs/codex-parity.md#paste-burst-detection, Codex `handle_input_basic`): plain
 * characters may be held or buffered, a burst flushes as one paste, and non-character keys flush the
 * burst before they act. Unlike Codex, a character the detector holds is drawn at once (a keystroke
 * echoes without waiting out the detector's 8 ms); when a paste turns out to begin with it, it is
 * taken back out of the draft and goes in with the paste (`state.provisional`).
 */
import type { KeyEvent } from '../keys/types.js';
import { applyEditorKey, insertableChar, isNewlineKey } from './editor-keys.js';
import { extendPaste, insertPaste } from './paste.js';
import { isSearching } from './history.js';
import {
  appendCharToBuffer,
  appendNewlineIfActive,
  appendRunIfActive,
  takesRunAt,
  clearWindowAfterNonChar,
  decideBeginBuffer,
  flushBeforeModifiedInput,
  flushIfDue,
  hasPendingFirstChar,
  isBuffering,
  onPlainChar,
  onPlainCharNoHold,
  tryAppendCharIfActive,
  type FlushedBurst,
  type PasteBurst,
} from './paste-burst.js';
import { commitTextArea, type ComposerState } from './state.js';
import { insertText, replaceRange, type TextArea } from './textarea.js';

/**
 * Whether plain ASCII characters typed at `now` would each only join the burst being buffered: no
 * popup, history search, shortcuts overlay or Vim to look at them first (`burstChars` events).
 */
export function takesCharRun(state: ComposerState, now: number): boolean {
  if (state.disablePasteBurst || state.vimEnabled || state.popup !== null || state.showShortcuts) return false;
  return !isSearching(state.history) && takesRunAt(state.burst, now);
}

/** The characters of a run in the burst, or null when `takesCharRun` says no. */
export function appendCharRun(state: ComposerState, chars: string, now: number): ComposerState | null {
  const burst = takesCharRun(state, now) ? appendRunIfActive(state.burst, chars, now) : null;
  return burst === null ? null : withBurst(state, burst);
}

function burstEnabled(state: ComposerState): boolean {
  return !state.disablePasteBurst && !(state.vimEnabled && state.vim.mode === 'normal');
}

function withBurst(state: ComposerState, burst: PasteBurst): ComposerState {
  if (burst === state.burst) return state;
  // The held character is no longer held: it stays in the draft as typed, or a caller took it back.
  return state.provisional !== null && !hasPendingFirstChar(burst) ? { ...state, burst, provisional: null } : { ...state, burst };
}

/** The held character, drawn already, out of the draft again: the detector is about to use it. */
function takeBackProvisional(state: ComposerState): ComposerState {
  const p = state.provisional;
  if (p === null) return state;
  // Only the draft the character made can be rewound; anything else keeps what is on screen.
  return state.ta === p.after ? { ...state, ta: p.before, bashMode: p.bashMode, provisional: null } : { ...state, provisional: null };
}

/** A character the detector holds, typed into the draft now and remembered as provisional. */
function typeProvisional(state: ComposerState, ch: string): ComposerState {
  const typed = insertTypedChar(state, ch);
  return { ...typed, provisional: { before: state.ta, bashMode: state.bashMode, after: typed.ta } };
}

/** After a non-character key: the next character starts a fresh burst window, and a paste of its own. */
export function endBurstWindow(state: ComposerState): ComposerState {
  const next = withBurst(state, clearWindowAfterNonChar(state.burst));
  return next.burstPaste === null ? next : { ...next, burstPaste: null };
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
export function flushDueBurst(state0: ComposerState, now: number): ComposerState {
  if (state0.disablePasteBurst) return state0;
  const { burst, flushed } = flushIfDue(state0.burst, now);
  if (flushed.type === 'paste') return insertBurst(withBurst(state0, burst), flushed);
  // A held character that no paste followed: it is in the draft already.
  if (flushed.type === 'typed')
    return state0.provisional !== null ? withBurst(state0, burst) : insertTypedChar(withBurst(state0, burst), flushed.ch);
  return withBurst(state0, burst);
}

/** Everything buffered or held goes in as a paste now (before a non-character or modified key). */
export function flushBurstBeforeKey(state0: ComposerState): ComposerState {
  const { burst, flushed } = flushBeforeModifiedInput(state0.burst);
  if (flushed === null || flushed.text === '') return withBurst(state0, burst);
  // The held character is part of the text: out of the draft first, so it goes in once.
  const state = hasPendingFirstChar(state0.burst) ? takeBackProvisional(state0) : state0;
  // A character that was only held is typing, not more of a paste.
  return isBuffering(state0.burst) ? insertBurst(withBurst(state, burst), flushed) : insertPaste(withBurst(state, burst), flushed.text);
}

/**
 * A large paste reaches a terminal without bracketed paste in pieces, and a pause between two (the
 * sender busy, a loaded machine) can outlast the detector's wait. A burst that begins within this
 * many ms of the last one that became a placeholder, with nothing done to the draft between, joins it.
 */
export const PASTE_CONTINUATION_MS = 1000;

/** A flushed burst into the draft: more of the placeholder just before it, or a paste of its own. */
function insertBurst(state: ComposerState, flushed: FlushedBurst): ComposerState {
  const last = state.burstPaste;
  if (last !== null && flushed.startedAt - last.endedAt <= PASTE_CONTINUATION_MS && sameTextArea(state.ta, last.ta)) {
    const joined = extendPaste(state, last.placeholder, flushed.text);
    if (joined !== null) return noteBurstPaste(joined, flushed.endedAt);
  }
  const next = insertPaste(state, flushed.text);
  return next.pendingPastes.length > state.pendingPastes.length ? noteBurstPaste(next, flushed.endedAt) : next;
}

/** Remembers the placeholder just inserted before the caret. */
function noteBurstPaste(state: ComposerState, endedAt: number): ComposerState {
  const { ta } = state;
  const el = ta.elements.find((e) => e.kind === 'paste' && e.end === ta.cursor);
  const burstPaste = el === undefined ? null : { ta, placeholder: ta.text.slice(el.start, el.end), endedAt };
  return { ...state, burstPaste };
}

/** The same draft: a held character typed and taken back out leaves an equal textarea, not the same one. */
function sameTextArea(a: TextArea, b: TextArea): boolean {
  return a === b || (a.cursor === b.cursor && a.elements.length === b.elements.length && a.text === b.text);
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
  const { burst, grab } = decideBeginBuffer(state.burst, now, before, retroChars);
  if (!grab.grab) return null;
  const next = grab.grabbed === '' ? state : commitTextArea(state, replaceRange(state.ta, floor + grab.start, state.ta.cursor, ''));
  return { ...next, burst: appendCharToBuffer(burst, ch, now) };
}

function typeChar(state: ComposerState, ch: string): ComposerState {
  return insertTypedChar(flushBurstBeforeKey(state), ch);
}

/** A plain character on the burst-aware path. */
function burstChar(state: ComposerState, ch: string, now: number): ComposerState {
  if (!isAscii(ch)) {
    // IME commits arrive fast too: never hold them, but keep detecting pastes.
    const appended = tryAppendCharIfActive(state.burst, ch, now);
    if (appended !== null) return { ...state, burst: appended };
    const flushed = flushBurstBeforeKey(state);
    const { burst, decision } = onPlainCharNoHold(flushed.burst, ch, now);
    if (decision.type === 'bufferAppend') return { ...flushed, burst: appendCharToBuffer(burst, ch, now) };
    const noted = { ...flushed, burst };
    if (decision.type === 'beginBuffer') return tryRetroGrab(noted, ch, decision.retroChars, now) ?? insertTypedChar(noted, ch);
    return insertTypedChar(noted, ch);
  }
  const { burst, decision } = onPlainChar(state.burst, ch, now);
  switch (decision.type) {
    case 'bufferAppend':
      return { ...state, burst: appendCharToBuffer(burst, ch, now) };
    case 'beginBufferFromPending':
      // The held character starts the paste: it leaves the draft and goes in with the rest.
      return { ...takeBackProvisional(state), burst: appendCharToBuffer(burst, ch, now) };
    case 'retainFirstChar':
      return typeProvisional(withBurst(state, burst), ch);
    case 'beginBuffer': {
      const noted = { ...state, burst };
      return tryRetroGrab(noted, ch, decision.retroChars, now) ?? typeChar(noted, ch);
    }
    case 'insert':
      return typeChar({ ...state, burst }, ch);
  }
}

/** A newline while a burst is active joins it (null when none is); a held character goes in ahead of it, out of the draft. */
export function newlineIntoBurst(state: ComposerState, now: number): ComposerState | null {
  const burst = appendNewlineIfActive(state.burst, now);
  if (burst === null) return null;
  return { ...(hasPendingFirstChar(state.burst) ? takeBackProvisional(state) : state), burst };
}

/** A key that reached the editor: paste-burst handling, then the keymap. */
export function basicInput(state0: ComposerState, key: KeyEvent, now: number): ComposerState {
  let state = state0;
  if (isNewlineKey(key)) {
    const joined = newlineIntoBurst(state, now);
    if (joined !== null) return joined;
  }

  const ch = insertableChar(key);
  if (ch !== null) {
    return burstEnabled(state) ? burstChar(state, ch, now) : typeChar(state, ch);
  }

  if (!isNewlineKey(key)) state = flushBurstBeforeKey(state);
  if (key.name === 'backspace' && state.bashMode && state.ta.cursor === 0 && !key.ctrl && !key.alt) {
    state = { ...state, bashMode: false };
  } else {
    state = commitTextArea(state, applyEditorKey(state.ta, key, state.width));
  }
  // A modified character or a non-character key ends the burst's timing window; a newline keeps it
  // (blank lines inside a paste).
  return isNewlineKey(key) ? state : endBurstWindow(state);
}
