/**
 * The look at a provider's base URL before the first request: an HTML page or a 404 at GET /models
 * is one line naming the key and the fix; an API (even one that refuses the key) or a server that is
 * down says nothing here (the first request reports those).
 */
import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { notAnApiMessage, probeBaseUrl } from '../../../src/runtime/providers-probe.js';

let server: Server | null = null;
afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = null;
});

async function answering(status: number, type: string, body: string): Promise<string> {
  server = createServer((_req, res) => {
    res.writeHead(status, { 'content-type': type });
    res.end(body);
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', () => resolve()));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return `http://127.0.0.1:${address.port}`;
}

const provider = (id: string) => ({ id, name: id, wireApi: 'chat' as const, queryParams: {}, headers: {} });

describe('probeBaseUrl', () => {
  it('names model_providers.<id>.base_url and the fix when the URL answers a web page', async () => {
    const baseUrl = await answering(200, 'text/html; charset=utf-8', '<!doctype html><title>Home</title>');
    const message = await probeBaseUrl({ provider: provider('local'), baseUrl, apiKey: null });
    expect(message).toBe(
      `model_providers.local.base_url = "${baseUrl}" is not an API root (GET /models answered an HTML page (HTTP 200)): set it to the server's API URL, which ends in /v1 (for example http://localhost:11434/v1 for Ollama)`,
    );
  });

  it('says so for a 404; OpenAI’s own provider is left to its Responses wire, and its key is the top-level one', async () => {
    const baseUrl = await answering(404, 'text/plain', '404 page not found');
    const ollama = { provider: provider('ollama'), baseUrl };
    expect(await probeBaseUrl({ ...ollama, apiKey: null })).toBe(notAnApiMessage(ollama, 'HTTP 404'));
    expect(notAnApiMessage(ollama, 'HTTP 404')).toMatch(
      /^model_providers\.ollama\.base_url = ".*" is not an API root \(GET \/models answered HTTP 404\)/,
    );
    expect(await probeBaseUrl({ provider: provider('openai'), baseUrl, apiKey: 'k' })).toBeNull();
    expect(notAnApiMessage({ provider: provider('openai'), baseUrl }, 'HTTP 404')).toMatch(/^base_url \(or OPENAI_BASE_URL\) = /);
  });

  it('is silent for an API that answers, even with 401, and for a server that is not running', async () => {
    const baseUrl = await answering(401, 'application/json', '{"error":{"message":"bad key"}}');
    expect(await probeBaseUrl({ provider: provider('x'), baseUrl: `${baseUrl}/v1`, apiKey: 'k' })).toBeNull();
    expect(await probeBaseUrl({ provider: provider('x'), baseUrl: 'http://127.0.0.1:9/v1', apiKey: null })).toBeNull();
    // The offline model has no URL to look at.
    expect(await probeBaseUrl({ provider: provider('openai'), baseUrl: null, apiKey: null })).toBeNull();
  });
});
