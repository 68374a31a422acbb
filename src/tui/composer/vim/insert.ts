/**
 * Insert mode as Vim sees it: a session opened by a command (`i`, `cw`, `o`…) whose typed text `.`
 * repeats and a count multiplies (`3ifoo<Esc>`), Esc one step left, and the optional escape
 * sequence (`vim_escape_sequence = "jj"`): its second key within VIM_ESCAPE_TIMEOUT_MS of the
 * first (time injected, as for paste bursts) takes the first back out and acts as Esc; slower, both
 * are typed.
 */
import type { KeyEvent } from '../../keys/types.js';
import { commitTextArea, type ComposerState } from '../state.js';
import { moveLeft, replaceRange, snapOut, type TextArea } from '../textarea.js';
import { applySnapshot, snapshotDraft } from '../undo.js';
import { floorGrapheme, nextGrapheme } from '../graphemes.js';
import { charEnd, charStart, lineStart } from './chars.js';
import { tokenOf } from './keys.js';
import { captureRange, insertContent, joinContents, repeatContent } from './registers.js';
import { toInsert, toNormal, type InsertedText, type RegisterContent, type VisualExtent } from './state.js';
import type { Command } from './types.js';

export const VIM_ESCAPE_TIMEOUT_MS = 300;

/** Insert commands whose count repeats the typed text. */
const COUNTED = new Set(['i', 'a', 'I', 'A', 'o', 'O']);

export function enterInsert(state: ComposerState, cmd: Command, count: number, visual: VisualExtent | null = null): ComposerState {
  const repeat = cmd.kind === 'action' && COUNTED.has(cmd.action) ? count : 1;
  return { ...state, vim: toInsert(state.vim, { cmd, count: repeat, start: state.ta, visual }) };
}

/** Insert-mode Esc: one atomic step left (not past the line start). */
export function escapeInsert(ta: TextArea): TextArea {
  if (ta.cursor === lineStart(ta.text, ta.cursor)) return ta;
  return moveLeft(ta);
}

/** Characters (graphemes, elements whole) of `[from, to)` in `ta`. */
function charsIn(ta: TextArea, from: number, to: number): number {
  let n = 0;
  for (let p = from; p < to; p = charEnd(ta, p)) n++;
  return n;
}

/** What the session typed: the smallest edit from its start to now (prefix and suffix kept). */
export function insertedText(state: ComposerState, start: TextArea): InsertedText {
  const s0 = start.text;
  const ta = state.ta;
  const s1 = ta.text;
  let p = 0;
  const maxP = Math.min(start.cursor, s1.length);
  while (p < maxP && s0.charCodeAt(p) === s1.charCodeAt(p)) p++;
  let s = 0;
  const maxS = Math.min(s0.length - p, s1.length - p);
  while (s < maxS && s0.charCodeAt(s0.length - 1 - s) === s1.charCodeAt(s1.length - 1 - s)) s++;
  // Whole characters and elements on both sides.
  const from = Math.min(snapOut(ta, floorGrapheme(s1, p), true), snapOut(start, floorGrapheme(s0, p), true));
  let to = s1.length - s;
  const f = floorGrapheme(s1, to);
  if (f !== to) to = nextGrapheme(s1, f);
  to = Math.max(from, snapOut(ta, to, false));
  const suffix = s1.length - to;
  const content = captureRange(state, from, to, false);
  const a = start.cursor;
  const end0 = Math.max(from, s0.length - suffix);
  return {
    before: a > from ? charsIn(start, from, a) : 0,
    after: end0 > Math.max(a, from) ? charsIn(start, Math.max(a, from), end0) : 0,
    content,
  };
}

/** `.`: what a session typed, typed again at the cursor. */
export function applyInserted(state: ComposerState, ins: InsertedText): ComposerState {
  const ta = state.ta;
  let from = ta.cursor;
  for (let i = 0; i < ins.before && from > 0; i++) from = charStart(ta, from);
  let to = ta.cursor;
  for (let i = 0; i < ins.after && to < ta.text.length; i++) to = charEnd(ta, to);
  const cleared = from === to ? state : commitTextArea(state, replaceRange(ta, from, to, ''));
  return ins.content.text === '' ? cleared : insertContent(cleared, from, ins.content).state;
}

function repeated(cmd: Command, content: RegisterContent, times: number): RegisterContent {
  const line = cmd.kind === 'action' && (cmd.action === 'o' || cmd.action === 'O');
  return repeatContent(line ? joinContents(['\n', content], false) : content, times);
}

/**
 * Leaves Insert mode: the count's extra copies of the typed text, the text remembered for `.`, the
 * cursor one step left, Normal mode.
 */
export function leaveInsert(state: ComposerState): ComposerState {
  const session = state.vim.insert;
  let s = state;
  let lastChange = state.vim.lastChange;
  if (session !== null) {
    const inserted = insertedText(s, session.start);
    if (session.count > 1 && inserted.content.text !== '') {
      s = insertContent(s, s.ta.cursor, repeated(session.cmd, inserted.content, session.count - 1)).state;
    }
    lastChange = { cmd: session.cmd, insert: inserted, visual: session.visual };
  }
  return { ...s, ta: escapeInsert(s.ta), vim: { ...toNormal(s.vim), lastChange } };
}

// ---------- the escape sequence ----------

function sequenceKeys(state: ComposerState): [string, string] | null {
  const seq = state.vim.escapeSequence;
  if (seq === null) return null;
  const [a, b] = [...seq];
  return a === undefined || b === undefined ? null : [a, b];
}

/** Before an Insert-mode key is typed: remember the draft when it is the sequence's first key. */
export function noteEscapePrefix(state: ComposerState, key: KeyEvent, now: number): ComposerState {
  const keys = sequenceKeys(state);
  if (keys === null) return state;
  if (tokenOf(key) === keys[0])
    return { ...state, vim: { ...state.vim, escapePrefix: { at: now, before: snapshotDraft(state), undo: state.undo } } };
  return state.vim.escapePrefix === null ? state : { ...state, vim: { ...state.vim, escapePrefix: null } };
}

/**
 * The sequence's second key, in time, right after its first was typed at the caret (and nothing
 * else changed): the draft as it was before the first key (undo history too), to leave Insert mode
 * from. Null otherwise: the key is typed.
 */
export function completeEscape(state: ComposerState, key: KeyEvent, now: number): ComposerState | null {
  const keys = sequenceKeys(state);
  const prefix = state.vim.escapePrefix;
  if (keys === null || prefix === null || tokenOf(key) !== keys[1]) return null;
  if (now - prefix.at > VIM_ESCAPE_TIMEOUT_MS || now < prefix.at) return null;
  const b = prefix.before;
  const typed = b.text.slice(0, b.cursor) + keys[0] + b.text.slice(b.cursor);
  if (state.ta.text !== typed || state.ta.cursor !== b.cursor + keys[0].length || state.bashMode !== b.bashMode) return null;
  return { ...applySnapshot(state, b), undo: prefix.undo, vim: { ...state.vim, escapePrefix: null } };
}
