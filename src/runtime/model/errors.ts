/**
 * Maps transport failures to ModelError (retryable or not, with the CodexErrorInfo the core
 * reports in a TurnError). Pure functions: the SDK's error objects are read structurally so this
 * module never loads `openai`. Upstream text is redacted here, where it becomes a message: a
 * server's 401 may echo the API key, and every report of the error (cells, exec, feedback) starts here.
 */
import { redactSecrets } from '../../protocol/redact.js';
import { ModelError } from './types.js';
import { parseRetryAfterHeader, parseRetryDelay } from './retry.js';

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
 * (reference §7.2).
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
  if (status === 401) return new ModelError(text, false, 'unauthorized');
  if (status === 429 || status === 408 || status === 409 || status >= 500) {
    const headers = isHeaderBag(source.headers) ? source.headers : null;
    const delay =
      parseRetryAfterHeader(headers?.get('retry-after'), headers?.get('retry-after-ms'), now) ?? parseRetryDelay(detail);
    return new ModelError(text, true, { responseStreamConnectionFailed: { httpStatusCode: status } }, delay);
  }
  // Other client errors (403, 404, 422…) will not change on a retry: a wrong URL or model.
  return new ModelError(text, false, 'other');
}

export function connectionError(cause: unknown): ModelError {
  const detail = describe(cause);
  return new ModelError(`error sending request: ${detail}`, true, { httpConnectionFailed: { httpStatusCode: null } });
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
