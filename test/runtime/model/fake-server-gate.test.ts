/** The fake server's gates: a scripted stream stops where the test says until the test releases it. */
import { afterEach, describe, expect, it } from 'vitest';
import { FakeResponsesServer } from '../../support/fake-responses-server.js';

let server: FakeResponsesServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

/** Reads a response's SSE body; each `data:` event's type and delta, as they arrive. */
async function readEvents(response: Response, onEvent: (event: { type: string; delta?: string }) => void): Promise<void> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const data = buffer
        .slice(0, end)
        .split('\n')
        .find((line) => line.startsWith('data: '));
      buffer = buffer.slice(end + 2);
      if (data !== undefined) onEvent(JSON.parse(data.slice(6)));
    }
  }
}

const post = (): Promise<Response> => fetch(`${server!.baseUrl}/responses`, { method: 'POST', body: '{"model":"m"}' });

describe('FakeResponsesServer gates', () => {
  it('streams the deltas before the hold, nothing more until release, then the rest', async () => {
    server = await FakeResponsesServer.start();
    const gate = server.gate();
    server.enqueue({ deltas: ['a ', 'b ', 'c'], hold: { gate, afterDeltas: 2 } });
    const seen: string[] = [];
    const done = post().then((response) => readEvents(response, (e) => seen.push(e.delta ?? e.type)));
    await gate.reached();
    // Reaching the gate means everything before it was written; give the client a read to get it.
    await expect.poll(() => seen).toEqual(['response.created', 'response.output_item.added', 'response.content_part.added', 'a ', 'b ']);
    expect(gate.released).toBe(false);
    gate.release();
    await done;
    expect(seen.slice(5)).toEqual([
      'c',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
  });

  it('holds just before response.completed by default, and at several gates in order', async () => {
    server = await FakeResponsesServer.start();
    const first = server.gate();
    const last = server.gate();
    server.enqueue({ deltas: ['x ', 'y'], hold: [{ gate: first, afterDeltas: 0 }, { gate: last }] });
    const seen: string[] = [];
    const done = post().then((response) => readEvents(response, (e) => seen.push(e.delta ?? e.type)));
    await first.reached();
    expect(last.reachedCount).toBe(0);
    first.release();
    await last.reached();
    await expect.poll(() => seen.at(-1)).toBe('response.output_item.done');
    expect(seen).not.toContain('response.completed');
    last.release();
    await done;
    expect(seen.at(-1)).toBe('response.completed');
  });

  it('a client that hangs up ends a held stream; close() releases what is still held', async () => {
    server = await FakeResponsesServer.start();
    const gate = server.gate();
    server.enqueue({ text: 'one two', hold: { gate, afterDeltas: 1 } }, { text: 'next' });
    const abort = new AbortController();
    const response = await fetch(`${server.baseUrl}/responses`, { method: 'POST', body: '{}', signal: abort.signal });
    await gate.reached();
    abort.abort();
    await expect(response.text()).rejects.toThrow();
    // The server is free for the next request while the gate stays closed.
    const next = await (await post()).text();
    expect(next).toContain('"delta":"next"');
    expect(gate.released).toBe(false);
    await server.close();
    server = null;
    expect(gate.released).toBe(true);
  });

  it('refuses a hold past the answer’s last delta when it is enqueued', async () => {
    server = await FakeResponsesServer.start();
    expect(() => server!.enqueue({ deltas: ['only'], hold: { gate: server!.gate(), afterDeltas: 2 } })).toThrow(
      'hold after 2 deltas, but the answer has 1',
    );
  });
});
