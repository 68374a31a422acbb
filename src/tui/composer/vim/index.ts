/**
 * Vim mode of the composer (docs/codex-parity.md#vim-mode): what the reducer calls. Keys in Normal and Visual mode
 * build commands (keys.ts) that run on the whole composer state (normal.ts, visual.ts, repeat.ts),
 * so elements keep their payloads through registers. Every change is one step of the shared undo
 * history (undo.ts): a Normal-mode command one step, an Insert session (with the command that
 * opened it) one group, sealed at Esc.
 */
import type { KeyEvent } from '../../keys/types.js';
import type { ComposerState } from '../state.js';
import { moveLeft, snapOut, type TextArea } from '../textarea.js';
import { floorGrapheme } from '../graphemes.js';
import type { DraftSnapshot } from '../draft-types.js';
import { recordChange, sealRun, snapshotDraft } from '../undo.js';
import { charEnd, lineEnd, lineStart } from './chars.js';
import { completeEscape, leaveInsert, noteEscapePrefix } from './insert.js';
import { parseCommand, tokenOf } from './keys.js';
import { runNormal } from './normal.js';
import { isRepeatable, repeatLastChange } from './repeat.js';
import { isVisual, toNormal, type VimState } from './state.js';
import type { Command } from './types.js';
import { runVisual, visualExtent } from './visual.js';

export { escapeInsert, VIM_ESCAPE_TIMEOUT_MS } from './insert.js';
export { SHIFT_WIDTH } from './operators.js';
export {
  initialVimState,
  isVisual,
  toInsert,
  toNormal,
  validEscapeSequence,
  VIM_INSERT,
  VIM_NORMAL,
  type RegisterContent,
  type Registers,
  type VimState,
} from './state.js';
export type { VimMode } from './types.js';

/** In Normal mode the caret sits on a character: never past the last one of a non-empty line. */
export function clampNormal(ta: TextArea): TextArea {
  const bol = lineStart(ta.text, ta.cursor);
  const eol = lineEnd(ta.text, ta.cursor);
  if (ta.cursor === eol && eol > bol) return { ...moveLeft(ta), preferredCol: ta.preferredCol };
  return ta;
}

/** Whether Normal mode has a meaning for this key (else the reducer's editor handles it, e.g. Backspace, Ctrl+K). */
export function isNormalModeKey(key: KeyEvent): boolean {
  const t = tokenOf(key);
  return t === '<Esc>' || t === '<C-r>' || !(t.length > 1 && t.startsWith('<') && t.endsWith('>'));
}

/** A command is being typed or Visual mode is on: every key is Vim's (Enter included, so nothing is submitted). */
export function vimHoldsKeys(vim: VimState): boolean {
  return vim.pending !== null || isVisual(vim);
}

/** Ctrl+R is redo outside Insert mode (history search stays Insert mode's and the plain editor's). */
export function vimOwnsCtrlR(state: ComposerState): boolean {
  return state.vimEnabled && state.vim.mode !== 'insert';
}

function execute(state: ComposerState, cmd: Command, now: number): ComposerState {
  const env = { width: state.width };
  const visual = isVisual(state.vim);
  if (!visual && cmd.kind === 'action' && (cmd.action === 'u' || cmd.action === '<C-r>')) {
    // Undo and redo move through the history themselves.
    return runNormal(state, cmd, env) ?? state;
  }
  const extent = visual ? visualExtent(state) : null;
  const repeat = !visual && cmd.kind === 'action' && cmd.action === '.';
  let out = repeat ? repeatLastChange(state, cmd.count, env) : visual ? runVisual(state, cmd, env) : runNormal(state, cmd, env);
  if (out === null) return state;
  if (!repeat && out.vim.mode !== 'insert' && isRepeatable(cmd, visual)) {
    out = { ...out, vim: { ...out.vim, lastChange: { cmd, insert: null, visual: extent } } };
  }
  // The unnamed register is also the textarea's kill buffer: Ctrl+Y puts the last yank or delete (as text).
  const unnamed = out.vim.registers.unnamed;
  if (unnamed !== state.vim.registers.unnamed && unnamed !== null)
    out = { ...out, ta: { ...out.ta, killBuffer: unnamed.text, killLinewise: unnamed.linewise } };
  // A command that starts typing opens a group the Insert session joins; anything else is one step.
  const group = out.vim.mode === 'insert';
  const history = group ? sealRun(out.undo) : out.undo;
  return { ...out, undo: recordChange(history, beforeChange(state, out), snapshotDraft(out), group ? 'group' : 'edit', now) };
}

/**
 * The draft before a command, with the cursor where Vim puts it on undo: at the start of the
 * change when that is before the cursor (`db`, a Visual selection), else where it was.
 */
function beforeChange(state: ComposerState, out: ComposerState): DraftSnapshot {
  const a = state.ta.text;
  const b = out.ta.text;
  let d = 0;
  const max = Math.min(a.length, b.length);
  while (d < max && a.charCodeAt(d) === b.charCodeAt(d)) d++;
  const snap = snapshotDraft(state);
  if (d >= state.ta.cursor || a === b) return snap;
  return { ...snap, cursor: snapOut(state.ta, floorGrapheme(a, d), true) };
}

/** One key in Normal or Visual mode, or while a command is being typed; it records its undo step (the caller none). */
export function vimNormalKey(state: ComposerState, key: KeyEvent, now: number): ComposerState {
  const vim = state.vim;
  const tokens = [...(vim.pending ?? []), tokenOf(key)];
  const parsed = parseCommand(tokens, isVisual(vim));
  if (parsed.status === 'pending') return { ...state, vim: { ...vim, pending: tokens } };
  const cleared = vim.pending === null ? state : { ...state, vim: { ...vim, pending: null } };
  if (parsed.status === 'invalid') return cleared;
  return execute(cleared, parsed.cmd, now);
}

/**
 * Esc in Insert mode: the session ends. Its typing (and a count's copies, made here) are one undo
 * group that the reducer's edit tracking records; the next command that changes the draft starts a
 * step of its own (execute seals the run).
 */
export function vimEscape(state: ComposerState): ComposerState {
  return leaveInsert(state);
}

/**
 * An Insert-mode key before it is typed: the escape sequence's second key in time leaves Insert mode
 * (`escaped`); its first key is remembered.
 */
export function vimInsertKey(state: ComposerState, key: KeyEvent, now: number): { state: ComposerState; escaped: boolean } {
  const restored = completeEscape(state, key, now);
  // The undo history is back as it was before the sequence's first key: nothing to record.
  if (restored !== null) return { state: vimEscape(restored), escaped: true };
  return { state: noteEscapePrefix(state, key, now), escaped: false };
}

/** Back to Normal mode after a submit or when Vim mode is turned on; the registers stay. */
export function vimReset(state: ComposerState): ComposerState {
  return { ...state, vim: toNormal(state.vim), ta: clampNormal(state.ta) };
}

/** The Visual selection as `[start, end)` for drawing, or null outside Visual mode. */
export function vimSelection(state: ComposerState): { start: number; end: number } | null {
  if (!state.vimEnabled || !isVisual(state.vim)) return null;
  const ta = state.ta;
  const anchor = Math.min(state.vim.anchor ?? ta.cursor, ta.text.length);
  const s = Math.min(anchor, ta.cursor);
  const e = Math.max(anchor, ta.cursor);
  if (state.vim.mode === 'visual-line') return { start: lineStart(ta.text, s), end: lineEnd(ta.text, e) };
  return { start: s, end: charEnd(ta, e) };
}

/** The footer's mode name. */
export function vimModeName(vim: VimState): string {
  switch (vim.mode) {
    case 'insert':
      return 'Insert';
    case 'visual':
      return 'Visual';
    case 'visual-line':
      return 'Visual Line';
    default:
      return 'Normal';
  }
}
