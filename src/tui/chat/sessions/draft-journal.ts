/**
 * The draft journal: what is typed and not yet sent (composer/draft-snapshot.ts) is kept under
 * `$TILLER_HOME/drafts/`, so a crash, `kill -9` or a closed terminal loses at most the last ~250 ms of
 * typing.
 *
 * Files: `thread-<id>.json` once the thread has had a turn; before that `cwd-<hash of the cwd>-<pid>.json`,
 * one per process, so two Tillers in one directory never overwrite each other, and the draft of one
 * that is gone is taken over by the next launch there. A change arms one write 250 ms later (changes
 * meanwhile join it), done with async fs by atomic replace (temp file, fsync, rename), so no keystroke
 * waits for the disk; nothing unsent removes the file. At exit `close()` writes once synchronously.
 * Attachments in the temporary directory (clipboard PNGs) are copied to `attachments/<sha256>.<ext>`
 * and the journal points at the copy, which outlives /tmp cleanup.
 *
 * Trouble never stops the session: a journal that cannot be written warns once; a file that cannot be
 * read warns and is kept as `<file>.corrupt` (one from a newer Tiller is left as it is).
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, statSync, unlinkSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, stat, unlink, utimes } from 'node:fs/promises';
import path from 'node:path';
import { errorMessage } from '../../../error-message.js';
import { isEmpty } from '../../composer/draft.js';
import {
  attachmentPaths,
  decodeDraftDocument,
  DRAFT_DOCUMENT_VERSION,
  DraftDocumentError,
  encodeDraftDocument,
  hasUnsentInput,
  unsentInputOf,
  withAttachmentPaths,
  type DraftDocument,
} from '../../composer/draft-snapshot.js';
import type { ComposerState } from '../../composer/state.js';
import type { ChatState, ChatStore } from '../../store.js';
import type { Schedule } from '../turn/delta-buffer.js';
import { processAlive } from '../../../runtime/process-alive.js';
import { writeDurably, writeDurablySync } from './durable-write.js';

/** A change is on disk at most this long after it was made. */
export const JOURNAL_DELAY_MS = 250;
/** Unreferenced attachment copies and temp files of an interrupted write older than this are removed at launch. */
const LEFTOVER_AGE_MS = 60 * 60 * 1000;

/** What the chat controller asks of the journal (draft-restore.ts). */
export interface DraftJournalPort {
  loadForCwd(): Promise<CwdDrafts>;
  /** A resumed or forked thread's saved input; from then on the thread's file is this session's. */
  loadForThread(threadId: string): Promise<DraftDocument | null>;
}

export interface CwdDrafts {
  /** The unsent input of an earlier Tiller in this directory that had no turn yet, now taken over. */
  document: DraftDocument | null;
  /** Threads begun in this directory whose unsent input is kept for their resume. */
  keptThreads: string[];
}

export interface DraftJournalOptions {
  /** TILLER_HOME: the journal is its `drafts/` directory. */
  home: string;
  cwd: string;
  store: ChatStore;
  schedule: Schedule;
  now: () => number;
  /** The temporary directory: attachments inside it are copied into the journal. */
  tmpDir: string;
  /** A warning for the user (the journal cannot be written; a file cannot be read). */
  warn: (text: string) => void;
  pid?: number;
  isAlive?: (pid: number) => boolean;
}

interface Plan {
  file: string;
  doc: DraftDocument | null;
}

type ReadResult = { doc: DraftDocument; mtimeMs: number } | { missing: true } | { error: DraftDocumentError };

const sha256 = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex');

export function cwdDraftPrefix(cwd: string): string {
  return `cwd-${sha256(cwd).slice(0, 16)}-`;
}

export function threadDraftFile(dir: string, threadId: string): string {
  const safe = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$/.test(threadId) ? threadId : sha256(threadId).slice(0, 32);
  return path.join(dir, `thread-${safe}.json`);
}

/** The notice for drafts kept with threads begun here (a plain launch does not put them in a new thread). */
export function keptThreadsNotice(ids: readonly string[]): string {
  if (ids.length === 1) return `An unsent draft is kept with session ${ids[0]}: tiller resume ${ids[0]} brings it back.`;
  return `Unsent drafts are kept with ${ids.length} sessions begun here (${ids.join(', ')}): tiller resume <id> brings one back.`;
}

function isInside(dir: string, file: string): boolean {
  const rel = path.relative(dir, file);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}

const ignoreMissing = (error: unknown): void => {
  if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
};

export class DraftJournal implements DraftJournalPort {
  private readonly dir: string;
  private readonly copiesDir: string;
  private readonly pid: number;
  private readonly isAlive: (pid: number) => boolean;
  private readonly cwdFile: string;
  private unsubscribe: (() => void) | null = null;
  private cancelTimer: (() => void) | null = null;
  private writes: Promise<void> = Promise.resolve();
  private closed = false;
  /** What close() wrote: put back if an async write already under way lands after it. */
  private finalPlan: Plan | null = null;
  private warned = false;
  /** The content of `lastFile` as last written, to skip writing it again unchanged. */
  private lastBody: string | null = null;
  /** The folder was made by an earlier save: a save while typing is then one file's write, no mkdir. */
  private dirMade = false;
  private lastFile: string | null = null;
  /** Files that may hold this session's unsent input (written here or taken over): one survives a write. */
  private readonly present = new Set<string>();
  private readonly threadsWithTurns = new Set<string>();
  /** The draft Ctrl+C just emptied, while its quit hint may follow in the next update. */
  private clearing: ComposerState | null = null;
  /** A draft emptied by Ctrl+C is kept while the composer stays empty: Ctrl+C Ctrl+C quits without losing it. */
  private cleared: ComposerState | null = null;
  /** Copies of temporary attachments by path, with the size and mtime they were made from; used once the file is gone too. */
  private readonly copies = new Map<string, { version: string; copy: string }>();
  private tempSeq = 0;

  constructor(private readonly opts: DraftJournalOptions) {
    this.dir = path.join(opts.home, 'drafts');
    this.copiesDir = path.join(this.dir, 'attachments');
    this.pid = opts.pid ?? process.pid;
    this.isAlive = opts.isAlive ?? processAlive;
    this.cwdFile = path.join(this.dir, `${cwdDraftPrefix(opts.cwd)}${this.pid}.json`);
  }

  /** Follows the store from now on. */
  start(): void {
    this.unsubscribe ??= this.opts.store.subscribe(this.onChange);
  }

  /** Resolves when the writes started so far are done. */
  idle(): Promise<void> {
    return this.writes;
  }

  /** Stops following the store and writes what is unsent once, synchronously (exit paths). Safe to call twice. */
  close(): void {
    if (this.closed) return;
    this.cancelTimer?.();
    this.cancelTimer = null;
    this.unsubscribe?.();
    this.unsubscribe = null;
    this.closed = true;
    try {
      this.finalPlan = this.plan();
      this.saveSync(this.finalPlan);
    } catch (error) {
      this.failed(error);
    }
  }

  async loadForCwd(): Promise<CwdDrafts> {
    const names = await readdir(this.dir).catch(() => [] as string[]);
    const prefix = cwdDraftPrefix(this.opts.cwd);
    const read = await Promise.all(
      names.filter((n) => n.endsWith('.json')).map(async (name) => ({ name, result: await this.read(path.join(this.dir, name)) })),
    );
    let best: { file: string; doc: DraftDocument; mtimeMs: number } | null = null;
    const keptThreads: string[] = [];
    const referenced = new Set<string>();
    let allRead = true;
    for (const { name, result } of read) {
      const file = path.join(this.dir, name);
      if ('missing' in result) continue;
      if ('error' in result) {
        allRead = false;
        if (name.startsWith(prefix)) await this.setAside(file, result.error);
        continue;
      }
      const { doc } = result;
      for (const p of attachmentPaths(doc)) referenced.add(p);
      if (doc.cwd !== this.opts.cwd || !this.ownerGone(doc.pid)) continue;
      if (name.startsWith(prefix) && (best === null || result.mtimeMs > best.mtimeMs)) best = { file, doc, mtimeMs: result.mtimeMs };
      if (name.startsWith('thread-') && doc.threadId !== null) keptThreads.push(doc.threadId);
    }
    if (best !== null) this.present.add(best.file);
    // A copy an unreadable journal may point at is kept.
    if (allRead) this.writes = this.writes.then(() => this.removeLeftovers(referenced));
    return { document: best?.doc ?? null, keptThreads };
  }

  async loadForThread(threadId: string): Promise<DraftDocument | null> {
    this.threadsWithTurns.add(threadId);
    const file = threadDraftFile(this.dir, threadId);
    const result = await this.read(file);
    if ('missing' in result) return null;
    if ('error' in result) {
      await this.setAside(file, result.error);
      return null;
    }
    this.present.add(file);
    return result.doc;
  }

  // ---- following the store ----------------------------------------------------------------------

  private readonly onChange = (s: ChatState, prev: ChatState): void => {
    if (s.activeTurn !== null && s.threadId !== null) this.threadsWithTurns.add(s.threadId);
    this.trackClear(s, prev);
    const changed =
      s.composer !== prev.composer ||
      s.pendingSteers !== prev.pendingSteers ||
      s.rejectedSteers !== prev.rejectedSteers ||
      s.queued !== prev.queued ||
      s.threadId !== prev.threadId ||
      s.activeTurn !== prev.activeTurn;
    if (changed) this.writeSoon();
  };

  /**
   * Ctrl+C empties a draft and shows the quit hint, in the next update or (input read as one batch) in
   * the same one; nothing else does both.
   */
  private trackClear(s: ChatState, prev: ChatState): void {
    const candidate = this.clearing;
    this.clearing = null;
    const hintShown = s.quitHint !== null && s.quitHint !== prev.quitHint;
    if (s.composer !== prev.composer && !isEmpty(s.composer)) this.cleared = null;
    else if (s.composer !== prev.composer && !isEmpty(prev.composer)) {
      this.cleared = hintShown ? prev.composer : null;
      if (!hintShown) this.clearing = prev.composer;
      return;
    }
    if (candidate !== null && hintShown) this.cleared = candidate;
  }

  private writeSoon(): void {
    if (this.cancelTimer !== null || this.closed) return;
    this.cancelTimer = this.opts.schedule(() => {
      this.cancelTimer = null;
      this.writes = this.writes.then(() => this.save());
    }, JOURNAL_DELAY_MS);
  }

  private plan(): Plan {
    const s = this.opts.store.getState();
    const threadId = s.threadId !== null && this.threadsWithTurns.has(s.threadId) ? s.threadId : null;
    const file = threadId !== null ? threadDraftFile(this.dir, threadId) : this.cwdFile;
    const composer =
      this.cleared !== null
        ? { ...this.cleared, stash: s.composer.stash, vimEnabled: s.composer.vimEnabled, vim: s.composer.vim }
        : s.composer;
    const unsent = unsentInputOf(composer, s);
    if (!hasUnsentInput(unsent)) return { file, doc: null };
    return { file, doc: { version: DRAFT_DOCUMENT_VERSION, cwd: this.opts.cwd, threadId, pid: this.pid, ...unsent } };
  }

  // ---- writing -----------------------------------------------------------------------------------

  private async save(): Promise<void> {
    if (this.closed) return;
    const plan = this.plan();
    let temp: string | null = null;
    try {
      if (plan.doc === null) return await this.removePresent(null);
      const body = encodeDraftDocument(await this.withCopies(plan.doc));
      if (body === this.lastBody && plan.file === this.lastFile) return;
      temp = this.tempFor(plan.file);
      await this.writeInDir(temp, body);
      if (this.closed) return await unlink(temp).catch(() => undefined);
      await rename(temp, plan.file);
      temp = null;
      if (this.closed) {
        // close() wrote while this write was under way: what it wrote wins.
        this.present.add(plan.file);
        this.lastBody = null;
        this.saveFinal();
        return;
      }
      this.lastBody = body;
      this.lastFile = plan.file;
      await this.removePresent(plan.file);
    } catch (error) {
      if (temp !== null) await unlink(temp).catch(() => undefined);
      this.failed(error);
    }
  }

  /** Writes `file` in the journal's folder, made on the first save and again should it have gone. */
  private async writeInDir(file: string, body: string): Promise<void> {
    if (this.dirMade) {
      try {
        return await writeDurably(file, body);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    }
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    this.dirMade = true;
    await writeDurably(file, body);
  }

  private saveSync(plan: Plan): void {
    if (plan.doc === null) {
      for (const file of this.takePresent(null)) {
        try {
          unlinkSync(file);
        } catch (error) {
          ignoreMissing(error);
        }
      }
      return;
    }
    const body = encodeDraftDocument(this.withCopiesSync(plan.doc));
    if (body === this.lastBody && plan.file === this.lastFile) return;
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const temp = this.tempFor(plan.file);
    writeDurablySync(temp, body);
    renameSync(temp, plan.file);
    this.lastBody = body;
    this.lastFile = plan.file;
    for (const file of this.takePresent(plan.file)) {
      try {
        unlinkSync(file);
      } catch (error) {
        ignoreMissing(error);
      }
    }
  }

  private saveFinal(): void {
    if (this.finalPlan === null) return;
    try {
      this.saveSync(this.finalPlan);
    } catch (error) {
      this.failed(error);
    }
  }

  /** The files to remove now that `keep` (or nothing) holds this session's input. */
  private takePresent(keep: string | null): string[] {
    const others = [...this.present].filter((f) => f !== keep);
    this.present.clear();
    if (keep !== null) this.present.add(keep);
    else {
      this.lastBody = null;
      this.lastFile = null;
    }
    return others;
  }

  private async removePresent(keep: string | null): Promise<void> {
    for (const file of this.takePresent(keep)) await unlink(file).catch(ignoreMissing);
  }

  private tempFor(file: string): string {
    return path.join(path.dirname(file), `.${path.basename(file)}.${this.pid}.${++this.tempSeq}.tmp`);
  }

  private failed(error: unknown): void {
    if (this.warned) return;
    this.warned = true;
    this.opts.warn(
      `Your unsent draft cannot be saved (${errorMessage(error)}); the session goes on, but a crash would lose what is typed.`,
    );
  }

  // ---- attachment copies -------------------------------------------------------------------------

  private temporary(doc: DraftDocument): string[] {
    return [...new Set(attachmentPaths(doc))].filter((p) => isInside(this.opts.tmpDir, p) && !isInside(this.dir, p));
  }

  private copyName(bytes: Buffer, source: string): string {
    const ext = path.extname(source).toLowerCase();
    return path.join(this.copiesDir, `${sha256(bytes)}${/^\.[a-z0-9]{1,8}$/.test(ext) ? ext : ''}`);
  }

  /** The document pointing at copies of its temporary attachments; one that is gone keeps its path. */
  private async withCopies(doc: DraftDocument): Promise<DraftDocument> {
    const moved = new Map<string, string>();
    for (const source of this.temporary(doc)) {
      const known = this.copies.get(source);
      const info = await stat(source).catch(() => null);
      const version = info === null ? null : `${info.size}:${info.mtimeMs}`;
      let copy = known !== undefined && (version === null || version === known.version) ? known.copy : undefined;
      if (copy === undefined && version !== null) {
        const bytes = await readFile(source).catch(() => null);
        if (bytes === null) continue;
        copy = this.copyName(bytes, source);
        const now = new Date(this.opts.now());
        // Already there (the same image again): touched, so no launch takes it for a leftover.
        const there = await utimes(copy, now, now).then(
          () => true,
          () => false,
        );
        if (!there) {
          await mkdir(this.copiesDir, { recursive: true, mode: 0o700 });
          const temp = this.tempFor(copy);
          await writeDurably(temp, bytes);
          await rename(temp, copy);
        }
        this.copies.set(source, { version, copy });
      }
      if (copy !== undefined) moved.set(source, copy);
    }
    return withAttachmentPaths(doc, moved);
  }

  private withCopiesSync(doc: DraftDocument): DraftDocument {
    const moved = new Map<string, string>();
    for (const source of this.temporary(doc)) {
      const known = this.copies.get(source);
      let version: string | null = null;
      let bytes: Buffer | null = null;
      try {
        const info = statSync(source);
        version = `${info.size}:${info.mtimeMs}`;
        if (known?.version !== version) bytes = readFileSync(source);
      } catch {
        // Gone: the copy made earlier, if any, stands for it.
      }
      let copy = bytes === null ? known?.copy : undefined;
      if (bytes !== null && version !== null) {
        copy = this.copyName(bytes, source);
        mkdirSync(this.copiesDir, { recursive: true, mode: 0o700 });
        const temp = this.tempFor(copy);
        writeDurablySync(temp, bytes);
        renameSync(temp, copy);
        this.copies.set(source, { version, copy });
      }
      if (copy !== undefined) moved.set(source, copy);
    }
    return withAttachmentPaths(doc, moved);
  }

  // ---- reading -----------------------------------------------------------------------------------

  private ownerGone(pid: number): boolean {
    // The same pid as ours is an earlier run's (containers hand out the same pids again).
    return pid === this.pid || !this.isAlive(pid);
  }

  private async read(file: string): Promise<ReadResult> {
    let text: string;
    let mtimeMs: number;
    try {
      text = await readFile(file, 'utf8');
      mtimeMs = (await stat(file)).mtimeMs;
    } catch {
      return { missing: true };
    }
    try {
      return { doc: decodeDraftDocument(text), mtimeMs };
    } catch (error) {
      return { error: error instanceof DraftDocumentError ? error : new DraftDocumentError(errorMessage(error)) };
    }
  }

  private async setAside(file: string, error: DraftDocumentError): Promise<void> {
    if (error.newerVersion) {
      this.opts.warn(`The unsent draft in ${file} was saved by a newer Tiller (${error.message}); it is left as it is.`);
      return;
    }
    const aside = `${file}.corrupt`;
    const kept = await rename(file, aside).then(
      () => true,
      () => false,
    );
    this.opts.warn(`The unsent draft in ${file} cannot be read (${error.message})${kept ? `; it is kept as ${aside}` : ''}.`);
  }

  /** Attachment copies no journal points at, and temp files of writes a crash interrupted, once they are old. */
  private async removeLeftovers(referenced: ReadonlySet<string>): Promise<void> {
    const cutoff = this.opts.now() - LEFTOVER_AGE_MS;
    const sweep = async (dir: string, leftover: (name: string) => boolean): Promise<void> => {
      const names = await readdir(dir).catch(() => [] as string[]);
      for (const name of names) {
        const file = path.join(dir, name);
        if (!leftover(name) || referenced.has(file)) continue;
        const info = await stat(file).catch(() => null);
        if (info !== null && info.isFile() && info.mtimeMs < cutoff) await unlink(file).catch(() => undefined);
      }
    };
    await sweep(this.dir, (name) => name.endsWith('.tmp'));
    await sweep(this.copiesDir, () => true);
  }
}
