/** The Anthropic wire's client against the fake Messages server: the request on the wire, streaming, errors as the retry layers need them. */
import { createServer, type RequestListener } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { isAbortedError } from '../../../src/runtime/model/errors.js';
import { ModelError, type ModelClient, type ModelEvent, type ModelRequest } from '../../../src/runtime/model/types.js';
import { wireById } from '../../../src/runtime/model/wires/index.js';
import { FAKE_ANTHROPIC_MODELS, FakeAnthropicServer } from '../../support/fake-anthropic-server.js';
import { helloRequest } from '../support/model-request.js';

let server: FakeAnthropicServer;

beforeAll(async () => {
  server = await FakeAnthropicServer.start();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.requests.length = 0;
});

function client(baseUrl = server.baseUrl, idleTimeoutMs = 5000): ModelClient {
  return wireById('anthropic').create({ label: 'anthropic', baseUrl, apiKey: 'sk-ant-test-key', idleTimeoutMs });
}

async function collect(
  request: ModelRequest = helloRequest('claude-x'),
  c = client(),
): Promise<{ events: ModelEvent[]; error: ModelError | null }> {
  const events: ModelEvent[] = [];
  try {
    for await (const event of c.stream(request, new AbortController().signal)) events.push(event);
    return { events, error: null };
  } catch (error) {
    if (!(error instanceof ModelError)) throw error;
    return { events, error };
  }
}

/** Runs `body` against a one-off HTTP server on 127.0.0.1 answering with `handler`; its base URL ends in /v1. */
async function withServer(handler: RequestListener, body: (baseUrl: string) => Promise<void>): Promise<void> {
  const other = createServer(handler);
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
  try {
    await body(`http://127.0.0.1:${(other.address() as { port: number }).port}/v1`);
  } finally {
    other.closeAllConnections();
    await new Promise<void>((resolve) => other.close(() => resolve()));
  }
}

describe('the Anthropic Messages client', () => {
  it('posts to base_url + /messages with x-api-key and anthropic-version, never Authorization', async () => {
    server.enqueue({ text: 'hi' });
    const { events, error } = await collect();
    expect(error).toBeNull();
    const [recorded] = server.requests;
    expect(recorded!.path).toBe('/messages');
    expect(recorded!.headers['x-api-key']).toBe('sk-ant-test-key');
    expect(recorded!.headers['anthropic-version']).toBe('2023-06-01');
    expect(recorded!.headers.authorization).toBeUndefined();
    expect(recorded!.body).toMatchObject({ model: 'claude-x', stream: true, messages: [{ role: 'user' }] });
    expect(events.map((e) => e.type)).toEqual(['created', 'output_item_added', 'output_text_delta', 'output_item_done', 'completed']);
  });

  it("sends the provider's http_headers and query_params, and its own version header over a configured one", async () => {
    server.enqueue({ text: 'hi' });
    const configured = wireById('anthropic').create({
      label: 'gateway',
      baseUrl: server.baseUrl,
      apiKey: 'sk-ant-test-key',
      idleTimeoutMs: 5000,
      headers: { 'x-team': 'tools', 'anthropic-version': '1999-01-01' },
      queryParams: { 'api-version': '7' },
    });
    const { error } = await collect(helloRequest('claude-x'), configured);
    expect(error).toBeNull();
    const [recorded] = server.requests;
    expect(recorded!.path).toBe('/messages');
    expect(recorded!.query).toBe('api-version=7');
    expect(recorded!.headers['x-team']).toBe('tools');
    expect(recorded!.headers['anthropic-version']).toBe('2023-06-01');
  });

  it('streams thinking, text and parallel tool calls with their whole arguments', async () => {
    server.enqueue({
      thinking: { text: 'plan it', signature: 'SIG' },
      text: 'Running both.',
      toolUses: [
        { name: 'exec_command', input: { cmd: 'ls' } },
        { name: 'exec_command', input: { cmd: 'git status --short' } },
      ],
    });
    const { events } = await collect();
    const items = events.flatMap((e) => (e.type === 'output_item_done' ? [e.item.type] : []));
    expect(items).toEqual(['reasoning', 'message', 'function_call', 'function_call']);
    const calls = events.flatMap((e) => (e.type === 'output_item_done' && e.item.type === 'function_call' ? [e.item.arguments] : []));
    expect(calls.map((a) => JSON.parse(a))).toEqual([{ cmd: 'ls' }, { cmd: 'git status --short' }]);
  });

  it('fails a 429 as retryable with its Retry-After, and a 529 and a 500 as retryable server errors', async () => {
    server.enqueue(
      { fault: { kind: 'status', status: 429, type: 'rate_limit_error', message: 'Number of requests exceeded', retryAfter: '7' } },
      { fault: { kind: 'status', status: 529, type: 'overloaded_error', message: 'Overloaded' } },
      { fault: { kind: 'status', status: 500, type: 'api_error', message: 'Internal server error' } },
    );
    const limited = (await collect()).error!;
    expect(limited).toMatchObject({
      retryable: true,
      retryAfterMs: 7000,
      info: { responseStreamConnectionFailed: { httpStatusCode: 429 } },
    });
    expect(limited.message).toContain('Number of requests exceeded');
    expect((await collect()).error).toMatchObject({ retryable: true, info: { responseStreamConnectionFailed: { httpStatusCode: 529 } } });
    expect((await collect()).error).toMatchObject({ retryable: true, info: { responseStreamConnectionFailed: { httpStatusCode: 500 } } });
  });

  it("retries a gateway's own 502 page, which is no Anthropic error body", async () => {
    await withServer(
      (_req, res) => {
        res.writeHead(502, { 'content-type': 'text/html' });
        res.end('<html>Bad gateway</html>');
      },
      async (base) => {
        const { error } = await collect(helloRequest('claude-x'), client(base));
        expect(error).toMatchObject({ retryable: true, info: { responseStreamConnectionFailed: { httpStatusCode: 502 } } });
      },
    );
  });

  it('does not retry a bad key, a prompt over the window or an empty credit balance', async () => {
    server.enqueue(
      { fault: { kind: 'status', status: 401, type: 'authentication_error', message: 'invalid x-api-key' } },
      {
        fault: {
          kind: 'status',
          status: 400,
          type: 'invalid_request_error',
          message: 'prompt is too long: 210000 tokens > 200000 maximum',
        },
      },
      {
        fault: {
          kind: 'status',
          status: 400,
          type: 'invalid_request_error',
          message: 'Your credit balance is too low to access the Anthropic API.',
        },
      },
    );
    expect((await collect()).error).toMatchObject({ retryable: false, info: 'unauthorized' });
    expect((await collect()).error).toMatchObject({ retryable: false, info: 'contextWindowExceeded' });
    expect((await collect()).error).toMatchObject({ retryable: false, info: 'usageLimitExceeded' });
  });

  it('fails an overloaded error event mid-stream and a dropped stream as retryable', async () => {
    server.enqueue(
      { text: 'partial answer', fault: { kind: 'error', type: 'overloaded_error', message: 'Overloaded' } },
      { text: 'a b c', fault: { kind: 'drop', afterEvents: 4 } },
    );
    const overloaded = await collect();
    expect(overloaded.events[0]).toEqual({ type: 'created', responseId: expect.stringMatching(/^msg_/) });
    expect(overloaded.error).toMatchObject({
      message: 'Overloaded',
      retryable: true,
      info: { responseStreamDisconnected: { httpStatusCode: null } },
    });
    const dropped = await collect();
    expect(dropped.events.some((e) => e.type === 'output_text_delta')).toBe(true);
    expect(dropped.error).toMatchObject({ retryable: true, info: { responseStreamDisconnected: { httpStatusCode: null } } });
  });

  it('fails a server that goes silent after the headers with the idle timeout, retryably', async () => {
    await withServer(
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(': hello\n\n');
      },
      async (base) => {
        const { error } = await collect(helloRequest('claude-x'), client(base, 150));
        expect(error).toMatchObject({ retryable: true, message: 'idle timeout waiting for SSE' });
      },
    );
  });

  it('names the URL when nothing listens there, retryably', async () => {
    const { error } = await collect(helloRequest('claude-x'), client('http://127.0.0.1:9/v1'));
    expect(error).toMatchObject({ retryable: true, info: { httpConnectionFailed: { httpStatusCode: null } } });
    expect(error!.message).toContain('http://127.0.0.1:9/v1/messages');
  });

  it('ends promptly with the aborted error when the caller aborts mid-stream', async () => {
    await withServer(
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(`event: message_start\ndata: ${JSON.stringify({ type: 'message_start', message: { id: 'msg_a', usage: {} } })}\n\n`);
      },
      async (base) => {
        const controller = new AbortController();
        const iterator = client(base).stream(helloRequest('claude-x'), controller.signal)[Symbol.asyncIterator]();
        expect((await iterator.next()).value).toEqual({ type: 'created', responseId: 'msg_a' });
        const next = iterator.next();
        controller.abort();
        await expect(next).rejects.toSatisfy(isAbortedError);
      },
    );
  });

  it('says to check base_url when the URL answers a web page, and does not retry it', async () => {
    await withServer(
      (req, res) => {
        res.writeHead(req.url === '/v1/messages' ? 200 : 404, { 'content-type': 'text/html' });
        res.end('<html><body>Welcome</body></html>');
      },
      async (base) => {
        for (const url of [base, base.slice(0, -'/v1'.length)]) {
          const { error } = await collect(helloRequest('claude-x'), client(url));
          expect(error).toMatchObject({ retryable: false, info: 'other' });
          expect(error!.message).toContain(`${url}/messages answered HTTP`);
          expect(error!.message).toContain('base_url');
        }
        // Through the wire, as create.ts makes it: the message names the provider's config key.
        const named = wireById('anthropic').create({
          label: 'anthropic',
          baseUrl: base,
          apiKey: 'sk-ant-test-key',
          idleTimeoutMs: 5000,
          baseUrlKey: 'model_providers.claude.base_url',
        });
        const { error } = await collect(helloRequest('claude-x'), named);
        expect(error!.message).toContain('check model_providers.claude.base_url (it ends in /v1');
      },
    );
  });

  it('lists the models from GET /models', async () => {
    const models = await client().listModels!();
    expect(models.map((m) => m.id)).toEqual(FAKE_ANTHROPIC_MODELS);
  });
});
