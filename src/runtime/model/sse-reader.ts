import type { Readable } from 'node:stream';

/**
 * The events of a Responses SSE body, read as the `openai` SDK's Stream reads them (lines ended by
 * LF, CRLF or CR; `event:` and `data:` fields, comments skipped, data lines joined; `[DONE]` ends
 * it; each data a JSON object; one with an `error` field fails the stream) but in one pass over
 * decoded text. The SDK copies every byte read so far into a new buffer for each chunk and runs
 * each event through three async generators: for an answer of 10,000 deltas that was a third of
 * the client's CPU.
 */

/** An event whose data carries an `error` object, as the SDK's APIError without a status. */
export class StreamEventError extends Error {
  constructor(readonly error: unknown) {
    super('the stream sent an error');
  }
}

/** The fields of one event so far. */
interface Pending {
  data: string[];
  hasEvent: boolean;
}

function isAbort(error: unknown): boolean {
  return (error as { name?: unknown } | null)?.name === 'AbortError';
}

/**
 * One field line into `event`; true when the line was blank and ended an event that had fields.
 */
function field(line: string, event: Pending): boolean {
  if (line === '') return event.hasEvent || event.data.length > 0;
  if (line.startsWith(':')) return false;
  const colon = line.indexOf(':');
  const name = colon < 0 ? line : line.slice(0, colon);
  let value = colon < 0 ? '' : line.slice(colon + 1);
  if (value.startsWith(' ')) value = value.slice(1);
  if (name === 'event') event.hasEvent = true;
  else if (name === 'data') event.data.push(value);
  return false;
}

const LINE_END = /\r\n|\r|\n/u;

/** Decoded text in, the parsed data of each complete event out; `done` once `[DONE]` came. */
class SseParser {
  done = false;
  private event: Pending = { data: [], hasEvent: false };
  // The line read so far, in pieces: a long one (a whole answer in response.completed) arrives over
  // many reads and is joined once, when its end comes.
  private partial: string[] = [];
  // A read that ended with CR: a LF starting the next one belongs to it (CRLF).
  private afterCr = false;

  /** Appends the events `piece` completes to `out`; throws for data that is no JSON or has an error. */
  feed(piece: string, out: unknown[]): void {
    if (this.done) return;
    let text = piece;
    if (this.afterCr && text.startsWith('\n')) text = text.slice(1);
    this.afterCr = text.endsWith('\r');
    if (text === '') return;
    const lines = text.split(LINE_END);
    const last = lines.pop()!;
    if (lines.length === 0) {
      this.partial.push(last);
      return;
    }
    lines[0] = this.partial.join('') + lines[0]!;
    this.partial = [last];
    for (const line of lines) {
      if (!field(line, this.event)) continue;
      const data = this.event.data.join('\n');
      this.event = { data: [], hasEvent: false };
      if (data.startsWith('[DONE]')) {
        this.done = true;
        return;
      }
      const parsed: unknown = JSON.parse(data);
      if (typeof parsed === 'object' && parsed !== null && (parsed as { error?: unknown }).error)
        throw new StreamEventError((parsed as { error: unknown }).error);
      out.push(parsed);
    }
  }
}

/**
 * The parsed data of each event of `body`, in order, up to `[DONE]` or its end (an event the body
 * ends inside, without its blank line, is dropped, as the SDK drops it). An abort just ends it, as
 * the SDK's stream does. A Node stream (http-fetch.ts) is read as it is, without a web stream's
 * promise per chunk; everything one chunk completes comes out of one wait.
 */
export async function* sseEvents(body: ReadableStream<Uint8Array> | Readable | null): AsyncGenerator<unknown> {
  if (body === null) throw new Error('the response has no body');
  yield* 'getReader' in body ? webEvents(body) : nodeEvents(body);
}

async function* webEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<unknown> {
  const decoder = new TextDecoder();
  const parser = new SseParser();
  const reader = body.getReader();
  try {
    while (!parser.done) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (error) {
        if (isAbort(error)) return;
        throw error;
      }
      if (chunk.done) return;
      const events: unknown[] = [];
      parser.feed(decoder.decode(chunk.value, { stream: true }), events);
      yield* events;
    }
  } finally {
    reader.releaseLock();
  }
}

/** Parsed events waiting for the consumer past this many: the stream pauses until they are taken. */
const QUEUE_HIGH_WATER = 1024;

async function* nodeEvents(body: Readable): AsyncGenerator<unknown> {
  const parser = new SseParser();
  let queue: unknown[] = [];
  let failure = null as { error: unknown } | null;
  let ended = false;
  let wake: (() => void) | null = null;
  const notify = (): void => {
    const w = wake;
    wake = null;
    w?.();
  };
  const onData = (text: string): void => {
    try {
      parser.feed(text, queue);
    } catch (error) {
      failure = { error };
    }
    if (queue.length >= QUEUE_HIGH_WATER) body.pause();
    notify();
  };
  const onEnd = (): void => {
    ended = true;
    notify();
  };
  const onError = (error: unknown): void => {
    if (!isAbort(error)) failure ??= { error };
    onEnd();
  };
  body.setEncoding('utf8');
  body.on('data', onData);
  body.once('end', onEnd);
  body.once('close', onEnd);
  body.once('error', onError);
  try {
    for (;;) {
      if (queue.length > 0) {
        const batch = queue;
        queue = [];
        if (body.isPaused()) body.resume();
        yield* batch;
        continue;
      }
      // What came before a failure is delivered first.
      if (failure !== null) throw failure.error;
      if (ended || parser.done) return;
      await new Promise<void>((resolve) => (wake = resolve));
    }
  } finally {
    body.off('data', onData);
    body.off('end', onEnd);
    body.off('close', onEnd);
    // onError stays: the stream may still fail once nobody reads it (the exchange aborted after the
    // last event), and an error event with no listener would end the process.
  }
}
