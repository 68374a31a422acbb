/**
 * `fetch` over node:http and node:https, for the model client's direct connections. Node's own fetch
 * (undici) parses HTTP with a WebAssembly build of llhttp, which V8 compiles on a session's first
 * request and compiles again, optimized, on background threads once a long stream makes it hot:
 * about 100 ms of CPU on the first answer. node:http's parser is native. The SDK builds the request
 * and reads the Response exactly as it does with Node's fetch; errors look like that fetch's
 * (`TypeError: fetch failed` with the socket's error as `cause`, an `AbortError` on abort), so
 * errors.ts reads them the same way.
 */
import { type IncomingMessage, request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { createWarmAgents } from './warm-agents.js';

type Fetch = typeof globalThis.fetch;

/** Statuses whose responses have no body (the Response constructor refuses one). */
const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);

/** This fetch, and a connection opened ahead of the first request (warm-agents.ts). */
export type HttpFetch = Fetch & { preconnect(url: string): void };

/** A fetch with its own keep-alive connections (idle ones do not keep the process alive). */
export function createHttpFetch(): HttpFetch {
  const agents = createWarmAgents();
  const fetch: Fetch = (input, init = {}) =>
    new Promise<Response>((resolve, reject) => {
      const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
      const signal = init.signal ?? null;
      if (signal?.aborted) return reject(abortReason(signal));
      const body = requestBody(init.body);
      if (body instanceof Error) return reject(body);
      const https = url.protocol === 'https:';
      if (!https && url.protocol !== 'http:')
        return reject(new TypeError('fetch failed', { cause: new Error(`unsupported URL scheme ${url.protocol}`) }));
      const headers: Record<string, string> = {};
      new Headers(init.headers).forEach((value, name) => {
        headers[name] = value;
      });
      if (body !== null) headers['content-length'] = String(body.byteLength);
      const req = (https ? httpsRequest : httpRequest)(url, {
        method: init.method ?? 'GET',
        headers,
        agent: https ? agents.https : agents.http,
      });
      let response: IncomingMessage | null = null;
      const onAbort = (): void => {
        const reason = abortReason(signal!);
        // Before the answer the request fails; after it, its body does.
        if (response === null) reject(reason);
        req.destroy(reason);
        response?.destroy(reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      const done = (): void => signal?.removeEventListener('abort', onAbort);
      req.once('error', (error) => {
        done();
        if (response === null) reject(new TypeError('fetch failed', { cause: error }));
      });
      req.once('response', (res) => {
        response = res;
        res.once('close', done);
        resolve(toResponse(res, init.method === 'HEAD'));
      });
      req.end(body ?? undefined);
    });
  return Object.assign(fetch, { preconnect: (url: string) => agents.preconnect(new URL(url)) });
}

function requestBody(body: RequestInit['body']): Uint8Array | null | Error {
  if (body === undefined || body === null) return null;
  if (typeof body === 'string') return Buffer.from(body, 'utf8');
  if (body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  // The model API takes JSON; nothing Tiller sends is a stream or a form.
  return new TypeError(`fetch: unsupported request body (${Object.prototype.toString.call(body)})`);
}

function toResponse(res: IncomingMessage, head: boolean): Response {
  const headers = new Headers();
  for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) headers.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
  const status = res.statusCode ?? 0;
  const init = { status, statusText: res.statusMessage ?? '', headers };
  if (head || NULL_BODY_STATUSES.has(status)) {
    res.resume();
    return new Response(null, init);
  }
  const body: NodeBody = { stream: decoded(res), taken: false };
  const response = new Response(lazyWebBody(body), init);
  nodeBodies.set(response, body);
  return response;
}

interface NodeBody {
  readonly stream: Readable;
  /** Read as a web stream, or taken as the Node stream: it has one reader. */
  taken: boolean;
}

const nodeBodies = new WeakMap<Response, NodeBody>();

/**
 * The body of a response from this fetch as the Node stream it is (null for any other response, or
 * once its web stream is being read): a long stream of events is read without a web stream's
 * promise per chunk. Taken, the web body is no longer readable.
 */
export function takeNodeBody(response: Response): Readable | null {
  const body = nodeBodies.get(response);
  if (body === undefined || body.taken) return null;
  body.taken = true;
  return body.stream;
}

/** A web stream that starts reading the body only when it is read (takeNodeBody may take it first). */
function lazyWebBody(body: NodeBody): ReadableStream<Uint8Array> {
  let reader: ReadableStreamDefaultReader<Uint8Array> | null = null;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (reader === null) {
          if (body.taken) throw new TypeError('the body was taken as a Node stream');
          body.taken = true;
          reader = (Readable.toWeb(body.stream) as ReadableStream<Uint8Array>).getReader();
        }
        const next = await reader.read();
        if (next.done) controller.close();
        else controller.enqueue(next.value);
      },
      cancel(reason) {
        body.stream.destroy(reason instanceof Error ? reason : undefined);
      },
    },
    { highWaterMark: 0 },
  );
}

/** The body as fetch gives it: a compressed one inflated (a proxy may compress what was not asked to be). */
function decoded(res: IncomingMessage): Readable {
  const encoding = String(res.headers['content-encoding'] ?? '')
    .trim()
    .toLowerCase();
  const inflate =
    encoding === 'gzip' || encoding === 'x-gzip'
      ? createGunzip()
      : encoding === 'deflate'
        ? createInflate()
        : encoding === 'br'
          ? createBrotliDecompress()
          : null;
  if (inflate === null) return res;
  res.once('error', (error) => inflate.destroy(error));
  return res.pipe(inflate);
}

function abortReason(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason : new DOMException('This operation was aborted', 'AbortError');
}
