/**
 * Composer history (docs/codex-parity.md#history-navigation): Up/Down over this session's submissions (full drafts: text,
 * elements, attachments, pending pastes) and older sessions' submissions (text only, from
 * `$TILLER_HOME/history.jsonl`), plus Ctrl+R reverse search over both.
 *
 * Index space: persistent entries come first (oldest), then local entries; the newest is last. The
 * history is a value: browsing and searching return a new one with what they found.
 */
import { open, mkdir, appendFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { redactSecrets } from '../../protocol/redact.js';
import type { TextElement } from '../../protocol/user-input.js';
import type { Attachment } from './types.js';

export interface PendingPaste {
  placeholder: string;
  text: string;
}

export interface HistoryEntry {
  text: string;
  textElements: TextElement[];
  attachments: Attachment[];
  pendingPastes: PendingPaste[];
}

/** What the history needs from an entry; anything else is carried along untouched. */
export interface HistoryEntryLike {
  text: string;
  attachments?: readonly unknown[];
}

export function historyEntryFromText(text: string): HistoryEntry {
  return { text, textElements: [], attachments: [], pendingPastes: [] };
}

export interface HistoryOptions<T> {
  /** Builds an entry from persistent (text-only) history, and the empty draft after Down past the newest. */
  fromText: (text: string) => T;
  persistent?: readonly string[];
}

export interface SearchMatch<T> {
  readonly entry: T;
  /** Index in the combined history (persistent first, then local). */
  readonly index: number;
  /** UTF-16 index of the match in entry.text. */
  readonly matchStart: number;
}

export interface SearchSession<T> {
  readonly draft: T;
  readonly query: string;
  readonly match: SearchMatch<T> | null;
}

/** The history as a value: a step returns a new one and leaves the one it was given as it was. */
export interface ComposerHistory<T extends HistoryEntryLike = HistoryEntry> {
  readonly persistent: readonly string[];
  readonly local: readonly T[];
  /** Index of the entry being shown while browsing; null when not browsing. */
  readonly cursor: number | null;
  /** Text of the last recalled entry: Up/Down keep navigating only while the composer still shows it. */
  readonly lastHistoryText: string | null;
  readonly search: SearchSession<T> | null;
  readonly fromText: (text: string) => T;
}

/** A step that may give an entry to show (null: none) with the history after it. */
export interface Recalled<T extends HistoryEntryLike> {
  history: ComposerHistory<T>;
  entry: T | null;
}

/** A search step: the match it found (null: none) with the history after it. */
export interface Searched<T extends HistoryEntryLike> {
  history: ComposerHistory<T>;
  match: SearchMatch<T> | null;
}

export function initialHistory<T extends HistoryEntryLike>(opts: HistoryOptions<T>): ComposerHistory<T> {
  return { persistent: opts.persistent ?? [], local: [], cursor: null, lastHistoryText: null, search: null, fromText: opts.fromText };
}

/** Older sessions' texts, oldest first; arrives asynchronously after start-up. */
export function setPersistentEntries<T extends HistoryEntryLike>(h: ComposerHistory<T>, texts: readonly string[]): ComposerHistory<T> {
  return resetNavigation({ ...h, persistent: [...texts] });
}

export function historyLength(h: ComposerHistory<HistoryEntryLike>): number {
  return h.persistent.length + h.local.length;
}

/** Records a submitted (or Ctrl+C-cleared) draft. Empty drafts and consecutive duplicates are skipped. */
export function recordLocalSubmission<T extends HistoryEntryLike>(h0: ComposerHistory<T>, entry: T): ComposerHistory<T> {
  const h = resetNavigation(h0);
  if (entry.text === '' && (entry.attachments?.length ?? 0) === 0) return h;
  const last = h.local[h.local.length - 1];
  if (last !== undefined && deepEqual(last, entry)) return h;
  return { ...h, local: [...h.local, entry] };
}

export function resetNavigation<T extends HistoryEntryLike>(h: ComposerHistory<T>): ComposerHistory<T> {
  return h.cursor === null && h.lastHistoryText === null ? h : { ...h, cursor: null, lastHistoryText: null };
}

export function isBrowsing(h: ComposerHistory<HistoryEntryLike>): boolean {
  return h.cursor !== null;
}

/**
 * Whether Up/Down should navigate history rather than move the cursor: there is history, and the
 * composer is empty, or it still shows the last recalled entry with the cursor at its start or end.
 */
export function shouldHandleNavigation(
  h: ComposerHistory<HistoryEntryLike>,
  text: string,
  cursor: number,
  cursorUnit: 'byte' | 'utf16' = 'byte',
): boolean {
  if (historyLength(h) === 0) return false;
  if (text === '') return true;
  const end = cursorUnit === 'byte' ? Buffer.byteLength(text, 'utf8') : text.length;
  if (cursor !== 0 && cursor !== end) return false;
  return h.lastHistoryText === text;
}

/** Up: the next older entry, or none (at the oldest, the view stays put). */
export function navigateUp<T extends HistoryEntryLike>(h: ComposerHistory<T>): Recalled<T> {
  const total = historyLength(h);
  if (total === 0 || h.cursor === 0) return { history: h, entry: null };
  return showAt(h, h.cursor === null ? total - 1 : h.cursor - 1);
}

/** Down: the next newer entry; past the newest, an empty draft and browsing ends. None when not browsing. */
export function navigateDown<T extends HistoryEntryLike>(h: ComposerHistory<T>): Recalled<T> {
  if (h.cursor === null) return { history: h, entry: null };
  if (h.cursor + 1 >= historyLength(h)) return { history: resetNavigation(h), entry: h.fromText('') };
  return showAt(h, h.cursor + 1);
}

export function entryAt<T extends HistoryEntryLike>(h: ComposerHistory<T>, index: number): T | null {
  if (index < 0 || index >= historyLength(h)) return null;
  if (index < h.persistent.length) return h.fromText(h.persistent[index] ?? '');
  return h.local[index - h.persistent.length] ?? null;
}

// --- Ctrl+R reverse search -------------------------------------------------------------------

export function isSearching(h: ComposerHistory<HistoryEntryLike>): boolean {
  return h.search !== null;
}

export function searchQuery(h: ComposerHistory<HistoryEntryLike>): string {
  return h.search?.query ?? '';
}

export function currentSearchMatch<T extends HistoryEntryLike>(h: ComposerHistory<T>): SearchMatch<T> | null {
  return h.search?.match ?? null;
}

/** Ctrl+R: begins a search, remembering the draft to restore on Esc. */
export function startSearch<T extends HistoryEntryLike>(h: ComposerHistory<T>, draft: T): ComposerHistory<T> {
  return { ...resetNavigation(h), search: { draft, query: '', match: null } };
}

/** The query changed: the newest entry containing it (case-insensitive). */
export function setSearchQuery<T extends HistoryEntryLike>(h: ComposerHistory<T>, query: string): Searched<T> {
  if (h.search === null) return { history: h, match: null };
  const match = query === '' ? null : findMatch(h, query, historyLength(h) - 1, null);
  return { history: { ...h, search: { ...h.search, query, match } }, match };
}

/**
 * Repeated Ctrl+R: the next older match whose text differs from the current one. With no older
 * match the current match stays (and none is returned so the caller can signal it).
 */
export function searchOlder<T extends HistoryEntryLike>(h: ComposerHistory<T>): Searched<T> {
  const s = h.search;
  if (s === null || s.query === '') return { history: h, match: null };
  const from = s.match === null ? historyLength(h) - 1 : s.match.index - 1;
  const match = findMatch(h, s.query, from, s.match?.entry.text ?? null);
  return { history: match === null ? h : { ...h, search: { ...s, match } }, match };
}

/** Ctrl+S: the next newer match whose text differs from the current one. */
export function searchNewer<T extends HistoryEntryLike>(h: ComposerHistory<T>): Searched<T> {
  const s = h.search;
  if (s === null || s.query === '' || s.match === null) return { history: h, match: null };
  const q = s.query.toLowerCase();
  for (let i = s.match.index + 1; i < historyLength(h); i++) {
    const m = matchAt(h, i, q, s.match.entry.text);
    if (m !== null) return { history: { ...h, search: { ...s, match: m } }, match: m };
  }
  return { history: h, match: null };
}

/** Enter: ends the search; the matched entry becomes the editable draft (the saved draft if no match). */
export function acceptSearch<T extends HistoryEntryLike>(h: ComposerHistory<T>): Recalled<T> {
  const s = h.search;
  if (s === null) return { history: h, entry: null };
  if (s.match === null) return { history: { ...h, search: null }, entry: s.draft };
  return { history: { ...h, search: null, lastHistoryText: s.match.entry.text }, entry: s.match.entry };
}

/** Esc or Ctrl+C: ends the search and gives back the draft from before it began. */
export function cancelSearch<T extends HistoryEntryLike>(h: ComposerHistory<T>): Recalled<T> {
  return { history: h.search === null ? h : { ...h, search: null }, entry: h.search?.draft ?? null };
}

function findMatch<T extends HistoryEntryLike>(
  h: ComposerHistory<T>,
  query: string,
  from: number,
  skipText: string | null,
): SearchMatch<T> | null {
  const q = query.toLowerCase();
  for (let i = Math.min(from, historyLength(h) - 1); i >= 0; i--) {
    const m = matchAt(h, i, q, skipText);
    if (m !== null) return m;
  }
  return null;
}

function matchAt<T extends HistoryEntryLike>(
  h: ComposerHistory<T>,
  i: number,
  lowerQuery: string,
  skipText: string | null,
): SearchMatch<T> | null {
  const text = i < h.persistent.length ? (h.persistent[i] ?? '') : (h.local[i - h.persistent.length]?.text ?? '');
  if (skipText !== null && text === skipText) return null;
  const at = text.toLowerCase().indexOf(lowerQuery);
  if (at < 0) return null;
  const entry = entryAt(h, i);
  return entry === null ? null : { entry, index: i, matchStart: at };
}

function showAt<T extends HistoryEntryLike>(h: ComposerHistory<T>, index: number): Recalled<T> {
  const entry = entryAt(h, index);
  if (entry === null) return { history: h, entry: null };
  return { history: { ...h, cursor: index, lastHistoryText: entry.text }, entry };
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

// --- Persistent history file ----------------------------------------------------------------------

export const HISTORY_FILE_NAME = 'history.jsonl';
export const PERSISTENT_HISTORY_LOAD_LIMIT = 1000;
const TAIL_CHUNK_BYTES = 64 * 1024;

export function historyFilePath(tillerHome: string): string {
  return join(tillerHome, HISTORY_FILE_NAME);
}

/**
 * `$TILLER_HOME/history.jsonl`, one `{"ts":<unix seconds>,"text":...}` per line. Writes are queued
 * and never awaited by the UI. The file size is noted at the first operation, so loading shows only
 * earlier sessions' entries even when this session has already appended some.
 */
export class HistoryFile {
  private sizeAtStart: Promise<number> | null = null;
  private writes: Promise<void> = Promise.resolve();

  constructor(
    readonly path: string,
    private readonly nowSeconds: () => number = () => Math.floor(Date.now() / 1000),
  ) {}

  /** Queues one line; errors are reported through the returned promise and never break later appends. */
  append(text: string): Promise<void> {
    // A key pasted into a prompt must not outlive the session on disk.
    const line = `${JSON.stringify({ ts: this.nowSeconds(), text: redactSecrets(text) })}\n`;
    const start = this.startSize();
    const write = this.writes.then(async () => {
      await start;
      await mkdir(dirname(this.path), { recursive: true });
      await appendFile(this.path, line, { encoding: 'utf8', mode: 0o600 });
    });
    this.writes = write.catch(() => undefined);
    return write;
  }

  /** Waits until every queued append has been written. */
  flush(): Promise<void> {
    return this.writes;
  }

  /** The last `limit` texts (oldest first) present before this session; malformed lines are skipped. */
  async loadRecent(limit: number = PERSISTENT_HISTORY_LOAD_LIMIT): Promise<string[]> {
    const size = await this.startSize();
    if (size === 0 || limit <= 0) return [];
    const lines = await readLastLines(this.path, size, limit);
    const out: string[] = [];
    for (const line of lines) {
      const text = parseHistoryLine(line);
      if (text !== null) out.push(text);
    }
    return out;
  }

  private startSize(): Promise<number> {
    this.sizeAtStart ??= fileSize(this.path);
    return this.sizeAtStart;
  }
}

export function parseHistoryLine(line: string): string | null {
  if (line.trim() === '') return null;
  try {
    const v: unknown = JSON.parse(line);
    if (typeof v === 'object' && v !== null && typeof (v as { text?: unknown }).text === 'string') {
      return (v as { text: string }).text;
    }
  } catch {
    // A line torn by a crash mid-write is skipped.
  }
  return null;
}

async function fileSize(path: string): Promise<number> {
  try {
    const fh = await open(path, 'r');
    try {
      return (await fh.stat()).size;
    } finally {
      await fh.close();
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw err;
  }
}

/** Reads backwards from `size` in chunks until `limit` complete lines are found (or the file start). */
async function readLastLines(path: string, size: number, limit: number): Promise<string[]> {
  const fh = await open(path, 'r');
  try {
    const chunks: Buffer[] = [];
    let pos = size;
    let newlines = 0;
    // limit lines need limit+1 newlines when the tail is newline-terminated and more lines exist before.
    while (pos > 0 && newlines <= limit) {
      const len = Math.min(TAIL_CHUNK_BYTES, pos);
      pos -= len;
      const buf = Buffer.alloc(len);
      await fh.read(buf, 0, len, pos);
      chunks.unshift(buf);
      for (const b of buf) if (b === 0x0a) newlines++;
    }
    const lines = Buffer.concat(chunks).toString('utf8').split('\n');
    // When we stopped mid-file, the first piece is a partial line.
    if (pos > 0) lines.shift();
    const complete = lines.filter((l) => l !== '');
    return complete.slice(-limit);
  } finally {
    await fh.close();
  }
}
