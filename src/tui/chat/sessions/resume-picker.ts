/**
 * The resume picker (`tiller resume`, /resume): the saved threads newest first, a fuzzy search over
 * their first message, and for each row when it was last used, its turn count and its directory.
 * Pure: rows from thread/list, the filter, keys and the lines drawn; the controller keeps the state
 * in the store and resumes the pick.
 */
import type { ChalkInstance } from 'chalk';
import stringWidth from '../../string-width.js';
import type { Thread } from '../../../protocol/api.js';
import type { KeyEvent } from '../../keys/types.js';
import { sanitize } from '../../markdown.js';
import { isCtrl } from '../../keys/ctrl.js';
import { palette } from '../../theme.js';

export interface ResumeRow {
  id: string;
  /** The session's name (/rename), else its first user message, on one line ('' when there is none). */
  preview: string;
  cwd: string;
  /** Unix seconds of the last recorded change. */
  updatedAt: number;
  turns: number | null;
  /** Run by `tiller exec` (no one typed in it). */
  exec: boolean;
  /** The session this one was forked from (/fork, Esc-Esc, a session open elsewhere), or null. */
  forkedFrom: string | null;
}

export interface ResumePickerState {
  /** Null while thread/list has not answered yet. */
  rows: ResumeRow[] | null;
  /** Why the list could not be read, or null. */
  error: string | null;
  query: string;
  /** The highlighted row, an index into filteredRows(). */
  selected: number;
  /** Opened by `tiller resume`: Esc leaves Tiller instead of going back to a chat. */
  atLaunch: boolean;
}

export const RESUME_PICKER_TITLE = 'Resume a previous session';
export const RESUME_PICKER_HINT = 'type to search · ↑/↓ move · enter resume · esc cancel';
export const NO_SESSIONS_MESSAGE = 'No saved sessions yet.';
export const NO_MATCH_MESSAGE = 'No session matches the search.';
/** Rows PgUp / PgDn move by. */
const PAGE = 10;

export function openResumePicker(atLaunch: boolean): ResumePickerState {
  return { rows: null, error: null, query: '', selected: 0, atLaunch };
}

/** A thread of thread/list as a row; Tiller's turn count when the server gives one. */
export function resumeRow(thread: Thread): ResumeRow {
  const count = thread.tillerTurnCount;
  return {
    id: thread.id,
    // As Codex's picker: a named session shows (and is searched by) its name.
    preview: (thread.name ?? thread.preview).replace(/\s+/g, ' ').trim(),
    cwd: thread.cwd,
    updatedAt: thread.updatedAt || thread.createdAt,
    turns: typeof count === 'number' ? count : null,
    exec: thread.source === 'exec',
    forkedFrom: thread.forkedFromId,
  };
}

/** The end of an id, as the picker names a session in a row. */
export function shortId(id: string): string {
  return id.slice(-8);
}

/** Where a session came from, before its first message: a fork and its original look alike otherwise. */
export function rowTags(row: ResumeRow): string {
  const tags = [...(row.exec ? ['[exec]'] : []), ...(row.forkedFrom === null ? [] : [`[fork of …${shortId(row.forkedFrom)}]`])];
  return tags.length === 0 ? '' : `${tags.join(' ')} `;
}

/** The highlighted session: its id, and the session it was forked from (when it is listed, when that was last used). */
export function selectedDetail(row: ResumeRow, rows: readonly ResumeRow[], nowMs: number): string {
  const original = row.forkedFrom === null ? undefined : rows.find((r) => r.id === row.forkedFrom);
  const when = original === undefined ? '' : ` (${relativeTime(original.updatedAt, nowMs)})`;
  const fork = row.forkedFrom === null ? '' : `, forked from ${row.forkedFrom}${when}`;
  return `session ${row.id}${fork}${row.exec ? ', a tiller exec run' : ''}`;
}

/** Newest first; the same time keeps the server's order. */
export function sortRows(rows: readonly ResumeRow[]): ResumeRow[] {
  return rows
    .map((row, i) => ({ row, i }))
    .sort((a, b) => b.row.updatedAt - a.row.updatedAt || a.i - b.i)
    .map(({ row }) => row);
}

/**
 * Where the query's characters occur in order in `text` (any case, spaces in the query ignored),
 * and how well: a contiguous run scores best, then matches at word starts; null when they do not all occur.
 */
export function fuzzyMatch(text: string, query: string): { score: number; indices: number[] } | null {
  const q = [...query.toLowerCase().replace(/\s+/g, '')];
  if (q.length === 0) return { score: 0, indices: [] };
  const chars = [...text.toLowerCase()];
  const contiguous = text.toLowerCase().indexOf(query.toLowerCase().trim());
  if (contiguous >= 0 && query.trim() !== '') {
    const start = [...text.slice(0, contiguous)].length;
    const length = [...query.trim()].length;
    return { score: 1000 - start, indices: Array.from({ length }, (_, i) => start + i) };
  }
  const indices: number[] = [];
  let score = 0;
  let at = 0;
  for (const ch of q) {
    while (at < chars.length && chars[at] !== ch) at++;
    if (at >= chars.length) return null;
    const wordStart = at === 0 || /[\s\-_/.]/.test(chars[at - 1]!);
    const adjacent = indices.length > 0 && indices.at(-1) === at - 1;
    score += (wordStart ? 10 : 0) + (adjacent ? 5 : 0) - 1;
    indices.push(at);
    at++;
  }
  return { score, indices };
}

/** The rows matching the query: best match first, newest first among equals; all rows for no query. */
export function filteredRows(state: Pick<ResumePickerState, 'rows' | 'query'>): ResumeRow[] {
  const rows = state.rows ?? [];
  if (state.query.trim() === '') return rows;
  return rows
    .map((row, i) => ({ row, i, match: fuzzyMatch(row.preview, state.query) }))
    .filter((m) => m.match !== null)
    .sort((a, b) => b.match!.score - a.match!.score || a.i - b.i)
    .map(({ row }) => row);
}

export type ResumePickerStep = { type: 'stay'; state: ResumePickerState } | { type: 'cancel' } | { type: 'resume'; threadId: string };

/**
 * A key while the picker is open (it owns the keys): ↑/↓ (Ctrl+P/N), PgUp/PgDn, Home/End move,
 * typing searches, Backspace and Ctrl+U unsearch, Enter resumes the highlighted thread, Esc or Ctrl+C cancel.
 */
export function resumePickerKey(state: ResumePickerState, e: KeyEvent): ResumePickerStep {
  const plain = !e.ctrl && !e.alt && !e.meta;
  if (isCtrl(e, 'c') || (e.name === 'escape' && plain)) return { type: 'cancel' };
  const shown = filteredRows(state);
  const last = Math.max(0, shown.length - 1);
  const to = (n: number): ResumePickerStep => ({ type: 'stay', state: { ...state, selected: Math.min(last, Math.max(0, n)) } });
  if ((e.name === 'up' && plain) || isCtrl(e, 'p')) return to(state.selected - 1);
  if ((e.name === 'down' && plain) || isCtrl(e, 'n')) return to(state.selected + 1);
  if (e.name === 'pageup' && plain) return to(state.selected - PAGE);
  if (e.name === 'pagedown' && plain) return to(state.selected + PAGE);
  if (e.name === 'home' && plain) return to(0);
  if (e.name === 'end' && plain) return to(last);
  if (e.name === 'enter' && plain && !e.shift) {
    const row = shown[state.selected];
    return row === undefined ? { type: 'stay', state } : { type: 'resume', threadId: row.id };
  }
  if (e.name === 'backspace' && plain)
    return { type: 'stay', state: { ...state, query: [...state.query].slice(0, -1).join(''), selected: 0 } };
  if (isCtrl(e, 'u')) return { type: 'stay', state: { ...state, query: '', selected: 0 } };
  if (e.name === 'char' && plain && e.char !== undefined)
    return { type: 'stay', state: { ...state, query: state.query + e.char, selected: 0 } };
  return { type: 'stay', state };
}

/** Pasted text searches too (one line of it). */
export function resumePickerPaste(state: ResumePickerState, text: string): ResumePickerState {
  return { ...state, query: state.query + text.replace(/\s+/g, ' '), selected: 0 };
}

/** `just now`, `5 minutes ago`, `3 hours ago`, `2 days ago`, then the date. */
export function relativeTime(seconds: number, nowMs: number): string {
  const ago = Math.max(0, Math.floor(nowMs / 1000) - seconds);
  const unit = (n: number, name: string): string => `${n} ${name}${n === 1 ? '' : 's'} ago`;
  if (ago < 60) return 'just now';
  if (ago < 3600) return unit(Math.floor(ago / 60), 'minute');
  if (ago < 86_400) return unit(Math.floor(ago / 3600), 'hour');
  if (ago < 30 * 86_400) return unit(Math.floor(ago / 86_400), 'day');
  return new Date(seconds * 1000).toISOString().slice(0, 10);
}

/** `~/src/app` for a directory under the home directory. */
export function shortDirectory(cwd: string, home: string): string {
  if (home !== '' && (cwd === home || cwd.startsWith(`${home}/`))) return `~${cwd.slice(home.length)}`;
  return cwd;
}

/** Cut to `width` cells with `…` (the end kept for a directory). */
function fit(text: string, width: number, keepEnd = false): string {
  if (stringWidth(text) <= width) return text + ' '.repeat(width - stringWidth(text));
  if (width <= 1) return '…'.slice(0, width);
  const chars = [...text];
  let out = '';
  if (keepEnd) {
    for (let i = chars.length - 1; i >= 0 && stringWidth(chars[i]! + out) <= width - 1; i--) out = chars[i]! + out;
    return `…${out}${' '.repeat(width - 1 - stringWidth(out))}`;
  }
  for (const ch of chars) {
    if (stringWidth(out + ch) > width - 1) break;
    out += ch;
  }
  return `${out}…${' '.repeat(width - 1 - stringWidth(out))}`;
}

export interface PickerLineContext {
  width: number;
  /** At most this many rows. */
  maxRows: number;
  nowMs: number;
  home: string;
  /** The thread the chat is in (marked `current`), or null. */
  currentThreadId: string | null;
}

/** The picker as rows: title, search field, column heads, the visible window of threads, a position line. */
export function resumePickerLines(state: ResumePickerState, ctx: PickerLineContext, c: ChalkInstance): string[] {
  const width = Math.max(20, ctx.width);
  const head = [c.bold(RESUME_PICKER_TITLE), `${c.dim('  search: ')}${sanitize(state.query)}${c.inverse(' ')}`, ''];
  if (state.error !== null) return [...head, palette(c).danger(`  ${sanitize(state.error)}`)];
  if (state.rows === null) return [...head, c.dim('  Loading the saved sessions…')];
  if (state.rows.length === 0) return [...head, c.dim(`  ${NO_SESSIONS_MESSAGE}`)];
  const shown = filteredRows(state);
  if (shown.length === 0) return [...head, c.dim(`  ${NO_MATCH_MESSAGE}`)];
  const timeWidth = 15;
  const turnsWidth = 9;
  const dirWidth = Math.max(8, Math.min(30, Math.floor(width / 4)));
  const textWidth = Math.max(8, width - 2 - timeWidth - turnsWidth - dirWidth - 3);
  const columns = c.dim(`  ${fit('Updated', timeWidth)} ${fit('Turns', turnsWidth)} ${fit('Directory', dirWidth)} First message`);
  const room = Math.max(1, ctx.maxRows - head.length - 3);
  const start = Math.min(Math.max(0, state.selected - room + 1), Math.max(0, shown.length - room));
  const rows = shown.slice(start, start + room).map((row, i) => {
    const selected = start + i === state.selected;
    const turns = row.turns === null ? '' : row.turns === 1 ? '1 turn' : `${row.turns} turns`;
    const current = row.id === ctx.currentThreadId ? ' (current)' : '';
    const preview = rowTags(row) + sanitize(row.preview === '' ? '(no message)' : row.preview) + current;
    const text = `${fit(relativeTime(row.updatedAt, ctx.nowMs), timeWidth)} ${fit(turns, turnsWidth)} ${fit(sanitize(shortDirectory(row.cwd, ctx.home)), dirWidth, true)} ${fit(preview, textWidth).trimEnd()}`;
    return selected ? palette(c).accent(`▸ ${text}`) : `  ${text}`;
  });
  const position = shown.length > rows.length ? [c.dim(`  ${start + 1}–${start + rows.length} of ${shown.length}`)] : [];
  const chosen = shown[state.selected];
  const detail = chosen === undefined ? [] : [c.dim(`  ${fit(selectedDetail(chosen, state.rows ?? [], ctx.nowMs), width - 2).trimEnd()}`)];
  return [...head, columns, ...rows, ...position, ...detail];
}
