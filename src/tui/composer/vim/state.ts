/**
 * What Vim mode remembers between keys: the mode, the keys of a command being typed, the
 * registers, the last `f`/`t`, the last change (for `.`), the Insert session being typed and the
 * Visual selection's anchor. Plain immutable data, carried in ComposerState.vim.
 */
import type { DraftSnapshot, KilledElement, UndoHistory } from '../draft-types.js';
import type { TextArea } from '../textarea.js';
import type { Command, FindState, VimMode } from './types.js';

/** An element of a register's text, with what it stands for (the kill ring's shape: one capture for both). */
export type RegisterElement = KilledElement;

export interface RegisterContent {
  /** Linewise: whole lines joined by `\n`, without a final newline. */
  readonly text: string;
  readonly linewise: boolean;
  readonly elements: readonly RegisterElement[];
}

export interface Registers {
  /** What `p` puts without a register name: the last delete, change or yank. */
  readonly unnamed: RegisterContent | null;
  /** `0`–`9`, `-`, `a`–`z`. */
  readonly named: Readonly<Record<string, RegisterContent>>;
}

export const EMPTY_REGISTERS: Registers = { unnamed: null, named: {} };

/** The size of a Visual selection, so `.` can act on as much text again from the cursor. */
export interface VisualExtent {
  readonly linewise: boolean;
  /** Lines below the first. */
  readonly lines: number;
  /** Charwise: characters on a one-line selection, else the end column (in characters) on its last line. */
  readonly chars: number;
}

/** What an Insert session typed, for `.`: characters removed before and after the start, and the new text. */
export interface InsertedText {
  readonly before: number;
  readonly after: number;
  readonly content: RegisterContent;
}

/** A change `.` repeats: the command, and the text typed after it when it entered Insert mode. */
export interface RepeatRecord {
  readonly cmd: Command;
  readonly insert: InsertedText | null;
  readonly visual: VisualExtent | null;
}

/** Insert mode entered by a command: what to record for `.` when it ends. */
export interface InsertSession {
  readonly cmd: Command;
  /** `3ifoo<Esc>` types foo three times. */
  readonly count: number;
  /** The text, elements and caret typing started from (after the command's own change). */
  readonly start: TextArea;
  readonly visual: VisualExtent | null;
}

/** The first key of the Insert-mode escape sequence (`jj`): when it came and what the draft was before it. */
export interface EscapePrefix {
  readonly at: number;
  readonly before: DraftSnapshot;
  readonly undo: UndoHistory;
}

export interface VimState {
  readonly mode: VimMode;
  /** The keys of a command being typed (`2d`, `"a`, `f`…); null when none is. */
  readonly pending: readonly string[] | null;
  readonly registers: Registers;
  readonly lastFind: FindState | null;
  readonly lastChange: RepeatRecord | null;
  readonly insert: InsertSession | null;
  /** Visual mode: the other end of the selection (the cursor is one end). */
  readonly anchor: number | null;
  /** `vim_escape_sequence` (e.g. `jj`): typed quickly in Insert mode it acts as Esc. */
  readonly escapeSequence: string | null;
  readonly escapePrefix: EscapePrefix | null;
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
