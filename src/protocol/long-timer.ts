/**
 * Timers for any delay. Node turns a delay over 2^31 − 1 ms (about 24.8 days) into 1 ms and prints
 * a TimeoutOverflowWarning, so a 429 with a huge Retry-After or a shell `timeout_ms` of 3e9 would
 * fire at once. These chain shorter timers instead, and treat NaN or a negative delay as 0.
 */

/** The longest delay Node's setTimeout keeps. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

export interface LongTimer {
  clear(): void;
}

/** A delay Node accepts for one timer: finite, non-negative, at most MAX_TIMER_MS. */
export function clampDelay(ms: number): number {
  if (!Number.isFinite(ms)) return Number.isNaN(ms) ? 0 : MAX_TIMER_MS;
  return Math.min(MAX_TIMER_MS, Math.max(0, ms));
}

/**
 * Calls `fn` once `ms` have passed, however large `ms` is (Infinity: never). `unref`: the timer
 * does not keep the process alive.
 */
export function setLongTimeout(fn: () => void, ms: number, options: { unref?: boolean } = {}): LongTimer {
  let timer: NodeJS.Timeout | null = null;
  let remaining = Number.isNaN(ms) ? 0 : Math.max(0, ms);
  const arm = (): void => {
    const step = clampDelay(remaining);
    remaining -= step;
    timer = setTimeout(() => {
      if (remaining > 0) arm();
      else fn();
    }, step);
    if (options.unref) timer.unref();
  };
  arm();
  return {
    clear() {
      if (timer !== null) clearTimeout(timer);
      timer = null;
      remaining = 0;
    },
  };
}

/** A wait the user reads: `45 s`, `3 m 20 s`, `1 h 0 m`, `2 d 3 h`. */
export function formatWait(ms: number): string {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} m ${seconds % 60} s`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h ${minutes % 60} m`;
  return `${Math.floor(hours / 24)} d ${hours % 24} h`;
}
