/**
 * How much of the model's context window is left, as Codex's footer shows it (`42% context left`).
 * Codex counts the last request's tokens against the window less a 12,000-token baseline (the
 * instructions and tools every request carries), so an empty thread shows 100 %.
 */
import type { TokenUsageBreakdown } from '../../../protocol/api.js';

/** Codex's `BASELINE_TOKENS`. */
const BASELINE_TOKENS = 12_000;

/** Input windows as Codex's model families give them; a model not listed shows no percentage. */
const WINDOWS: ReadonlyArray<readonly [RegExp, number]> = [
  [/^gpt-5(?:[.-]|$)/, 272_000],
  [/^codex-mini/, 200_000],
  [/^o[34](?:-|$)/, 200_000],
  [/^gpt-4\.1(?:-|$)/, 1_047_576],
  [/^gpt-4o(?:-|$)/, 128_000],
  [/^gpt-oss-/, 96_000],
];

/** The footer shows what is left once it drops under this. */
export const FOOTER_CONTEXT_BELOW_PERCENT = 50;

export function contextWindowFor(model: string): number | null {
  const name = model.trim().toLowerCase();
  for (const [pattern, window] of WINDOWS) if (pattern.test(name)) return window;
  return null;
}

/** Percent of the window left after the last request (0–100, rounded), as Codex computes it. */
export function contextLeftPercent(last: TokenUsageBreakdown, window: number): number {
  if (window <= BASELINE_TOKENS) return 0;
  const effective = window - BASELINE_TOKENS;
  const used = Math.max(0, last.totalTokens - BASELINE_TOKENS);
  const remaining = Math.max(0, effective - used);
  return Math.round(Math.min(100, Math.max(0, (remaining / effective) * 100)));
}
