import { createServer } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeResponsesServer } from '../../support/fake-responses-server.js';
import { createSdkModelClient } from '../../../src/runtime/model/wires/responses/client.js';
import { isAbortedError } from '../../../src/runtime/model/errors.js';
import { encodeSse } from '../../../src/runtime/model/wires/responses/sse-events.js';
import { ModelError, type ModelEvent, type ModelRequest } from '../../../src/runtime/model/types.js';

let server: FakeResponsesServer;

beforeAll(async () => {
  server = await FakeResponsesServer.start();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.requests.length = 0;
});

function request(overrides: Partial<ModelRequest> = {}): ModelRequest {
  return {
    model: 'test-model',
    input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hello' }] }],
    tools: [
      {
        type: 'function',
        name: 'shell',
        description: 'Runs a shell command.',
        strict: false,
        parameters: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] },
      },
    ],
    tool_choice: 'auto',
    parallel_tool_calls: false,
    store: false,
    stream: true,
    include: [],
    prompt_cache_key: 'thread-1',
    ...overrides,
  };
}

function client(idleTimeoutMs = 5000) {
  return createSdkModelClient({ label: '127.0.0.1', baseURL: server.baseUrl, apiKey: 'dummy', idleTimeoutMs });
}

async function collect(stream: AsyncIterable<ModelEvent>): Promise<{ events: ModelEvent[]; error: ModelError | null }> {
  const events: ModelEvent[] = [];
  try {
    for await (const event of stream) events.push(event);
    return { events, error: null };
  } catch (error) {
    if (!(error instanceof ModelError)) throw error;
    return { events, error };
  }
}

describe('SDK model client against the fake Responses server', () => {
  it('streams deltas in order and completes with usage and end_turn', async () => {
    server.enqueue({ deltas: ['Hel', 'lo', ', world'], endTurn: true, usage: { input_tokens: 42, output_tokens: 3 } });
    const { events, error } = await collect(client().stream(request(), new AbortController().signal));
    expect(error).toBeNull();
    expect(events[0]).toEqual({ type: 'created', responseId: 'resp_fake_1' });
    const deltas = events.filter((e) => e.type === 'output_text_delta').map((e) => (e as { delta: string }).delta);
    expect(deltas).toEqual(['Hel', 'lo', ', world']);
    const done = events.find((e) => e.type === 'output_item_done');
    expect(done).toMatchObject({ item: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Hello, world' }] } });
    expect(events.at(-1)).toEqual({
      type: 'completed',
      responseId: 'resp_fake_1',
      usage: {
        input_tokens: 42,
        cached_input_tokens: 0,
        cache_write_input_tokens: 0,
        output_tokens: 3,
        reasoning_output_tokens: 0,
        total_tokens: 45,
      },
      endTurn: true,
    });
  });

  it('reports an absent end_turn as null', async () => {
    server.enqueue({ text: 'hi' });
    const { events } = await collect(client().stream(request(), new AbortController().signal));
    expect(events.at(-1)).toMatchObject({ type: 'completed', endTurn: null });
  });

  it('delivers a function call as output_item_done with call_id, name and arguments', async () => {
    server.enqueue({ functionCall: { name: 'shell', arguments: { command: 'ls -la' }, callId: 'call_7' } });
    const { events, error } = await collect(client().stream(request(), new AbortController().signal));
    expect(error).toBeNull();
    const done = events.filter((e) => e.type === 'output_item_done');
    expect(done).toHaveLength(1);
    expect(done[0]).toMatchObject({
      item: { type: 'function_call', call_id: 'call_7', name: 'shell', arguments: '{"command":"ls -la"}' },
    });
  });

  it('sends the Responses request body the core built', async () => {
    server.enqueue({ text: 'ok' });
    await collect(client().stream(request(), new AbortController().signal));
    const [recorded] = await server.waitForRequests(1);
    expect(recorded!.body).toMatchObject({
      model: 'test-model',
      input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hello' }] }],
      tools: [{ type: 'function', name: 'shell' }],
      tool_choice: 'auto',
      parallel_tool_calls: false,
      store: false,
      stream: true,
      prompt_cache_key: 'thread-1',
    });
    expect(recorded!.headers.authorization).toBe('Bearer dummy');
  });

  it('never sends the stream options to a server: neither in the body nor in a header', async () => {
    server.enqueue({ text: 'ok' });
    const textElements = [{ text: 'see [Image #1]', textElements: [{ byte_range: { start: 4, end: 14 }, placeholder: '[Image #1]' }] }];
    await collect(client().stream(request(), new AbortController().signal, { turnId: 'turn-7', textElements }));
    const [recorded] = await server.waitForRequests(1);
    expect(JSON.stringify(recorded!.body)).not.toContain('Image #1');
    expect(JSON.stringify(recorded!.body)).not.toContain('turn-7');
    expect(JSON.stringify(recorded!.headers)).not.toContain('Image #1');
    expect(JSON.stringify(recorded!.headers)).not.toContain('turn-7');
    expect(Object.keys(recorded!.headers).filter((h) => h.startsWith('x-tiller'))).toEqual([]);
  });

  it('times out retryably when the server never sends response headers', async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const address = silent.address() as { port: number };
    try {
      const stuck = createSdkModelClient({ label: 'x', baseURL: `http://127.0.0.1:${address.port}/v1`, apiKey: 'k', idleTimeoutMs: 150 });
      const { error } = await collect(stuck.stream(request(), new AbortController().signal));
      expect(error).toMatchObject({ retryable: true, info: { httpConnectionFailed: { httpStatusCode: null } } });
    } finally {
      silent.closeAllConnections();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  it('maps HTTP 500 to a retryable error carrying the status', async () => {
    server.enqueue({ fault: { kind: 'status', status: 500 } });
    const { error } = await collect(client().stream(request(), new AbortController().signal));
    expect(error).toMatchObject({ retryable: true, info: { responseStreamConnectionFailed: { httpStatusCode: 500 } } });
    expect(error!.message).toContain('500');
  });

  it('takes a 429 Retry-After in seconds as the retry delay', async () => {
    server.enqueue({ fault: { kind: 'status', status: 429, retryAfter: '2' } });
    const { error } = await collect(client().stream(request(), new AbortController().signal));
    expect(error).toMatchObject({ retryable: true, retryAfterMs: 2000 });
  });

  it('maps 400 to a non-retryable badRequest', async () => {
    server.enqueue({ fault: { kind: 'status', status: 400, body: { error: { message: 'bad input', type: 'invalid_request_error' } } } });
    const { error } = await collect(client().stream(request(), new AbortController().signal));
    expect(error).toMatchObject({ retryable: false, info: 'badRequest' });
    expect(error!.message).toContain('bad input');
  });

  it('maps 401 and 403 to a non-retryable unauthorized, 404 to other', async () => {
    for (const [status, info] of [
      [401, 'unauthorized'],
      [403, 'unauthorized'],
      [404, 'other'],
    ] as const) {
      server.enqueue({ fault: { kind: 'status', status } });
      const { error } = await collect(client().stream(request(), new AbortController().signal));
      expect(error).toMatchObject({ retryable: false, info });
    }
  });

  it('maps a 429 insufficient_quota body to a non-retryable usage limit', async () => {
    server.enqueue({ fault: { kind: 'status', status: 429, body: { error: { message: 'quota', code: 'insufficient_quota' } } } });
    const { error } = await collect(client().stream(request(), new AbortController().signal));
    expect(error).toMatchObject({ retryable: false, info: 'usageLimitExceeded' });
  });

  it('treats a connection dropped mid-stream as retryable "stream closed before response.completed"', async () => {
    server.enqueue({ text: 'one two three four', fault: { kind: 'drop', afterEvents: 4 } });
    const { events, error } = await collect(client().stream(request(), new AbortController().signal));
    expect(events.map((e) => e.type)).toContain('output_text_delta');
    expect(error).toMatchObject({
      message: 'stream closed before response.completed',
      retryable: true,
      info: { responseStreamDisconnected: { httpStatusCode: null } },
    });
  });

  it('treats a stream that ends cleanly without response.completed as closed early', async () => {
    const partial = encodeSse({ type: 'response.created', sequence_number: 0, response: { id: 'r1' } });
    const endsEarly = createSdkModelClient({
      label: 'x',
      baseURL: 'http://in-process.test/v1',
      apiKey: 'k',
      idleTimeoutMs: 5000,
      fetch: async () => new Response(partial, { status: 200, headers: { 'content-type': 'text/event-stream' } }),
    });
    const { events, error } = await collect(endsEarly.stream(request(), new AbortController().signal));
    expect(events).toEqual([{ type: 'created', responseId: 'r1' }]);
    expect(error).toMatchObject({ message: 'stream closed before response.completed', retryable: true, additionalDetails: null });
  });

  it('treats a malformed event as retryable', async () => {
    server.enqueue({ text: 'one two', fault: { kind: 'malformed', afterEvents: 3 } });
    const { error } = await collect(client().stream(request(), new AbortController().signal));
    expect(error).toMatchObject({ message: 'failed to parse SSE event', retryable: true });
  });

  it('times out a stalled stream after the idle timeout, retryably', async () => {
    server.enqueue({ text: 'one two', fault: { kind: 'stall', afterEvents: 3 } });
    const { events, error } = await collect(client(200).stream(request(), new AbortController().signal));
    expect(events.length).toBeGreaterThan(0);
    expect(error).toMatchObject({ message: 'idle timeout waiting for SSE', retryable: true });
  });

  it('maps response.failed context_length_exceeded to a non-retryable contextWindowExceeded', async () => {
    server.enqueue({ fault: { kind: 'failed', code: 'context_length_exceeded', message: 'too long' } });
    const { error } = await collect(client().stream(request(), new AbortController().signal));
    expect(error).toMatchObject({ retryable: false, info: 'contextWindowExceeded' });
  });

  it('maps other response.failed codes to retryable errors with the delay the message names', async () => {
    server.enqueue({ fault: { kind: 'failed', code: 'rate_limit_exceeded', message: 'Rate limit reached. Please try again in 1.5s.' } });
    const { error } = await collect(client().stream(request(), new AbortController().signal));
    expect(error).toMatchObject({ retryable: true, retryAfterMs: 1500 });
  });

  it('maps a refused connection to a retryable httpConnectionFailed', async () => {
    const closed = await FakeResponsesServer.start();
    const baseURL = closed.baseUrl;
    await closed.close();
    const refused = createSdkModelClient({ label: 'x', baseURL, apiKey: 'dummy', idleTimeoutMs: 5000 });
    const { error } = await collect(refused.stream(request(), new AbortController().signal));
    expect(error).toMatchObject({ retryable: true, info: { httpConnectionFailed: { httpStatusCode: null } } });
  });

  it('stops the iterator promptly when the signal aborts mid-stream', async () => {
    server.enqueue({ text: 'one two three', fault: { kind: 'stall', afterEvents: 4 } });
    const controller = new AbortController();
    const events: ModelEvent[] = [];
    let caught: unknown = null;
    try {
      for await (const event of client(60_000).stream(request(), controller.signal)) {
        events.push(event);
        if (event.type === 'output_text_delta') controller.abort();
      }
    } catch (error) {
      caught = error;
    }
    expect(events.filter((e) => e.type === 'output_text_delta')).toHaveLength(1);
    expect(isAbortedError(caught)).toBe(true);
  });

  it('ends a stream waiting on a silent server as soon as the signal aborts', async () => {
    server.enqueue({ text: 'one two', fault: { kind: 'stall', afterEvents: 2 } });
    const controller = new AbortController();
    const pending = collect(client(60_000).stream(request(), controller.signal));
    await server.waitForRequests(1);
    setTimeout(() => controller.abort(), 20);
    const { error } = await pending;
    expect(error).not.toBeNull();
    expect(isAbortedError(error)).toBe(true);
  });

  it('refuses to start when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const { error } = await collect(client().stream(request(), controller.signal));
    expect(isAbortedError(error)).toBe(true);
    expect(server.requests).toHaveLength(0);
  });
});
