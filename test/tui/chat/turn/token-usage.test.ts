import { describe, expect, it } from 'vitest';
import { tokenUsageExitLine } from '../../../../src/tui/chat/turn/token-usage.js';

describe('token usage line', () => {
  it("reads as Codex's: uncached input, cached and reasoning only when there are some, thousands separated", () => {
    const usage = { inputTokens: 12_345, cachedInputTokens: 2_000, outputTokens: 1_500, reasoningOutputTokens: 700, totalTokens: 13_845 };
    expect(tokenUsageExitLine(usage)).toBe('Token usage so far: total=11,845 input=10,345 (+ 2,000 cached) output=1,500 (reasoning 700)');
    expect(tokenUsageExitLine({ ...usage, cachedInputTokens: 0, reasoningOutputTokens: 0 })).toBe(
      'Token usage so far: total=13,845 input=12,345 output=1,500',
    );
  });
});
