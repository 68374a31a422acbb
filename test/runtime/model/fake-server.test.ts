import { afterEach, describe, expect, it } from 'vitest';
import { FakeResponsesServer } from '../../support/fake-responses-server.js';

let server: FakeResponsesServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

async function post(path: string, body: unknown): Promise<{ status: number; text: string }> {
  const response = await fetch(`${server!.baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, text: await response.text() };
}

const dataLines = (sse: string): any[] =>
  sse
    .split('\n')
    .filter((l) => l.startsWith('data: '))
    .map((l) => JSON.parse(l.slice(6)));

describe('FakeResponsesServer', () => {
  it('answers "ok" when nothing is queued, then the default set later', async () => {
    server = await FakeResponsesServer.start();
    const first = dataLines((await post('/responses', { model: 'm' })).text);
    expect(first.find((e) => e.type === 'response.output_text.done').text).toBe('ok');
    server.setDefault({ text: 'changed default' });
    const second = dataLines((await post('/responses', { model: 'm' })).text);
    expect(second.find((e) => e.type === 'response.output_text.done').text).toBe('changed default');
  });

  it('frames events as `event: <type>` + `data: <json>` in protocol order with increasing sequence numbers', async () => {
    server = await FakeResponsesServer.start();
    server.enqueue({ deltas: ['a', 'b'], endTurn: false });
    const { text } = await post('/responses', { model: 'm' });
    expect(text.startsWith('event: response.created\ndata: {')).toBe(true);
    const events = dataLines(text);
    expect(events.map((e) => e.type)).toEqual([
      'response.created',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(events.map((e) => e.sequence_number)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    expect(events.at(-1).response.end_turn).toBe(false);
  });

  it('serves the queue in order and records every request', async () => {
    server = await FakeResponsesServer.start();
    server.enqueue({ text: 'one' }, { text: 'two' });
    const a = dataLines((await post('/responses', { n: 1 })).text);
    const b = dataLines((await post('/responses', { n: 2 })).text);
    expect(a.at(-1).response.output[0].content[0].text).toBe('one');
    expect(b.at(-1).response.output[0].content[0].text).toBe('two');
    const recorded = await server.waitForRequests(2);
    expect(recorded.map((r) => r.body)).toEqual([{ n: 1 }, { n: 2 }]);
  });

  it('computes answers with a responder when one is set', async () => {
    server = await FakeResponsesServer.start();
    server.respondWith((request) => ({ text: `echo ${request.body.n}` }));
    const events = dataLines((await post('/responses', { n: 7 })).text);
    expect(events.find((e) => e.type === 'response.output_text.done').text).toBe('echo 7');
  });

  it('answers unknown routes with 404', async () => {
    server = await FakeResponsesServer.start();
    expect((await post('/chat/completions', {})).status).toBe(404);
  });

  it('rejects waitForRequests when too few requests arrive in time', async () => {
    server = await FakeResponsesServer.start();
    await expect(server.waitForRequests(1, 20)).rejects.toThrow('expected 1 requests, got 0');
  });

  it('closes while a stalled stream is still open', async () => {
    server = await FakeResponsesServer.start();
    server.enqueue({ text: 'x y', fault: { kind: 'stall', afterEvents: 2 } });
    const response = await fetch(`${server.baseUrl}/responses`, { method: 'POST', body: '{}' });
    expect(response.status).toBe(200);
    await server.close();
    server = null;
    await expect(response.text()).rejects.toThrow();
  });
});
