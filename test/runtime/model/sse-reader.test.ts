/**
 * The Responses SSE body read as the openai SDK reads it: line ends of every kind, split anywhere
 * between reads; fields, comments, multi-line data; `[DONE]`; an event whose data has `error`; an
 * unterminated last event; an abort ending the stream quietly.
 */
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { sseEvents, StreamEventError } from '../../../src/runtime/model/sse-reader.js';

type Body = ReadableStream<Uint8Array> | Readable;
const bytes = (piece: string | Uint8Array): Uint8Array => (typeof piece === 'string' ? new TextEncoder().encode(piece) : piece);

/** A web body (Node's fetch) or a Node one (http-fetch.ts), each read of it one piece. */
const KINDS: Array<[string, (pieces: Array<string | Uint8Array>) => Body]> = [
  [
    'web stream',
    (pieces) =>
      new ReadableStream({
        start(controller) {
          for (const piece of pieces) controller.enqueue(bytes(piece));
          controller.close();
        },
      }),
  ],
  [
    'Node stream',
    (pieces) => {
      const stream = new Readable({ read() {} });
      for (const piece of pieces) stream.push(Buffer.from(bytes(piece)));
      stream.push(null);
      return stream;
    },
  ],
];

async function all(stream: Body): Promise<unknown[]> {
  const out: unknown[] = [];
  for await (const event of sseEvents(stream)) out.push(event);
  return out;
}

describe.each(KINDS)('sseEvents from a %s', (_kind, body) => {
  /** Every way of cutting `text` in two reads gives the same events. */
  async function everySplit(text: string): Promise<unknown[][]> {
    const encoded = new TextEncoder().encode(text);
    const seen: unknown[][] = [];
    for (let at = 0; at <= encoded.length; at++) seen.push(await all(body([encoded.slice(0, at), encoded.slice(at)])));
    return seen;
  }

  it('reads events with LF, CRLF and CR line ends, however the reads cut them', async () => {
    const text = 'event: a\ndata: {"n":1}\n\r\n: a comment\r\ndata: {"n":\r\ndata: 2}\r\rdata:{"n":"é中"}\n\n';
    // The second event's data is two lines, joined with a newline: `{"n":\n2}`.
    for (const events of await everySplit(text)) expect(events).toEqual([{ n: 1 }, { n: 2 }, { n: 'é中' }]);
  });

  it('stops at [DONE], and drops an event the body ends inside', async () => {
    expect(await all(body(['data: {"a":1}\n\ndata: [DONE]\n\ndata: {"b":2}\n\n']))).toEqual([{ a: 1 }]);
    expect(await all(body(['data: {"a":1}\n\ndata: {"b":2}']))).toEqual([{ a: 1 }]);
  });

  it('throws for data that is no JSON, and a StreamEventError for data with an error', async () => {
    await expect(all(body(['data: {nope\n\n']))).rejects.toBeInstanceOf(SyntaxError);
    const failed = all(body(['data: {"error":{"code":"server_error","message":"boom"}}\n\n']));
    await expect(failed).rejects.toBeInstanceOf(StreamEventError);
    await expect(failed).rejects.toMatchObject({ error: { code: 'server_error', message: 'boom' } });
  });

  it('joins a line that arrives over many reads', async () => {
    const long = 'x'.repeat(100_000);
    const line = `data: {"text":"${long}"}\n\n`;
    const pieces = Array.from({ length: Math.ceil(line.length / 1000) }, (_, i) => line.slice(i * 1000, (i + 1) * 1000));
    expect(await all(body(pieces))).toEqual([{ text: long }]);
  });

  it('ends quietly when the read is aborted', async () => {
    expect(await all(aborted(body))).toEqual([{ a: 1 }]);
  });
});

/** One event, then the read fails as an abort fails it. */
function aborted(body: (pieces: string[]) => Body): Body {
  const abortError = Object.assign(new Error('aborted'), { name: 'AbortError' });
  const sample = body([]);
  if ('getReader' in sample) {
    return new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('data: {"a":1}\n\n'));
      },
      pull(controller) {
        controller.error(abortError);
      },
    });
  }
  const stream = new Readable({ read() {} });
  stream.push('data: {"a":1}\n\n');
  setTimeout(() => stream.destroy(abortError), 10);
  return stream;
}

describe('sseEvents from a Node stream', () => {
  it('a stream that fails after some events gives those events, then its error', async () => {
    const stream = new Readable({ read() {} });
    stream.push('data: {"a":1}\n\ndata: {"b":2}\n\n');
    setTimeout(() => stream.destroy(Object.assign(new Error('aborted'), { code: 'ECONNRESET' })), 10);
    const seen: unknown[] = [];
    await expect(
      (async () => {
        for await (const event of sseEvents(stream)) seen.push(event);
      })(),
    ).rejects.toMatchObject({ code: 'ECONNRESET' });
    expect(seen).toEqual([{ a: 1 }, { b: 2 }]);
  });

  it('pauses the stream while many events wait for a slow reader, and takes them all', async () => {
    // Five reads of 600 events each, as a socket delivers them: one a turn of the event loop.
    const chunks = Array.from({ length: 5 }, (_, c) => Array.from({ length: 600 }, (_, n) => `data: {"n":${c * 600 + n}}\n\n`).join(''));
    const stream = new Readable({
      read() {
        setImmediate(() => this.push(chunks.shift() ?? null));
      },
    });
    const events = sseEvents(stream);
    expect((await events.next()).value).toEqual({ n: 0 });
    // The reader is busy: the next chunks are parsed meanwhile, and past 1,024 waiting events the stream stops.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(stream.isPaused()).toBe(true);
    const rest: unknown[] = [];
    for await (const event of events) rest.push(event);
    expect(rest).toEqual(Array.from({ length: 2999 }, (_, n) => ({ n: n + 1 })));
  });
});
