import { describe, expect, it } from 'vitest';
import { contextLeftPercent, contextWindowFor, footerContextLeft } from '../../../../src/tui/chat/turn/context-window.js';

const used = (totalTokens: number) => ({
  inputTokens: totalTokens,
  cachedInputTokens: 0,
  outputTokens: 0,
  reasoningOutputTokens: 0,
  totalTokens,
});

describe('context window', () => {
  it('knows the gpt-5 family as 272,000 tokens, as Codex does, and no window for an unknown model', () => {
    for (const model of ['gpt-5', 'gpt-5-codex', 'gpt-5.1-codex', 'gpt-5.1-codex-max', 'GPT-5-mini'])
      expect(contextWindowFor(model)).toBe(272_000);
    expect(contextWindowFor('o3')).toBe(200_000);
    expect(contextWindowFor('tiller-offline')).toBeNull();
    expect(contextWindowFor('gpt-50x')).toBeNull();
  });

  it("counts the last request against the window less Codex's 12,000-token baseline", () => {
    expect(contextLeftPercent(used(0), 272_000)).toBe(100);
    expect(contextLeftPercent(used(12_000), 272_000)).toBe(100);
    expect(contextLeftPercent(used(142_000), 272_000)).toBe(50);
    expect(contextLeftPercent(used(272_000), 272_000)).toBe(0);
    expect(contextLeftPercent(used(400_000), 272_000)).toBe(0);
    expect(contextLeftPercent(used(5), 10_000)).toBe(0);
  });

  it('shows in the footer only under 50 % and only for a known window', () => {
    expect(footerContextLeft('gpt-5.1-codex', used(142_000))).toBeNull();
    expect(footerContextLeft('gpt-5.1-codex', used(150_000))).toBe('47% context left');
    expect(footerContextLeft('gpt-5.1-codex', undefined)).toBeNull();
    expect(footerContextLeft('fake-model', used(1_000_000))).toBeNull();
  });
});
