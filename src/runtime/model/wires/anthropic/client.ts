/**
 * ModelClient over Anthropic's Messages API (`POST {base}/messages`, SSE) with plain fetch: the
 * `@anthropic-ai/sdk` would be one more package to load before a first answer, for a request and
 * an event stream this small (docs/codex-parity.md#the-anthropic-messages-wire). The key goes in `x-api-key` with
 * `anthropic-version`, never in Authorization. Nothing retries here: the core owns both retry
 * loops, and every failure is a classified ModelError.
 */
import {
  abortedError,
  connectionError,
  connectTimeoutError,
  streamClosedError,
  type RequestTarget,
  streamReadError,
} from '../../errors.js';
import { EventWaiter } from '../../event-waiter.js';
import { createHttpFetch, takeNodeBody } from '../../http-fetch.js';
import { createProxyTransport, displayUrl, proxyFor, proxySettings, type ProxyTransport } from '../../proxy.js';
import { sseEvents } from '../../sse-reader.js';
import { LIST_MODELS_TIMEOUT_MS, ModelError, type ListedModel, type ModelClient, type ModelEvent, type ModelRequest } from '../../types.js';
import { anthropicStatusError, anthropicStreamError } from './errors.js';
import { MessageEvents } from './event-map.js';
import { customToolNames, messagesBody } from './request.js';

export const ANTHROPIC_VERSION = '2023-06-01';
/** `GET /models` answers a picker: it must not wait as long as a stream may stay silent. */

export interface AnthropicClientOptions {
  label: string;
  /** Ends in /v1 (`https://api.anthropic.com/v1`); `/messages` and `/models` are appended. */
  baseUrl: string;
  apiKey: string | null;
  /** Longest silence allowed between events, and the wait for response headers. */
  idleTimeoutMs: number;
  /** The provider's `http_headers` and set `env_http_headers`, sent with every request. */
  headers?: Record<string, string>;
  /** The provider's `query_params`, added to every request URL. */
  queryParams?: Record<string, string>;
  /** Where HTTPS_PROXY / HTTP_PROXY / NO_PROXY are read (default process.env, when the client is made). */
  env?: Readonly<Record<string, string | undefined>>;
  /** The config key of the URL, named when the URL answers a web page or a bare 404. */
  baseUrlKey?: string;
}

interface Transport {
  fetch: typeof globalThis.fetch;
  /** undici's proxy agent, passed with each request through a proxy. */
  init: RequestInit;
}

export function createAnthropicClient(options: AnthropicClientOptions): ModelClient {
  const base = options.baseUrl.replace(/\/+$/, '');
  const proxy = proxySettings(options.env ?? process.env);
  let transport: Promise<Transport> | null = null;
  // undici loads only when a proxy is set; without one, node:http (http-fetch.ts).
  const load = (): Promise<Transport> =>
    (transport ??= (proxy === null ? Promise.resolve(null) : createProxyTransport(proxy)).then((t: ProxyTransport | null) =>
      t === null ? { fetch: createHttpFetch(), init: {} } : { fetch: t.fetch, init: { dispatcher: t.dispatcher } as RequestInit },
    ));
  const query = new URLSearchParams(options.queryParams ?? {}).toString();
  const urlOf = (path: string): string => `${base}${path}${query === '' ? '' : `${path.includes('?') ? '&' : '?'}${query}`}`;
  const target = (path: string): RequestTarget => {
    const url = urlOf(path);
    const via = proxyFor(url, proxy);
    return { url: displayUrl(url), proxy: via ? { ...via, proxy: displayUrl(via.proxy) } : null };
  };
  const headers = (): Record<string, string> => ({
    'content-type': 'application/json',
    accept: 'application/json',
    ...options.headers,
    'anthropic-version': ANTHROPIC_VERSION,
    ...(options.apiKey ? { 'x-api-key': options.apiKey } : {}),
  });
  const send: Send = async (path, init, exchange, signal, timeoutMs) => {
    let t: Transport;
    try {
      t = await load();
    } catch (error) {
      throw new ModelError(`cannot use the proxy: ${error instanceof Error ? error.message : String(error)}`, false, 'other');
    }
    const request = { ...t.init, ...init, headers: headers(), signal: exchange.signal };
    return fetchWithin(
      t.fetch,
      urlOf(path),
      request,
      exchange,
      signal,
      timeoutMs,
      target(path),
      options.baseUrlKey ?? "the provider's base_url",
    );
  };
  return {
    label: options.label,
    stream: (request, signal) => streamMessages(send, request, signal, options.idleTimeoutMs),
    listModels: (signal) =>
      listModels(send, signal ?? new AbortController().signal, Math.min(options.idleTimeoutMs, LIST_MODELS_TIMEOUT_MS)),
  };
}

/**
 * One request: `exchange` ends it (the caller's abort, the header timeout, the end of the stream),
 * `signal` is the caller's, which tells an abort from a failure.
 */
type Send = (
  path: string,
  init: { method: 'GET' | 'POST'; body?: string },
  exchange: AbortController,
  signal: AbortSignal,
  timeoutMs: number,
) => Promise<Response>;

/** The response headers within `timeoutMs`; a status other than 2xx is thrown as its ModelError. */
async function fetchWithin(
  fetch: typeof globalThis.fetch,
  url: string,
  init: RequestInit,
  exchange: AbortController,
  signal: AbortSignal,
  timeoutMs: number,
  target: RequestTarget,
  baseUrlKey: string,
): Promise<Response> {
  if (signal.aborted) throw abortedError();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    exchange.abort();
  }, timeoutMs);
  let response: Response;
  try {
    response = await fetch(url, init);
  } catch (error) {
    if (signal.aborted) throw abortedError();
    throw timedOut ? connectTimeoutError() : connectionError(error, target);
  } finally {
    clearTimeout(timer);
  }
  if (response.ok && !isHtml(response)) return response;
  const text = await response.text().catch(() => '');
  // A gateway's own 429 or 5xx page is still worth retrying (with its Retry-After).
  const retryable = response.status === 429 || response.status >= 500;
  if (response.ok || (!retryable && !isJson(text))) throw notTheApiError(response.status, target.url, baseUrlKey);
  throw anthropicStatusError(response.status, response.headers, text);
}

/** A web page where the API should answer: a wrong base URL (or a proxy's login page), the same on every retry. */
function notTheApiError(status: number, url: string, baseUrlKey: string): ModelError {
  return new ModelError(
    `${url} answered HTTP ${status} without an Anthropic API answer: check ${baseUrlKey} (it ends in /v1, as https://api.anthropic.com/v1).`,
    false,
    'other',
  );
}

function isHtml(response: Response): boolean {
  return /^\s*text\/html/i.test(response.headers.get('content-type') ?? '');
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

async function* streamMessages(send: Send, request: ModelRequest, signal: AbortSignal, idleTimeoutMs: number): AsyncGenerator<ModelEvent> {
  if (signal.aborted) throw abortedError();
  const exchange = new AbortController();
  const onAbort = (): void => exchange.abort();
  signal.addEventListener('abort', onAbort, { once: true });
  let iterator: AsyncIterator<unknown> | null = null;
  let waiter: EventWaiter | null = null;
  try {
    const body = JSON.stringify(messagesBody(request));
    const response = await send('/messages', { method: 'POST', body }, exchange, signal, idleTimeoutMs);
    const events = new MessageEvents(customToolNames(request));
    iterator = sseEvents(takeNodeBody(response) ?? response.body);
    waiter = new EventWaiter(iterator, signal, exchange, idleTimeoutMs);
    for (;;) {
      let result: IteratorResult<unknown>;
      try {
        result = await waiter.next();
      } catch (error) {
        throw streamError(error, signal);
      }
      if (result.done) throw signal.aborted ? abortedError() : streamClosedError(null);
      const mapped = events.map(result.value);
      if ('error' in mapped) throw mapped.error;
      for (const event of mapped) {
        yield event;
        if (event.type === 'completed') return;
      }
    }
  } finally {
    waiter?.dispose();
    signal.removeEventListener('abort', onAbort);
    exchange.abort();
    iterator?.return?.().catch(() => undefined);
  }
}

/** An `error` event: its data has an `error` object, which the SSE reader throws (sse-reader.ts). */
function streamError(error: unknown, signal: AbortSignal): ModelError {
  return streamReadError(error, signal, (inner) =>
    anthropicStreamError(typeof inner?.type === 'string' ? inner.type : null, typeof inner?.message === 'string' ? inner.message : null),
  );
}

/** `GET /models`: the ids the API lists (its first page, which holds every current model). */
async function listModels(send: Send, signal: AbortSignal, timeoutMs: number): Promise<ListedModel[]> {
  const exchange = new AbortController();
  const onAbort = (): void => exchange.abort();
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    const response = await send('/models?limit=1000', { method: 'GET' }, exchange, signal, timeoutMs);
    let page: { data?: unknown };
    try {
      page = (await response.json()) as { data?: unknown };
    } catch (error) {
      if (signal.aborted) throw abortedError();
      throw new ModelError(`the model list is not JSON: ${error instanceof Error ? error.name : 'invalid'}`, false, 'other');
    }
    const data: unknown[] = Array.isArray(page?.data) ? page.data : [];
    return data.flatMap((m) => {
      const id = (m as { id?: unknown } | null)?.id;
      return typeof id === 'string' && id !== '' ? [{ id, ownedBy: null }] : [];
    });
  } finally {
    signal.removeEventListener('abort', onAbort);
    exchange.abort();
  }
}
