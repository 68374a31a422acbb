/** Pieces of the stream retry policy (docs/codex-parity.md#stream-retries-and-backoff); the loop itself lives in the core. */
import { formatWait } from '../../protocol/long-timer.js';

const INITIAL_DELAY_MS = 200;
const BACKOFF_FACTOR = 2;

/** 200 ms × 2^(attempt−1) × jitter in [0.9, 1.1): about 200, 400, 800, 1600, 3200 ms. */
export function backoffMs(attempt: number, random: () => number = Math.random): number {
  const exponential = INITIAL_DELAY_MS * BACKOFF_FACTOR ** Math.max(0, attempt - 1);
  const jitter = 0.9 + random() * 0.2;
  return Math.floor(exponential * jitter);
}

/**
 * The delay a server asks for in an error message: "Please try again in 11.054s" → 11054,
 * "try again in 300ms" → 300. Null when the message names none.
 */
export function parseRetryDelay(message: string): number | null {
  const match = /try again in\s*(\d+(?:\.\d+)?)\s*(ms|s|seconds?)\b/i.exec(message);
  if (!match) return null;
  const value = Number(match[1]);
  return Math.round(match[2]!.toLowerCase() === 'ms' ? value : value * 1000);
}

/**
 * A Retry-After / retry-after-ms header value in milliseconds: delta seconds or an HTTP date
 * (relative to `now`). Null when absent or unreadable.
 */
export function parseRetryAfterHeader(
  retryAfter: string | null | undefined,
  retryAfterMs: string | null | undefined = null,
  now: number = Date.now(),
): number | null {
  if (retryAfterMs) {
    const ms = Number(retryAfterMs);
    if (Number.isFinite(ms) && ms >= 0) return Math.round(ms);
  }
  if (!retryAfter) return null;
  const seconds = Number(retryAfter);
  if (retryAfter.trim() !== '' && Number.isFinite(seconds) && seconds >= 0) return Math.round(seconds * 1000);
  const date = Date.parse(retryAfter);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/** Waits at least this long are spelled out, so a long Retry-After does not look like a hang. */
export const ANNOUNCED_WAIT_MS = 10_000;

export function retryAnnouncement(attempt: number, max: number, delayMs = 0): string {
  const base = `Reconnecting... ${attempt}/${max}`;
  return delayMs >= ANNOUNCED_WAIT_MS ? `${base} (retrying in ${formatWait(delayMs)}; Esc cancels)` : base;
}
