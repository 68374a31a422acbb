/**
 * The model client's fetch over node:http, against real servers on 127.0.0.1: what the SDK sends
 * arrives, the answer streams as it is written, aborts and refused connections fail as Node's fetch
 * fails, and connections are kept for the next request.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpFetch } from '../../../src/runtime/model/http-fetch.js';

let server: Server | null = null;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server === null ? resolve() : server.close(() => resolve())));
  server = null;
});

async function serve(
  handler: (req: IncomingMessage, res: ServerResponse, body: string) => void,
): Promise<{ url: string; connections: () => number }> {
  let connections = 0;
  server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => handler(req, res, body));
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', () => resolve()));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  return { url: `http://127.0.0.1:${address.port}`, connections: () => connections };
}

describe('createHttpFetch', () => {
  it('sends the method, headers and body; answers with status, every header and the body', async () => {
    let seen: { method?: string; headers?: IncomingMessage['headers']; body?: string } = {};
    const { url } = await serve((req, res, body) => {
      seen = { method: req.method!, headers: req.headers, body };
      res.writeHead(201, 'Made', [
        ['content-type', 'application/json'],
        ['x-request-id', 'req_1'],
        ['set-cookie', 'a=1'],
        ['set-cookie', 'b=2'],
      ]);
      res.end('{"ok":true}');
    });
    const fetch = createHttpFetch();
    const response = await fetch(`${url}/v1/responses`, {
      method: 'POST',
      headers: new Headers({ authorization: 'Bearer k', 'content-type': 'application/json' }),
      body: '{"input":"héllo"}',
    });
    expect(seen).toMatchObject({ method: 'POST', body: '{"input":"héllo"}' });
    expect(seen.headers).toMatchObject({ authorization: 'Bearer k', 'content-length': String(Buffer.byteLength('{"input":"héllo"}')) });
    expect([response.status, response.statusText, response.ok]).toEqual([201, 'Made', true]);
    expect(response.headers.get('x-request-id')).toBe('req_1');
    expect(response.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    expect(await response.json()).toEqual({ ok: true });
  });

  it('streams the body as the server writes it, before the answer is complete', async () => {
    let finish: () => void = () => undefined;
    const { url } = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: one\n\n');
      finish = () => res.end('data: two\n\n');
    });
    const response = await createHttpFetch()(url);
    const reader = response.body!.getReader();
    const first = await reader.read();
    expect(Buffer.from(first.value!).toString()).toBe('data: one\n\n');
    finish();
    const rest: string[] = [];
    for (let r = await reader.read(); !r.done; r = await reader.read()) rest.push(Buffer.from(r.value).toString());
    expect(rest.join('')).toBe('data: two\n\n');
  });

  it('an abort before the answer rejects with AbortError; one during the body errors the body with it', async () => {
    const { url } = await serve((req, res) => {
      if (req.url === '/slow') return; // never answers
      res.writeHead(200);
      res.write('partial');
    });
    const fetch = createHttpFetch();
    const early = new AbortController();
    const pending = fetch(`${url}/slow`, { signal: early.signal });
    setTimeout(() => early.abort(), 20);
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    await expect(fetch(url, { signal: AbortSignal.abort() })).rejects.toMatchObject({ name: 'AbortError' });

    const late = new AbortController();
    const response = await fetch(url, { signal: late.signal });
    const reader = response.body!.getReader();
    expect(Buffer.from((await reader.read()).value!).toString()).toBe('partial');
    late.abort();
    await expect(reader.read()).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('an abort after the answer, its body never read, fails nothing else', async () => {
    const { url } = await serve((_req, res) => {
      res.writeHead(200);
      res.write('partial');
    });
    const unexpected: unknown[] = [];
    const onUncaught = (error: unknown): void => void unexpected.push(error);
    process.on('uncaughtException', onUncaught);
    try {
      const controller = new AbortController();
      const response = await createHttpFetch()(url, { signal: controller.signal });
      expect(response.status).toBe(200);
      controller.abort();
      await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      process.off('uncaughtException', onUncaught);
    }
    expect(unexpected).toEqual([]);
  });

  it('a refused connection is `fetch failed` with the socket error as its cause, as with Node’s fetch', async () => {
    const { url } = await serve(() => undefined);
    await new Promise<void>((resolve) => server!.close(() => resolve()));
    server = null;
    const error = await createHttpFetch()(url).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect(error).toMatchObject({ message: 'fetch failed', cause: { code: 'ECONNREFUSED' } });
  });

  it('no body for 204 and HEAD; a gzip body inflated', async () => {
    const { url } = await serve((req, res) => {
      if (req.url === '/empty') return void res.writeHead(204).end();
      if (req.method === 'HEAD') return void res.writeHead(200, { 'content-length': '5' }).end();
      res.writeHead(200, { 'content-encoding': 'gzip' });
      res.end(gzipSync('inflated text'));
    });
    const fetch = createHttpFetch();
    expect((await fetch(`${url}/empty`)).body).toBeNull();
    expect((await fetch(url, { method: 'HEAD' })).body).toBeNull();
    expect(await (await fetch(url)).text()).toBe('inflated text');
  });

  it('keeps the connection for the next request', async () => {
    const { url, connections } = await serve((_req, res) => res.end('ok'));
    const fetch = createHttpFetch();
    for (let i = 0; i < 3; i++) expect(await (await fetch(url)).text()).toBe('ok');
    expect(connections()).toBe(1);
  });

  it('refuses a body it cannot send, and a URL that is not http(s)', async () => {
    const fetch = createHttpFetch();
    await expect(fetch('http://127.0.0.1:1/', { method: 'POST', body: new FormData() })).rejects.toThrow(/unsupported request body/);
    await expect(fetch('ftp://127.0.0.1/')).rejects.toMatchObject({
      message: 'fetch failed',
      cause: { message: 'unsupported URL scheme ftp:' },
    });
  });
});
