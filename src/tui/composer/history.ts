/**
 * Composer history (docs/codex-parity.md#history-navigation): Up/Down over this session's submissions (full drafts: text,
 * elements, attachments, pending pastes) and older sessions' submissions (text only, from
 * `$TILLER_HOME/history.jsonl`), plus Ctrl+R reverse search over both.
 *
 * Index space: persistent entries come first (oldest), then local entries; the newest is last.
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
  entry: T;
  /** Index in the combined history (persistent first, then local). */
  index: number;
  /** UTF-16 index of the match in entry.text. */
  matchStart: number;
}

interface SearchSession<T> {
  draft: T;
  query: string;
  match: SearchMatch<T> | null;
}

export class ChatComposerHistory<T extends HistoryEntryLike = HistoryEntry> {
  private persistent: string[];
  private local: T[] = [];
  /** Index of the entry being shown while browsing; null when not browsing. */
  private cursor: number | null = null;
  /** Text of the last recalled entry: Up/Down keep navigating only while the composer still shows it. */
  private lastHistoryText: string | null = null;
  private search: SearchSession<T> | null = null;
  private readonly fromText: (text: string) => T;

  constructor(opts: HistoryOptions<T>) {
    this.fromText = opts.fromText;
    this.persistent = opts.persistent ? [...opts.persistent] : [];
  }

  /** Older sessions' texts, oldest first; arrives asynchronously after start-up. */
  setPersistentEntries(texts: readonly string[]): void {
    this.persistent = [...texts];
    this.resetNavigation();
  }

  get length(): number {
    return this.persistent.length + this.local.length;
  }

  /** Records a submitted (or Ctrl+C-cleared) draft. Empty drafts and consecutive duplicates are skipped. */
  recordLocalSubmission(entry: T): void {
    this.resetNavigation();
    if (entry.text === '' && (entry.attachments?.length ?? 0) === 0) return;
    const last = this.local[this.local.length - 1];
    if (last !== undefined && deepEqual(last, entry)) return;
    this.local.push(entry);
  }

  resetNavigation(): void {
    this.cursor = null;
    this.lastHistoryText = null;
  }

  isBrowsing(): boolean {
    return this.cursor !== null;
  }

  /**
   * Whether Up/Down should navigate history rather than move the cursor: there is history, and the
   * composer is empty, or it still shows the last recalled entry with the cursor at its start or end.
   */
  shouldHandleNavigation(text: string, cursor: number, cursorUnit: 'byte' | 'utf16' = 'byte'): boolean {
    if (this.length === 0) return false;
    if (text === '') return true;
    const end = cursorUnit === 'byte' ? Buffer.byteLength(text, 'utf8') : text.length;
    if (cursor !== 0 && cursor !== end) return false;
    return this.lastHistoryText === text;
  }

  /** Up: the next older entry, or null when there is none (at the oldest, the view stays put). */
  navigateUp(): T | null {
    const total = this.length;
    if (total === 0) return null;
    let next: number;
    if (this.cursor === null) next = total - 1;
    else if (this.cursor === 0) return null;
    else next = this.cursor - 1;
    return this.showAt(next);
  }

  /** Down: the next newer entry; past the newest, an empty draft and browsing ends. Null when not browsing. */
  navigateDown(): T | null {
    if (this.cursor === null) return null;
    if (this.cursor + 1 >= this.length) {
      this.resetNavigation();
      return this.fromText('');
    }
    return this.showAt(this.cursor + 1);
  }

  entryAt(index: number): T | null {
    if (index < 0 || index >= this.length) return null;
    if (index < this.persistent.length) return this.fromText(this.persistent[index] ?? '');
    return this.local[index - this.persistent.length] ?? null;
  }

  // --- Ctrl+R reverse search -------------------------------------------------------------------

  isSearching(): boolean {
    return this.search !== null;
  }

  searchQuery(): string {
    return this.search?.query ?? '';
  }

  currentSearchMatch(): SearchMatch<T> | null {
    return this.search?.match ?? null;
  }

  /** Ctrl+R: begins a search, remembering the draft to restore on Esc. */
  startSearch(draft: T): void {
    this.resetNavigation();
    this.search = { draft, query: '', match: null };
  }

  /** The query changed: the newest entry containing it (case-insensitive). */
  setSearchQuery(query: string): SearchMatch<T> | null {
    if (this.search === null) return null;
    const match = query === '' ? null : this.findMatch(query, this.length - 1, null);
    this.search = { ...this.search, query, match };
    return match;
  }

  /**
   * Repeated Ctrl+R: the next older match whose text differs from the current one. With no older
   * match the current match stays (null is returned so the caller can signal it).
   */
  searchOlder(): SearchMatch<T> | null {
    const s = this.search;
    if (s === null || s.query === '') return null;
    const from = s.match === null ? this.length - 1 : s.match.index - 1;
    const match = this.findMatch(s.query, from, s.match?.entry.text ?? null);
    if (match !== null) this.search = { ...s, match };
    return match;
  }

  /** Ctrl+S: the next newer match whose text differs from the current one. */
  searchNewer(): SearchMatch<T> | null {
    const s = this.search;
    if (s === null || s.query === '' || s.match === null) return null;
    const q = s.query.toLowerCase();
    for (let i = s.match.index + 1; i < this.length; i++) {
      const m = this.matchAt(i, q, s.match.entry.text);
      if (m !== null) {
        this.search = { ...s, match: m };
        return m;
      }
    }
    return null;
  }

  /** Enter: ends the search; the matched entry becomes the editable draft (the saved draft if no match). */
  acceptSearch(): T | null {
    const s = this.search;
    if (s === null) return null;
    this.search = null;
    if (s.match === null) return s.draft;
    this.lastHistoryText = s.match.entry.text;
    return s.match.entry;
  }

  /** Esc or Ctrl+C: ends the search and gives back the draft from before it began. */
  cancelSearch(): T | null {
    const s = this.search;
    this.search = null;
    return s?.draft ?? null;
  }

  private findMatch(query: string, from: number, skipText: string | null): SearchMatch<T> | null {
    const q = query.toLowerCase();
    for (let i = Math.min(from, this.length - 1); i >= 0; i--) {
      const m = this.matchAt(i, q, skipText);
      if (m !== null) return m;
    }
    return null;
  }

  private matchAt(i: number, lowerQuery: string, skipText: string | null): SearchMatch<T> | null {
    const text = i < this.persistent.length ? (this.persistent[i] ?? '') : (this.local[i - this.persistent.length]?.text ?? '');
    if (skipText !== null && text === skipText) return null;
    const at = text.toLowerCase().indexOf(lowerQuery);
    if (at < 0) return null;
    const entry = this.entryAt(i);
    return entry === null ? null : { entry, index: i, matchStart: at };
  }

  private showAt(index: number): T | null {
    const entry = this.entryAt(index);
    if (entry === null) return null;
    this.cursor = index;
    this.lastHistoryText = entry.text;
    return entry;
  }
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
