/** How long an exec_command or write_stdin call waits for output before it answers (Codex's bounds). */
export const MIN_YIELD_TIME_MS = 250;
export const MAX_YIELD_TIME_MS = 30_000;
/** An empty write_stdin (a poll) waits at least this long, as Codex's. */
export const MIN_POLL_YIELD_TIME_MS = 5_000;

export const clampYield = (ms: number, min = MIN_YIELD_TIME_MS): number => Math.min(MAX_YIELD_TIME_MS, Math.max(min, ms));
