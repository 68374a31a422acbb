/**
 * Reads a rollout line by line, a chunk at a time (a 100 MiB file is never held as text, and no
 * array of its lines is built), into a RolloutReducer. A torn last line (a crash mid-write) and lines that
 * are not records are skipped with a warning; a file of a format version this Tiller does not know
 * is refused with a message saying so. A deferred read (a resume) leaves history and item lines
 * unparsed, as places in the file (see lazy.ts).
 */
import { checkLine, ROLLOUT_VERSION, type RolloutHeader, type RolloutLine } from './format.js';
import { deferrable, LineRef } from './lazy.js';
import { forEachLineBytes } from './lines.js';
import { type DeferredSnapshot, type ReplayStop, RolloutReducer, type ThreadSnapshot } from './reducer.js';
import type { RolloutSource, RolloutTail } from './source.js';

/** The file cannot be resumed at all (not a rollout, a newer format, unreadable). */
export class RolloutReadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RolloutReadError';
  }
}

export interface ReadResult<S = ThreadSnapshot> {
  snapshot: S;
  warnings: string[];
  /** Whether a `stop` turn was found (true when there was no stop). */
  reached: boolean;
  tail: RolloutTail;
}

/** Warnings about single lines beyond this many are summed up in one. */
const MAX_LINE_WARNINGS = 5;

class LineFeed {
  reducer: RolloutReducer | null = null;
  error: RolloutReadError | null = null;
  private lineNo = 0;
  private skipped = 0;
  private readonly lineWarnings: string[] = [];
  tornBytes = 0;
  unterminated = false;

  constructor(
    private readonly name: string,
    private readonly stop: ReplayStop | null,
    private readonly deferred = false,
  ) {}

  get finished(): boolean {
    return this.error !== null || (this.reducer?.done ?? false);
  }

  /** A line's bytes at `offset`; `terminated`: a newline ends it (only a last line can lack one, and so be torn). */
  pushBytes(bytes: Buffer, offset: number, terminated: boolean): void {
    if (this.finished) return;
    const reducer = this.reducer;
    if (this.deferred && reducer !== null && terminated) {
      const line = deferrable(bytes);
      // History lines are read until the first user message gave the preview.
      if (line !== null && (line.kind === 'item' || reducer.hasPreview)) {
        this.lineNo++;
        const ref = new LineRef(offset, bytes.length);
        if (line.kind === 'item') reducer.itemRef(line.turnId!, ref);
        else reducer.historyRef(line.turnId, ref);
        return;
      }
    }
    this.pushText(bytes.toString('utf8'), terminated);
  }

  pushText(text: string, terminated: boolean): void {
    if (this.finished) return;
    this.lineNo++;
    this.process(text, terminated);
  }

  end(): void {
    if (this.error === null && this.reducer === null) this.error = new RolloutReadError(`${this.name} is empty`);
  }

  private process(text: string, terminated: boolean): void {
    if (text.trim().length === 0) return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      if (this.reducer === null) {
        this.error = new RolloutReadError(`${this.name} is not a Tiller session (its first line is not a header)`);
      } else if (!terminated) {
        this.tornBytes = Buffer.byteLength(text);
        this.warn(`the last line (${this.tornBytes} bytes) was cut off, likely by a crash, and was skipped`, true);
      } else this.warn(`line ${this.lineNo} is not valid JSON and was skipped`);
      return;
    }
    const checked = checkLine(value);
    if (this.reducer === null) this.start(checked.ok ? checked.line : null);
    else if (!checked.ok) this.warn(`line ${this.lineNo} holds ${checked.problem} and was skipped`);
    else this.reducer.apply(checked.line);
    if (!terminated && this.error === null) this.unterminated = true;
  }

  private start(line: RolloutLine | null): void {
    if (line === null || line.type !== 'header') {
      this.error = new RolloutReadError(`${this.name} is not a Tiller session (its first line is not a header)`);
      return;
    }
    const header: RolloutHeader = line;
    if (!Number.isInteger(header.version) || header.version < 1 || header.version > ROLLOUT_VERSION) {
      this.error = new RolloutReadError(
        header.version > ROLLOUT_VERSION
          ? `session ${header.threadId} was written by a newer Tiller (format version ${header.version}; this one reads up to ${ROLLOUT_VERSION}): update Tiller to resume it`
          : `session ${header.threadId} has an unknown format version (${String(header.version)})`,
      );
      return;
    }
    this.reducer = new RolloutReducer(header, this.stop, this.deferred);
  }

  private warn(message: string, always = false): void {
    if (always || this.lineWarnings.length < MAX_LINE_WARNINGS) this.lineWarnings.push(message);
    else this.skipped++;
  }

  warnings(): string[] {
    const out = [...this.lineWarnings, ...(this.reducer?.warnings ?? [])];
    if (this.skipped > 0) out.push(`${this.skipped} more unreadable lines were skipped`);
    return out;
  }
}

async function feedFile(path: string, feed: LineFeed): Promise<number> {
  const { size } = await forEachLineBytes(path, (bytes, offset, terminated) => {
    feed.pushBytes(bytes, offset, terminated);
    // Stop reading once the replay has what it needs (a fork, a refused header).
    return !feed.finished;
  });
  feed.end();
  return size;
}

async function feedSource(source: RolloutSource, feed: LineFeed): Promise<number> {
  if (source.kind === 'memory') {
    for (const text of source.lines) {
      feed.pushText(text, true);
      if (feed.finished) break;
    }
    feed.end();
    return 0;
  }
  try {
    return await feedFile(source.path, feed);
  } catch (error) {
    throw new RolloutReadError(`${source.path} cannot be read: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
}

function sourceName(source: RolloutSource): string {
  return source.kind === 'file' ? source.path : 'the session';
}

/** Feeds the source into a reducer (to its end, or to `stop`); throws RolloutReadError when it cannot be read at all. */
async function replay(
  source: RolloutSource,
  stop: ReplayStop | null,
  deferred: boolean,
): Promise<{ feed: LineFeed; reducer: RolloutReducer; tail: RolloutTail }> {
  const feed = new LineFeed(sourceName(source), stop, deferred);
  const size = await feedSource(source, feed);
  if (feed.error !== null) throw feed.error;
  return { feed, reducer: feed.reducer!, tail: { size, tornBytes: feed.tornBytes, unterminated: feed.unterminated } };
}

/** Replays a rollout (to its end, or to `stop`). Throws RolloutReadError when it cannot be read at all. */
export async function readRollout(source: RolloutSource, options: { stop?: ReplayStop } = {}): Promise<ReadResult> {
  const { feed, reducer, tail } = await replay(source, options.stop ?? null, false);
  return {
    snapshot: reducer.snapshot(),
    warnings: feed.warnings(),
    reached: options.stop === undefined || reducer.reached || reducer.done,
    tail,
  };
}

/**
 * Replays a rollout file to its end, leaving its history and item lines unread (lazy.ts reads them
 * back). Throws RolloutReadError when it cannot be read at all.
 */
export async function readRolloutDeferred(path: string): Promise<ReadResult<DeferredSnapshot>> {
  const { feed, reducer, tail } = await replay({ kind: 'file', path }, null, true);
  return { snapshot: reducer.deferredSnapshot(), warnings: feed.warnings(), reached: true, tail };
}
