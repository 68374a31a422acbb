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

/** The parsed data of each event of `body`, in order, up to `[DONE]` or its end. */
export async function* sseEvents(body: ReadableStream<Uint8Array> | null): AsyncGenerator<unknown> {
  if (body === null) throw new Error('the response has no body');
  const decoder = new TextDecoder();
  const reader = body.getReader();
  let event: Pending = { data: [], hasEvent: false };
  // The line read so far, in pieces: a long one (a whole answer in response.completed) arrives over
  // many reads and is joined once, when its end comes.
  let partial: string[] = [];
  // A read that ended with CR: a LF starting the next one belongs to it (CRLF).
  let afterCr = false;
  try {
    for (;;) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (error) {
        // Aborted by the caller: the stream just ends, as the SDK's does.
        if (isAbort(error)) return;
        throw error;
      }
      // An event the body ends inside, without its blank line, is dropped (as the SDK drops it).
      if (chunk.done) return;
      let text = decoder.decode(chunk.value, { stream: true });
      if (afterCr && text.startsWith('\n')) text = text.slice(1);
      afterCr = text.endsWith('\r');
      if (text === '') continue;
      const lines = text.split(LINE_END);
      const last = lines.pop()!;
      if (lines.length === 0) {
        partial.push(last);
        continue;
      }
      lines[0] = partial.join('') + lines[0]!;
      partial = [last];
      for (const line of lines) {
        if (!field(line, event)) continue;
        const data = event.data.join('\n');
        event = { data: [], hasEvent: false };
        if (data.startsWith('[DONE]')) return;
        const parsed: unknown = JSON.parse(data);
        if (typeof parsed === 'object' && parsed !== null && (parsed as { error?: unknown }).error)
          throw new StreamEventError((parsed as { error: unknown }).error);
        yield parsed;
      }
    }
  } finally {
    reader.releaseLock();
  }
}
