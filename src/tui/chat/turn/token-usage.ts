/**
 * The token counts as one line, in Codex's words: the exit line under the resume hint
 * (`Token usage so far: total=… input=… (+ … cached) output=… (reasoning …)`) and /status. As
 * Codex's, `input` is the input not read from the cache and `total` that plus the output.
 */
import type { TokenUsageBreakdown } from '../../../protocol/api.js';

const count = (n: number): string => n.toLocaleString('en-US');

export function tokenUsageText(total: TokenUsageBreakdown): string {
  const input = Math.max(0, total.inputTokens - total.cachedInputTokens);
  const cached = total.cachedInputTokens > 0 ? ` (+ ${count(total.cachedInputTokens)} cached)` : '';
  const reasoning = total.reasoningOutputTokens > 0 ? ` (reasoning ${count(total.reasoningOutputTokens)})` : '';
  return `total=${count(input + total.outputTokens)} input=${count(input)}${cached} output=${count(total.outputTokens)}${reasoning}`;
}

export function tokenUsageExitLine(total: TokenUsageBreakdown): string {
  return `Token usage so far: ${tokenUsageText(total)}`;
}

/** The resume line (if any), the usage under it (once any tokens were used); null when neither. */
export function exitLines(resume: string | null, usage: TokenUsageBreakdown | undefined): string | null {
  const lines = [resume, usage === undefined || usage.totalTokens === 0 ? null : tokenUsageExitLine(usage)];
  const shown = lines.filter((line): line is string => line !== null);
  return shown.length === 0 ? null : shown.join('\n');
}
