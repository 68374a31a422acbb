/**
 * The Responses SSE body read as the openai SDK reads it: line ends of every kind, split anywhere
 * between reads; fields, comments, multi-line data; `[DONE]`; an event whose data has `error`; an
 * unterminated last event; an abort ending the stream quietly.
 */
import { describe, expect, it } from 'vitest';
import { sseEvents, StreamEventError } from '../../../src/runtime/model/sse-reader.js';

function body(pieces: Array<string | Uint8Array>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const piece of pieces) controller.enqueue(typeof piece === 'string' ? encoder.encode(piece) : piece);
      controller.close();
    },
  });
}

async function all(stream: ReadableStream<Uint8Array>): Promise<unknown[]> {
  const out: unknown[] = [];
  for await (const event of sseEvents(stream)) out.push(event);
  return out;
}

/** Every way of cutting `text` in two reads gives the same events. */
async function everySplit(text: string): Promise<unknown[][]> {
  const bytes = new TextEncoder().encode(text);
  const seen: unknown[][] = [];
  for (let at = 0; at <= bytes.length; at++) seen.push(await all(body([bytes.slice(0, at), bytes.slice(at)])));
  return seen;
}

describe('sseEvents', () => {
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
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('data: {"a":1}\n\n'));
      },
      pull(controller) {
        controller.error(Object.assign(new Error('aborted'), { name: 'AbortError' }));
      },
    });
    expect(await all(stream)).toEqual([{ a: 1 }]);
  });
});
