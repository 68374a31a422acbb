/**
 * Writes a thread's rollout: lines are serialized when they happen and buffered; the buffer goes to
 * the file with one async append at turn boundaries and at most ~200 ms after a line, so neither
 * the UI nor the stream ever waits on the disk. A crash loses at most that window; a normal exit
 * (process.exit included) writes what is left synchronously.
 *
 * The file is created with the first line that makes the thread worth one (see isMaterial): a
 * thread that never got a turn leaves nothing. Ephemeral threads keep their lines in memory.
 */
import { closeSync, fstatSync, ftruncateSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { appendFile, type FileHandle, mkdir, open, truncate } from 'node:fs/promises';
import { dirname } from 'node:path';
import { isMaterial, redactedJson, type RolloutLine } from './format.js';
import { acquireLock, type RolloutLock } from './lock.js';
import type { RolloutSource, RolloutTail } from './source.js';

/** At most this long between a line and its write. */
export const FLUSH_INTERVAL_MS = 200;

export interface RolloutSink {
  /** The file, or null for an ephemeral thread. */
  readonly path: string | null;
  /** Whether the thread has a file being written (or, in memory, any material line). */
  readonly materialized: boolean;
  append(line: RolloutLine): void;
  /** Resolves once every line appended so far is written. */
  flush(): Promise<void>;
  /** Flushes, closes the file and releases the lock. */
  close(): Promise<void>;
  source(): RolloutSource;
}

export class MemoryRollout implements RolloutSink {
  readonly path = null;
  private readonly lines: string[] = [];
  materialized = false;

  append(line: RolloutLine): void {
    this.lines.push(JSON.stringify(line));
    if (isMaterial(line)) this.materialized = true;
  }
  async flush(): Promise<void> {}
  async close(): Promise<void> {}
  source(): RolloutSource {
    return { kind: 'memory', lines: this.lines };
  }
}

export interface FileRolloutOptions {
  path: string;
  threadId: string;
  /** A resumed thread: the file exists and the caller holds its lock. */
  existing?: { lock: RolloutLock; size: number };
  /** A write failed (full disk, read-only home): told once; the thread goes on unrecorded. */
  onError?: (error: Error) => void;
  flushIntervalMs?: number;
}

const openWriters = new Set<FileRolloutWriter>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const writer of [...openWriters]) writer.finishSync();
  });
}

export class FileRolloutWriter implements RolloutSink {
  readonly path: string;
  private readonly threadId: string;
  private readonly onError: (error: Error) => void;
  private readonly flushIntervalMs: number;
  private lock: RolloutLock | null;
  private handle: FileHandle | null = null;
  private buffer: string[] = [];
  /** Serialized text handed to the disk and not yet confirmed written. */
  private inflight: string | null = null;
  /** The file's size after every confirmed write. */
  private size: number;
  private wantFile: boolean;
  private timer: NodeJS.Timeout | null = null;
  private chain: Promise<void> = Promise.resolve();
  private failed = false;
  private closed = false;

  constructor(options: FileRolloutOptions) {
    this.path = options.path;
    this.threadId = options.threadId;
    this.onError = options.onError ?? (() => undefined);
    this.flushIntervalMs = options.flushIntervalMs ?? FLUSH_INTERVAL_MS;
    this.lock = options.existing?.lock ?? null;
    this.size = options.existing?.size ?? 0;
    this.wantFile = options.existing !== undefined;
    openWriters.add(this);
    installExitHook();
  }

  get materialized(): boolean {
    return this.wantFile && !this.failed;
  }

  append(line: RolloutLine): void {
    if (this.failed || this.closed) return;
    this.buffer.push(`${redactedJson(line)}\n`);
    if (!this.wantFile && isMaterial(line)) this.wantFile = true;
    if (this.wantFile && this.timer === null) {
      this.timer = setTimeout(() => void this.flush(), this.flushIntervalMs);
      this.timer.unref();
    }
  }

  flush(): Promise<void> {
    if (this.timer !== null) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    this.chain = this.chain.then(() => this.writeOut());
    return this.chain;
  }

  private async writeOut(): Promise<void> {
    if (this.failed || !this.wantFile || this.buffer.length === 0) return;
    try {
      if (this.handle === null) {
        await mkdir(dirname(this.path), { recursive: true, mode: 0o700 });
        this.lock ??= await acquireLock(this.path, this.threadId);
        this.handle = await open(this.path, 'a', 0o600);
      }
      const data = this.buffer.join('');
      this.buffer = [];
      this.inflight = data;
      await this.handle.appendFile(data, 'utf8');
      this.size += Buffer.byteLength(data);
      this.inflight = null;
    } catch (error) {
      this.fail(error);
    }
  }

  private fail(error: unknown): void {
    this.failed = true;
    this.buffer = [];
    this.inflight = null;
    this.onError(error instanceof Error ? error : new Error(String(error)));
  }

  /** Before the file exists, every line is still in the buffer. */
  source(): RolloutSource {
    return this.wantFile ? { kind: 'file', path: this.path } : { kind: 'memory', lines: this.buffer };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await this.flush();
    this.closed = true;
    openWriters.delete(this);
    const handle = this.handle;
    this.handle = null;
    await handle?.close().catch(() => undefined);
    await this.lock?.release();
    this.lock = null;
  }

  /**
   * The process is exiting: writes what is left at once. A write still in flight may or may not
   * have reached the file; its size tells which, so nothing is written twice or lost.
   */
  finishSync(): void {
    openWriters.delete(this);
    if (this.closed) return;
    this.closed = true;
    if (this.timer !== null) clearTimeout(this.timer);
    try {
      const pending = (this.inflight ?? '') + this.buffer.join('');
      if (!this.failed && this.wantFile && pending.length > 0) {
        let fd: number;
        if (this.handle !== null) fd = this.handle.fd;
        else {
          mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
          fd = openSync(this.path, 'a', 0o600);
        }
        let text = pending;
        if (this.inflight !== null) {
          const now = fstatSync(fd).size;
          const inflightBytes = Buffer.byteLength(this.inflight);
          if (now === this.size + inflightBytes) text = this.buffer.join('');
          else if (now !== this.size) ftruncateSync(fd, this.size);
        }
        writeSync(fd, text);
        if (this.handle === null) closeSync(fd);
      }
    } catch {
      // Exiting: nowhere left to report it.
    }
    this.lock?.releaseSync();
  }
}

/**
 * Makes a read rollout ready to be appended to: a torn last line is cut off (it was skipped, and a
 * line appended after it would be torn too), a whole last line without its newline gets one.
 * Returns the file's size. Only the lock's holder may call it.
 */
export async function prepareForAppend(path: string, tail: RolloutTail): Promise<number> {
  if (tail.tornBytes > 0) {
    await truncate(path, tail.size - tail.tornBytes);
    return tail.size - tail.tornBytes;
  }
  if (tail.unterminated) {
    await appendFile(path, '\n');
    return tail.size + 1;
  }
  return tail.size;
}
