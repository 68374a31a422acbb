/**
 * Maps transport failures to ModelError (retryable or not, with the CodexErrorInfo the core
 * reports in a TurnError). Pure functions: the SDK's error objects are read structurally so this
 * module never loads `openai`. Upstream text is redacted here, where it becomes a message: a
 * server's 401 may echo the API key, and every report of the error (cells, exec, feedback) starts here.
 */
import { redactSecrets } from '../../protocol/redact.js';
import { ModelError } from './types.js';
import { parseRetryAfterHeader, parseRetryDelay } from './retry.js';
import { StreamEventError } from './sse-reader.js';

export const STREAM_CLOSED_MESSAGE = 'stream closed before response.completed';
export const IDLE_TIMEOUT_MESSAGE = 'idle timeout waiting for SSE';
export const MALFORMED_EVENT_MESSAGE = 'failed to parse SSE event';
export const ABORTED_MESSAGE = 'aborted';

const CONTEXT_WINDOW_MESSAGE =
  "Tiller ran out of room in the model's context window. Start a new thread or clear earlier history before retrying.";
const QUOTA_MESSAGE = 'Quota exceeded. Check your plan and billing details.';
const OVERLOADED_MESSAGE = 'Selected model is at capacity. Please try a different model.';

/** The ModelError thrown when the caller's signal aborts: never retryable, never a turn failure. */
export function abortedError(): ModelError {
  return new ModelError(ABORTED_MESSAGE, false);
}

export function isAbortedError(error: unknown): boolean {
  return error instanceof ModelError && error.message === ABORTED_MESSAGE && !error.retryable;
}

/**
 * An error reported inside the stream (`response.failed`, an `error` event) by its code
 * (docs/codex-parity.md#error-mapping).
 */
export function streamFailureError(code: string | null | undefined, message: string | null | undefined): ModelError {
  const text = message && message.length > 0 ? redactSecrets(message) : 'response failed';
  switch (code) {
    case 'context_length_exceeded':
      return new ModelError(CONTEXT_WINDOW_MESSAGE, false, 'contextWindowExceeded', null, text);
    case 'insufficient_quota':
    case 'usage_not_included':
      return new ModelError(QUOTA_MESSAGE, false, 'usageLimitExceeded', null, text);
    case 'cyber_policy':
      return new ModelError(text, false, 'cyberPolicy');
    case 'invalid_prompt':
      return new ModelError(text, false, 'badRequest');
    case 'server_is_overloaded':
    case 'slow_down':
      return new ModelError(OVERLOADED_MESSAGE, false, 'serverOverloaded', null, text);
    default:
      return new ModelError(text, true, { responseStreamDisconnected: { httpStatusCode: null } }, parseRetryDelay(text));
  }
}

export function incompleteError(reason: string | null | undefined): ModelError {
  return new ModelError(`Incomplete response returned, reason: ${reason ?? 'unknown'}`, true, {
    responseStreamDisconnected: { httpStatusCode: null },
  });
}

interface HeaderBag {
  get(name: string): string | null;
}

interface SdkApiErrorLike {
  status: number;
  headers?: HeaderBag | undefined;
  error?: unknown;
  message: string;
}

function isHeaderBag(value: unknown): value is HeaderBag {
  return typeof value === 'object' && value !== null && typeof (value as HeaderBag).get === 'function';
}

function bodyError(error: unknown): { code: string | null; message: string | null } {
  if (typeof error !== 'object' || error === null) return { code: null, message: null };
  const record = error as Record<string, unknown>;
  const inner = typeof record.error === 'object' && record.error !== null ? (record.error as Record<string, unknown>) : record;
  return {
    code: typeof inner.code === 'string' ? inner.code : typeof inner.type === 'string' ? inner.type : null,
    message: typeof inner.message === 'string' ? inner.message : null,
  };
}

/** Whether an error answer's body is an API's error (a JSON `message`), not a web server's page. */
export function isApiErrorBody(error: unknown): boolean {
  return bodyError(error).message !== null;
}

/** An HTTP status answer to the request (before any event was streamed). */
export function httpStatusError(source: SdkApiErrorLike, now: number = Date.now()): ModelError {
  const status = source.status;
  const { code, message } = bodyError(source.error);
  const detail = redactSecrets(message ?? source.message);
  const text = `unexpected status ${status}: ${detail}`;
  if (code === 'insufficient_quota' || code === 'usage_not_included') {
    return new ModelError(QUOTA_MESSAGE, false, 'usageLimitExceeded', null, detail);
  }
  if (code === 'context_length_exceeded') {
    return new ModelError(CONTEXT_WINDOW_MESSAGE, false, 'contextWindowExceeded', null, detail);
  }
  if (status === 400) return new ModelError(text, false, 'badRequest');
  // 403: the key is known but may not do this (a project or organisation without access).
  if (status === 401 || status === 403) return new ModelError(text, false, 'unauthorized');
  if (status === 429 || status === 408 || status === 409 || status >= 500) {
    const headers = isHeaderBag(source.headers) ? source.headers : null;
    const delay = parseRetryAfterHeader(headers?.get('retry-after'), headers?.get('retry-after-ms'), now) ?? parseRetryDelay(detail);
    return new ModelError(text, true, { responseStreamConnectionFailed: { httpStatusCode: status } }, delay);
  }
  // Other client errors (404, 422…) will not change on a retry: a wrong URL or model.
  return new ModelError(text, false, 'other');
}

/** Where a failed request went: its URL and, when one carried it, the proxy (both without credentials). */
export interface RequestTarget {
  url: string;
  proxy?: { variable: string; proxy: string } | null;
}

/**
 * A request that got no HTTP answer, said in one message: the URL, the cause (`connection refused
 * (ECONNREFUSED 127.0.0.1:8000)`) and what to check. TLS certificate failures are not retryable:
 * the same certificate comes back on every attempt.
 */
export function connectionError(cause: unknown, target: RequestTarget | null = null): ModelError {
  const failure = connectionFailure(cause, target?.proxy ?? null);
  const where = target === null ? '' : ` to ${target.url}`;
  const via = target?.proxy ? ` through the proxy ${target.proxy.proxy} (${target.proxy.variable})` : '';
  const hint = failure.hint === null ? '' : ` ${failure.hint}`;
  return new ModelError(`error sending request${where}${via}: ${failure.what}.${hint}`, failure.retryable, {
    httpConnectionFailed: { httpStatusCode: null },
  });
}

/** The shape of Node's system and TLS errors (and undici's), read structurally. */
interface ErrnoLike {
  code?: unknown;
  message?: unknown;
  address?: unknown;
  port?: unknown;
  hostname?: unknown;
  errors?: unknown;
  cause?: unknown;
}

/**
 * The innermost error that has a code (else the innermost error), through `cause` chains and
 * AggregateError's `errors`: undici's own `fetch failed` says nothing.
 */
function rootCause(error: unknown): ErrnoLike | null {
  let found: ErrnoLike | null = null;
  let deepest: ErrnoLike | null = null;
  let current: unknown = error;
  for (let depth = 0; depth < 8 && typeof current === 'object' && current !== null; depth++) {
    const e = current as ErrnoLike;
    deepest = e;
    if (typeof e.code === 'string') found = e;
    const next = e.cause ?? (Array.isArray(e.errors) ? e.errors[0] : undefined);
    if (next === undefined) break;
    current = next;
  }
  return found ?? deepest;
}

const UNTRUSTED_CERT = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'CERT_UNTRUSTED',
]);
const EXPIRED_CERT = new Set(['CERT_HAS_EXPIRED', 'CERT_NOT_YET_VALID']);
/** What OpenSSL says when the other end does not speak TLS (an https:// URL to a plain-HTTP server). */
const NOT_TLS = new Set(['ERR_SSL_WRONG_VERSION_NUMBER', 'ERR_SSL_PACKET_LENGTH_TOO_LONG', 'EPROTO']);

interface ConnectionFailure {
  what: string;
  hint: string | null;
  retryable: boolean;
}

export function connectionFailure(cause: unknown, proxy: { variable: string; proxy: string } | null): ConnectionFailure {
  const root = rootCause(cause);
  const code = typeof root?.code === 'string' ? opensslCode(root.code, firstLine(root)) : null;
  const address = root === null ? '' : addressOf(root);
  const tagged = (text: string): string => `${text} (${code}${address === '' ? '' : ` ${address}`})`;
  const message = firstLine(root ?? cause);
  if (code === 'ECONNREFUSED') {
    return {
      what: tagged('connection refused'),
      hint: proxy ? `Is the proxy running? Check ${proxy.variable}.` : 'Is the server running, and on that port?',
      retryable: true,
    };
  }
  if (code === 'ENOTFOUND') {
    return {
      what: tagged('host name not found'),
      hint: proxy
        ? `Check the proxy's host name in ${proxy.variable}.`
        : 'Check the host name in the base URL (base_url in config.toml, OPENAI_BASE_URL or --base-url).',
      retryable: true,
    };
  }
  if (code === 'EAI_AGAIN')
    return { what: tagged('the host name could not be looked up now'), hint: 'Check the network connection and DNS.', retryable: true };
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH' || code === 'ENETDOWN') {
    return { what: tagged('no route to the host'), hint: 'Check the network connection (and VPN).', retryable: true };
  }
  if (code === 'ETIMEDOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') {
    return {
      what: tagged('connection timed out'),
      hint: proxy ? `Check the proxy in ${proxy.variable}.` : 'Check the host and port, and any firewall.',
      retryable: true,
    };
  }
  if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'UND_ERR_SOCKET') {
    return { what: tagged('the connection was closed by the other end'), hint: null, retryable: true };
  }
  if (code !== null && UNTRUSTED_CERT.has(code)) {
    return {
      what: `the server's TLS certificate is not trusted (${code})`,
      hint: "If your organisation's CA (or a proxy that inspects TLS) signs it, point NODE_EXTRA_CA_CERTS at that CA's PEM file.",
      retryable: false,
    };
  }
  if (code !== null && EXPIRED_CERT.has(code)) {
    return {
      what: `the server's TLS certificate is not valid now (${code})`,
      hint: "Check the server's certificate and this machine's clock.",
      retryable: false,
    };
  }
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') {
    return {
      what: `the server's TLS certificate is for another host name (${code})`,
      hint: 'Check the host name in the base URL.',
      retryable: false,
    };
  }
  if (code !== null && NOT_TLS.has(code)) {
    return {
      what: `TLS handshake failed (${code})`,
      hint: 'Does the server speak HTTPS? For a plain-HTTP server use an http:// URL.',
      retryable: false,
    };
  }
  // undici's ProxyAgent: the proxy answered CONNECT with another status.
  const status = /Proxy response \((\d{3})\)/.exec(message)?.[1] ?? (/\((407)\)/.test(message) ? '407' : null);
  if (status !== null) {
    return {
      what: `the proxy refused the request (HTTP ${status})`,
      hint:
        status === '407'
          ? `It wants credentials: put them in the proxy URL (http://user:password@host:port)${proxy ? ` in ${proxy.variable}` : ''}.`
          : 'Check the proxy, and that it may reach the server.',
      retryable: status !== '407',
    };
  }
  return { what: code === null ? message : `${message} (${code})`, hint: null, retryable: true };
}

/**
 * node:https says EPROTO for a TLS failure where Node's fetch names OpenSSL's reason (the message
 * has it: `…:SSL routines:ssl3_get_record:wrong version number:…`): the same code either way.
 */
function opensslCode(code: string, message: string): string {
  const reason = code === 'EPROTO' ? /SSL routines:[^:]*:([a-z0-9 ]+):/.exec(message)?.[1] : undefined;
  return reason === undefined ? code : `ERR_SSL_${reason.toUpperCase().replaceAll(' ', '_')}`;
}

/** `127.0.0.1:8000` or the host name a lookup failed for; '' when the error names neither. */
function addressOf(error: ErrnoLike): string {
  if (typeof error.address === 'string') {
    const host = error.address.includes(':') ? `[${error.address}]` : error.address;
    return typeof error.port === 'number' ? `${host}:${error.port}` : host;
  }
  return typeof error.hostname === 'string' ? error.hostname : '';
}

function firstLine(error: unknown): string {
  const message = typeof (error as ErrnoLike | null)?.message === 'string' ? ((error as ErrnoLike).message as string) : String(error);
  return redactSecrets(message.split('\n')[0] ?? message);
}

export function connectTimeoutError(): ModelError {
  return new ModelError('timeout waiting for the response headers', true, { httpConnectionFailed: { httpStatusCode: null } });
}

export function streamClosedError(cause: unknown | null): ModelError {
  return new ModelError(
    STREAM_CLOSED_MESSAGE,
    true,
    { responseStreamDisconnected: { httpStatusCode: null } },
    null,
    cause === null ? null : describe(cause),
  );
}

/**
 * Why reading a wire's stream failed: an abort, a ModelError as it came, an event that was not JSON,
 * or an `error` event, whose object (null when it is none) the wire maps its own way; anything else,
 * or an error event the wire does not map, is the stream closing early.
 */
export function streamReadError(
  error: unknown,
  signal: AbortSignal,
  eventError: (inner: Record<string, unknown> | null) => ModelError | null,
): ModelError {
  if (signal.aborted) return abortedError();
  if (error instanceof ModelError) return error;
  if (error instanceof SyntaxError) return malformedEventError(error);
  if (error instanceof StreamEventError) {
    const inner = typeof error.error === 'object' && error.error !== null ? (error.error as Record<string, unknown>) : null;
    const mapped = eventError(inner);
    if (mapped !== null) return mapped;
  }
  return streamClosedError(error);
}

export function malformedEventError(cause: unknown): ModelError {
  // JSON.parse messages quote the offending text, which may be model output: keep only the kind.
  const kind = cause instanceof Error ? cause.name : 'invalid JSON';
  return new ModelError(MALFORMED_EVENT_MESSAGE, true, { responseStreamDisconnected: { httpStatusCode: null } }, null, kind);
}

export function idleTimeoutError(): ModelError {
  return new ModelError(IDLE_TIMEOUT_MESSAGE, true, { responseStreamDisconnected: { httpStatusCode: null } });
}

/** A short, content-free description of a low-level error (its code, else its first line). */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: unknown }).cause;
  const code = (error as { code?: unknown }).code ?? (cause as { code?: unknown } | undefined)?.code;
  const first = redactSecrets(error.message.split('\n')[0] ?? error.name);
  return typeof code === 'string' ? `${first} (${code})` : first;
}
