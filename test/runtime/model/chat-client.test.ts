/** The chat wire through the real `openai` SDK against the fake Chat Completions server. */
import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ModelError, type ModelClient, type ModelEvent, type ModelRequest } from '../../../src/runtime/model/types.js';
import { createChatClient, toolsRejectedNotice } from '../../../src/runtime/model/wires/chat/client.js';
import { FakeChatServer } from '../../support/fake-chat-server.js';
import { helloRequest } from '../support/model-request.js';

let server: FakeChatServer;
beforeAll(async () => {
  server = await FakeChatServer.start();
});
afterAll(async () => {
  await server.close();
});

function client(
  options: { headers?: Record<string, string>; queryParams?: Record<string, string>; baseURL?: string; baseUrlKey?: string } = {},
): ModelClient {
  return createChatClient({
    label: 'fake',
    baseURL: options.baseURL ?? server.baseUrl,
    apiKey: 'sk-chat-test',
    idleTimeoutMs: 5000,
    env: {},
    ...options,
  });
}

async function collect(c: ModelClient, request: ModelRequest = helloRequest('fake-chat')): Promise<ModelEvent[]> {
  const events: ModelEvent[] = [];
  for await (const event of c.stream(request, new AbortController().signal)) events.push(event);
  return events;
}

async function failure(c: ModelClient): Promise<ModelError> {
  try {
    await collect(c);
  } catch (error) {
    expect(error).toBeInstanceOf(ModelError);
    return error as ModelError;
  }
  throw new Error('the stream did not fail');
}

const SHELL = { type: 'function' as const, name: 'shell', description: 'Runs', strict: false, parameters: { type: 'object' } };

describe('chat wire over the SDK', () => {
  it('posts to base_url + /chat/completions with a Bearer key, the provider headers and query params, asking for usage', async () => {
    server.enqueue({ text: 'hello back', usage: { prompt_tokens: 7, completion_tokens: 2 } });
    const before = server.requests.length;
    const events = await collect(client({ headers: { 'X-Team': 'tools' }, queryParams: { 'api-version': '1' } }));
    const recorded = server.requests[before]!;
    expect(recorded.url).toBe('/v1/chat/completions?api-version=1');
    expect(recorded.headers.authorization).toBe('Bearer sk-chat-test');
    expect(recorded.headers['x-team']).toBe('tools');
    expect(recorded.body).toMatchObject({ model: 'fake-chat', stream: true, stream_options: { include_usage: true } });
    expect(recorded.body.messages).toEqual([{ role: 'user', content: 'hello' }]);
    expect(
      events
        .filter((e) => e.type === 'output_text_delta')
        .map((e) => (e as { delta: string }).delta)
        .join(''),
    ).toBe('hello back');
    expect(events.at(-1)).toMatchObject({ type: 'completed', usage: { input_tokens: 7, output_tokens: 2, total_tokens: 9 } });
  });

  it('streamed parallel tool calls and reasoning_content come through whole', async () => {
    server.enqueue({
      reasoning: ['Two ', 'commands.'],
      toolCalls: [
        { name: 'shell', arguments: { command: ['ls'] }, id: 'a' },
        { name: 'shell', arguments: { command: ['pwd'] }, id: 'b' },
      ],
    });
    const events = await collect(client(), { ...helloRequest('fake-chat'), tools: [SHELL], parallel_tool_calls: true });
    expect(server.requests.at(-1)!.body).toMatchObject({ parallel_tool_calls: true, tool_choice: 'auto' });
    const items = events.flatMap((e) => (e.type === 'output_item_done' ? [e.item] : []));
    expect(items).toEqual([
      {
        type: 'reasoning',
        id: expect.any(String),
        summary: [],
        content: [{ type: 'reasoning_text', text: 'Two commands.' }],
        encrypted_content: 'chat-reasoning:',
      },
      { type: 'function_call', call_id: 'a', name: 'shell', arguments: '{"command":["ls"]}' },
      { type: 'function_call', call_id: 'b', name: 'shell', arguments: '{"command":["pwd"]}' },
    ]);
  });

  it('429 with Retry-After is retryable with its delay; a 5xx is retryable; a 401 is not', async () => {
    server.enqueue({ fault: { kind: 'status', status: 429, retryAfter: '3' } });
    const limited = await failure(client());
    expect(limited).toMatchObject({ retryable: true, retryAfterMs: 3000 });
    server.enqueue({ fault: { kind: 'status', status: 503 } });
    expect(await failure(client())).toMatchObject({ retryable: true, info: { responseStreamConnectionFailed: { httpStatusCode: 503 } } });
    server.enqueue({ fault: { kind: 'status', status: 401, message: 'bad key' } });
    expect(await failure(client())).toMatchObject({ retryable: false, info: 'unauthorized' });
  });

  it('a stream dropped before its finish_reason, or an error chunk, fails retryably (the stream retry layer)', async () => {
    server.enqueue({ text: 'one two three four', fault: { kind: 'drop', afterChunks: 3 } });
    expect(await failure(client())).toMatchObject({ retryable: true, info: { responseStreamDisconnected: { httpStatusCode: null } } });
    server.enqueue({ text: 'partial', fault: { kind: 'errorChunk', code: 'server_error', message: 'upstream went away' } });
    expect(await failure(client())).toMatchObject({ retryable: true, message: 'upstream went away' });
  });

  it('a base URL that answers HTML instead of a stream says to check base_url, by its key', async () => {
    const html = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>hi</html>');
    });
    await new Promise<void>((resolve) => html.listen(0, '127.0.0.1', resolve));
    const port = (html.address() as { port: number }).port;
    try {
      const error = await failure(client({ baseURL: `http://127.0.0.1:${port}` }));
      expect(error.message).toBe(
        `http://127.0.0.1:${port}/chat/completions answered text/html, not a stream: check base_url (it ends in /v1)`,
      );
      const named = await failure(client({ baseURL: `http://127.0.0.1:${port}`, baseUrlKey: 'model_providers.local.base_url' }));
      expect(named.message).toContain('not a stream: check model_providers.local.base_url (it ends in /v1)');
      expect(error.retryable).toBe(false);
    } finally {
      html.close();
    }
  });

  it("a bare 404 (a web server's, not the API's error) names the key of the wrong URL; an API's 404 keeps its own words", async () => {
    const notFound = createServer((req, res) => {
      if (req.url?.startsWith('/api/')) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: 'model "nope" not found, try pulling it first', type: 'api_error' } }));
        return;
      }
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('404 page not found');
    });
    await new Promise<void>((resolve) => notFound.listen(0, '127.0.0.1', resolve));
    const port = (notFound.address() as { port: number }).port;
    try {
      const key = 'model_providers.local.base_url';
      const wrong = await failure(client({ baseURL: `http://127.0.0.1:${port}/v2`, baseUrlKey: key }));
      expect(wrong.message).toBe(`http://127.0.0.1:${port}/v2/chat/completions answered 404 Not Found: check ${key} (it ends in /v1)`);
      expect(wrong.retryable).toBe(false);
      const model = await failure(client({ baseURL: `http://127.0.0.1:${port}/api/v1`, baseUrlKey: key }));
      expect(model.message).toContain('model "nope" not found');
      expect(model.message).not.toContain(key);
    } finally {
      notFound.close();
    }
  });

  it('a provider that refuses tools: said once, then every request runs without them', async () => {
    server.refuseTools();
    try {
      const c = client();
      const request = { ...helloRequest('fake-chat'), tools: [SHELL] };
      server.enqueue({ text: 'no tools here' }, { text: 'still none' });
      const before = server.requests.length;
      const first = await collect(c, request);
      const text = first
        .filter((e) => e.type === 'output_text_delta')
        .map((e) => (e as { delta: string }).delta)
        .join('');
      expect(text).toBe('no tools here');
      expect(first.filter((e) => e.type === 'notice')).toEqual([{ type: 'notice', message: toolsRejectedNotice('fake') }]);
      const second = await collect(c, request);
      expect(
        second
          .filter((e) => e.type === 'output_text_delta')
          .map((e) => (e as { delta: string }).delta)
          .join(''),
      ).toBe('still none');
      // The refused request, its retry without tools, and the next request without them.
      expect(server.requests.slice(before).map((r) => 'tools' in r.body)).toEqual([true, false, false]);
    } finally {
      server.refuseTools(false);
    }
  });
});
