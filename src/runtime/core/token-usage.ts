/** A thread's token usage: each response's usage in the wire's shape, added to the running total. */
import type { TokenUsageBreakdown } from '../../protocol/api.js';
import type { TokenUsage } from '../model/types.js';

export const ZERO_USAGE: TokenUsageBreakdown = {
  inputTokens: 0,
  cachedInputTokens: 0,
  outputTokens: 0,
  reasoningOutputTokens: 0,
  totalTokens: 0,
  cacheWriteInputTokens: 0,
};

export function addTokenUsage(total: TokenUsageBreakdown, usage: TokenUsage): { total: TokenUsageBreakdown; last: TokenUsageBreakdown } {
  const last: TokenUsageBreakdown = {
    inputTokens: usage.input_tokens,
    cachedInputTokens: usage.cached_input_tokens,
    outputTokens: usage.output_tokens,
    reasoningOutputTokens: usage.reasoning_output_tokens,
    totalTokens: usage.total_tokens,
    cacheWriteInputTokens: usage.cache_write_input_tokens,
  };
  return {
    last,
    total: {
      inputTokens: total.inputTokens + last.inputTokens,
      cachedInputTokens: total.cachedInputTokens + last.cachedInputTokens,
      outputTokens: total.outputTokens + last.outputTokens,
      reasoningOutputTokens: total.reasoningOutputTokens + last.reasoningOutputTokens,
      totalTokens: total.totalTokens + last.totalTokens,
      cacheWriteInputTokens: (total.cacheWriteInputTokens ?? 0) + usage.cache_write_input_tokens,
    },
  };
}
