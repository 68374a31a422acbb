/**
 * Anthropic's errors as ModelErrors (docs/codex-parity.md#the-anthropic-messages-wire): an error body's or an
 * `error` event's `type` read as Codex reads OpenAI's codes, so the core's retry layers treat both
 * APIs alike. Overloaded (529, `overloaded_error`), rate-limited and server errors are retried;
 * a prompt over the context window, an empty credit balance, a bad key or request are not.
 */
import { redactSecrets } from '../../../../protocol/redact.js';
import { httpStatusError, streamFailureError } from '../../errors.js';
import { ModelError } from '../../types.js';

/** What the API says for a prompt over the model's window, and for an account without credit. */
const PROMPT_TOO_LONG = /prompt is too long|exceeds? the (maximum )?context/i;
const NO_CREDIT = /credit balance is too low/i;

interface ErrorBody {
  type: string | null;
  message: string | null;
}

function readBody(text: string): ErrorBody {
  try {
    const error = (JSON.parse(text) as { error?: { type?: unknown; message?: unknown } } | null)?.error;
    return {
      type: typeof error?.type === 'string' ? error.type : null,
      message: typeof error?.message === 'string' ? error.message : null,
    };
  } catch {
    return { type: null, message: null };
  }
}

/** The error for what the server said in words, when the words say more than the status. */
function byMessage(message: string | null): ModelError | null {
  if (message === null) return null;
  if (PROMPT_TOO_LONG.test(message)) return streamFailureError('context_length_exceeded', message);
  if (NO_CREDIT.test(message)) return streamFailureError('insufficient_quota', message);
  return null;
}

/** A status answer to the request, with its body's text (a JSON error, or whatever a proxy sent). */
export function anthropicStatusError(status: number, headers: Headers, bodyText: string, now: number = Date.now()): ModelError {
  const body = readBody(bodyText);
  const known = status === 400 || status === 413 ? byMessage(body.message) : null;
  if (known) return known;
  const message = body.message ?? (bodyText.trim().slice(0, 200) || `HTTP ${status}`);
  return httpStatusError({ status, headers, error: { error: { type: body.type, message } }, message }, now);
}

/** An `error` event in the stream (after the 200). */
export function anthropicStreamError(type: string | null, message: string | null): ModelError {
  const text = message && message.length > 0 ? redactSecrets(message) : (type ?? 'the stream reported an error');
  const disconnected = { responseStreamDisconnected: { httpStatusCode: null } };
  switch (type) {
    case 'overloaded_error':
    case 'rate_limit_error':
    case 'api_error':
      return new ModelError(text, true, disconnected);
    case 'invalid_request_error':
    case 'request_too_large':
      return byMessage(message) ?? new ModelError(text, false, 'badRequest');
    case 'authentication_error':
    case 'permission_error':
      return new ModelError(text, false, 'unauthorized');
    case 'billing_error':
      return streamFailureError('insufficient_quota', message);
    default:
      return streamFailureError(null, message ?? type);
  }
}
