/**
 * A connection opened before the first request (warm-agents.ts), against a real server on 127.0.0.1:
 * the first request goes out on it, one the server dropped meanwhile is replaced, and a refused one
 * changes nothing but the request's own error.
 */
import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpFetch } from '../../../src/runtime/model/http-fetch.js';

let server: Server | null = null;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server === null ? resolve() : server.close(() => resolve())));
  server = null;
});

async function serve(): Promise<{ url: string; sockets: Socket[]; requests: Array<{ socket: Socket }> }> {
  const sockets: Socket[] = [];
  const requests: Array<{ socket: Socket }> = [];
  server = createServer((req, res) => {
    requests.push({ socket: req.socket });
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('ok');
  });
  server.on('connection', (socket: Socket) => sockets.push(socket));
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', () => resolve()));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  return { url: `http://127.0.0.1:${address.port}/v1/responses`, sockets, requests };
}

const until = async (test: () => boolean): Promise<void> => {
  for (let i = 0; i < 200 && !test(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
  expect(test()).toBe(true);
};

describe('preconnect', () => {
  it('opens one connection before any request, and the first request goes out on it', async () => {
    const { url, sockets, requests } = await serve();
    const fetch = createHttpFetch();
    fetch.preconnect(url);
    fetch.preconnect(url);
    await until(() => sockets.length === 1);
    expect(requests).toHaveLength(0);
    const response = await fetch(url, { method: 'POST', body: '{}' });
    expect(await response.text()).toBe('ok');
    expect(sockets).toHaveLength(1);
    expect(requests[0]!.socket).toBe(sockets[0]);
    // Kept alive after, as any connection of the agent.
    await (await fetch(url)).text();
    expect(sockets).toHaveLength(1);
  });

  it('a connection the server dropped before the request is replaced by a new one', async () => {
    const { url, sockets, requests } = await serve();
    const fetch = createHttpFetch();
    fetch.preconnect(url);
    await until(() => sockets.length === 1);
    sockets[0]!.destroy();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const response = await fetch(url);
    expect(await response.text()).toBe('ok');
    expect(sockets).toHaveLength(2);
    expect(requests[0]!.socket).toBe(sockets[1]);
  });

  it('a refused connection is silent; the request then fails as it would have', async () => {
    const { url } = await serve();
    await new Promise<void>((resolve) => server!.close(() => resolve()));
    server = null;
    const fetch = createHttpFetch();
    fetch.preconnect(url);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const failure = await fetch(url).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TypeError);
    expect(((failure as TypeError).cause as NodeJS.ErrnoException).code).toBe('ECONNREFUSED');
  });

  it('opens nothing for a scheme it does not speak', async () => {
    const fetch = createHttpFetch();
    expect(() => fetch.preconnect('ftp://127.0.0.1:21/')).not.toThrow();
  });
});
