/**
 * What the two wires that drive the openai SDK (Responses, Chat Completions) share: the SDK as they
 * hold it, the models listing, and a request failure as the core's ModelError.
 */
import type { ClientOptions, OpenAI } from 'openai';
import { createHttpFetch } from './http-fetch.js';
import { createProxyTransport, displayUrl, proxyFor, proxySettings, type ProxyTransport } from './proxy.js';
import { abortedError, connectionError, connectTimeoutError, httpStatusError, isApiErrorBody, type RequestTarget } from './errors.js';
import { ModelError, type ListedModel } from './types.js';

export interface Sdk {
  OpenAI: typeof OpenAI;
  client: OpenAI;
  target: RequestTarget;
  /** Opens a connection to the server ahead of the first request (none through a proxy or a test's fetch). */
  preconnect(): void;
}

export interface SdkOptions {
  apiKey: string;
  /** Ends in /v1; the SDK appends the wire's path. */
  baseURL: string;
  idleTimeoutMs: number;
  headers?: Record<string, string>;
  queryParams?: Record<string, string>;
  /** Replaces the HTTP transport (tests); no proxy is read then. */
  fetch?: typeof globalThis.fetch;
  /** Where HTTPS_PROXY / HTTP_PROXY / NO_PROXY are read (default process.env, when the client is made). */
  env?: Readonly<Record<string, string | undefined>>;
}

type FetchOptions = NonNullable<ClientOptions['fetchOptions']>;

/**
 * The SDK for requests to `baseURL + path`, loaded on first use so start-up never pays for it (nor
 * for undici, which only a proxy needs). The SDK never retries: the core's retry layers do.
 */
export function sdkLoader(options: SdkOptions, path: string): () => Promise<Sdk> {
  const proxy = options.fetch ? null : proxySettings(options.env ?? process.env);
  const url = `${options.baseURL.replace(/\/+$/, '')}${path}`;
  const via = proxyFor(url, proxy);
  const target: RequestTarget = { url: displayUrl(url), proxy: via ? { ...via, proxy: displayUrl(via.proxy) } : null };
  let sdk: Promise<Sdk> | null = null;
  return () =>
    (sdk ??= Promise.all([import('openai'), proxy === null ? null : createProxyTransport(proxy)]).then(
      ([{ default: OpenAI }, transport]: [typeof import('openai'), ProxyTransport | null]) => {
        const direct = options.fetch === undefined && transport === null ? createHttpFetch() : null;
        return {
          OpenAI,
          target,
          preconnect: () => direct?.preconnect(url),
          client: new OpenAI({
            apiKey: options.apiKey,
            baseURL: options.baseURL,
            maxRetries: 0,
            timeout: options.idleTimeoutMs,
            logLevel: 'off',
            defaultHeaders: options.headers ?? {},
            defaultQuery: options.queryParams ?? {},
            fetch: options.fetch ?? transport?.fetch ?? direct!,
            // undici v7's Dispatcher type differs from the one Node's own fetch types name, though it fits undici's fetch.
            ...(transport ? { fetchOptions: { dispatcher: transport.dispatcher } as FetchOptions } : {}),
          }),
        };
      },
    ));
}

/**
 * Called when a client is made, which is when a thread starts, after the TUI's first frame: the SDK
 * loads now, in the pause before a first message, not on its Enter (about 100 ms of CPU a first
 * request paid). So do the Headers and Response classes it builds the request and answer with: Node
 * loads them (undici's JavaScript) when `Headers` is first touched. And the connection to the server
 * opens now, so the first request goes out at once.
 */
export function warmSdk(load: () => Promise<Sdk>): void {
  setTimeout(
    () =>
      void load().then(
        (sdk) => {
          sdk.preconnect();
          return globalThis.Headers;
        },
        () => undefined,
      ),
    0,
  ).unref();
}

/** `client.models.list()`: the ids the server lists (entries without one are skipped). */
export async function listModels(load: () => Promise<Sdk>, signal: AbortSignal, timeout: number): Promise<ListedModel[]> {
  if (signal.aborted) throw abortedError();
  const sdk = await load();
  let page: { data?: unknown };
  try {
    page = await sdk.client.models.list({ signal, timeout });
  } catch (error) {
    throw requestError(sdk.OpenAI, error, signal);
  }
  const data: unknown[] = Array.isArray(page.data) ? page.data : [];
  return data.flatMap((m) => {
    const entry = (typeof m === 'object' && m !== null ? m : {}) as { id?: unknown; owned_by?: unknown };
    if (typeof entry.id !== 'string' || entry.id === '') return [];
    return [{ id: entry.id, ownedBy: typeof entry.owned_by === 'string' && entry.owned_by !== '' ? entry.owned_by : null }];
  });
}

/**
 * `baseUrlKey`: the config key of the URL. A 404 that is a web server's page, not the API's error (an
 * unknown model is one), means the URL is wrong: the message names that key.
 */
export function requestError(
  sdk: typeof OpenAI,
  error: unknown,
  signal: AbortSignal,
  target: RequestTarget | null = null,
  baseUrlKey?: string,
): ModelError {
  if (signal.aborted) return abortedError();
  if (error instanceof ModelError) return error;
  if (error instanceof sdk.APIConnectionTimeoutError) return connectTimeoutError();
  if (error instanceof sdk.APIConnectionError) return connectionError(error.cause ?? error, target);
  if (error instanceof sdk.APIError && error.status === 404 && baseUrlKey !== undefined && !isApiErrorBody(error.error)) {
    return new ModelError(`${target?.url ?? 'the server'} answered 404 Not Found: check ${baseUrlKey} (it ends in /v1)`, false, 'other');
  }
  if (error instanceof sdk.APIError && typeof error.status === 'number') {
    return httpStatusError({ status: error.status, headers: error.headers, error: error.error, message: error.message });
  }
  return connectionError(error, target);
}
