/**
 * What Vim mode remembers between keys: the mode, the keys of a command being typed, the
 * registers, the last `f`/`t`, the last change (for `.`), the Insert session being typed and the
 * Visual selection's anchor. Plain immutable data, carried in ComposerState.vim.
 */
import type { TextArea } from '../textarea.js';
import type { DraftSnapshot, UndoHistory } from '../undo.js';
import { EMPTY_REGISTERS, type RegisterContent, type Registers } from './registers.js';
import type { Command, FindState, VimMode } from './types.js';

/** The size of a Visual selection, so `.` can act on as much text again from the cursor. */
export interface VisualExtent {
  linewise: boolean;
  /** Lines below the first. */
  lines: number;
  /** Charwise: characters on a one-line selection, else the end column (in characters) on its last line. */
  chars: number;
}

/** What an Insert session typed, for `.`: characters removed before and after the start, and the new text. */
export interface InsertedText {
  before: number;
  after: number;
  content: RegisterContent;
}

/** A change `.` repeats: the command, and the text typed after it when it entered Insert mode. */
export interface RepeatRecord {
  cmd: Command;
  insert: InsertedText | null;
  visual: VisualExtent | null;
}

/** Insert mode entered by a command: what to record for `.` when it ends. */
export interface InsertSession {
  cmd: Command;
  /** `3ifoo<Esc>` types foo three times. */
  count: number;
  /** The text, elements and caret typing started from (after the command's own change). */
  start: TextArea;
  visual: VisualExtent | null;
}

/** The first key of the Insert-mode escape sequence (`jj`): when it came and what the draft was before it. */
export interface EscapePrefix {
  at: number;
  before: DraftSnapshot;
  undo: UndoHistory;
}

export interface VimState {
  mode: VimMode;
  /** The keys of a command being typed (`2d`, `"a`, `f`…); null when none is. */
  pending: readonly string[] | null;
  registers: Registers;
  lastFind: FindState | null;
  lastChange: RepeatRecord | null;
  insert: InsertSession | null;
  /** Visual mode: the other end of the selection (the cursor is one end). */
  anchor: number | null;
  /** `vim_escape_sequence` (e.g. `jj`): typed quickly in Insert mode it acts as Esc. */
  escapeSequence: string | null;
  escapePrefix: EscapePrefix | null;
}

const BASE: VimState = {
  mode: 'normal',
  pending: null,
  registers: EMPTY_REGISTERS,
  lastFind: null,
  lastChange: null,
  insert: null,
  anchor: null,
  escapeSequence: null,
  escapePrefix: null,
};

export const VIM_NORMAL: VimState = BASE;
export const VIM_INSERT: VimState = { ...BASE, mode: 'insert' };

export function initialVimState(enabled: boolean, escapeSequence: string | null = null): VimState {
  return { ...(enabled ? VIM_NORMAL : VIM_INSERT), escapeSequence: validEscapeSequence(escapeSequence) };
}

/** Two printable characters (`jj`, `jk`), or nothing. */
export function validEscapeSequence(seq: string | null | undefined): string | null {
  if (seq === null || seq === undefined) return null;
  const chars = [...seq];
  return chars.length === 2 && chars.every((c) => /^\P{C}$/u.test(c) && c !== ' ') ? seq : null;
}

/** Normal mode; registers, the last change and the settings stay. */
export function toNormal(vim: VimState): VimState {
  if (vim.mode === 'normal' && vim.pending === null && vim.anchor === null && vim.insert === null && vim.escapePrefix === null) return vim;
  return { ...vim, mode: 'normal', pending: null, anchor: null, insert: null, escapePrefix: null };
}

export function toInsert(vim: VimState, insert: InsertSession | null = null): VimState {
  return { ...vim, mode: 'insert', pending: null, anchor: null, insert, escapePrefix: null };
}

export function isVisual(vim: VimState): boolean {
  return vim.mode === 'visual' || vim.mode === 'visual-line';
}
