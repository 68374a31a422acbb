import { describe, expect, it } from 'vitest';
import { contextLeftPercent, contextWindowFor } from '../../../../src/tui/chat/turn/context-window.js';
import { contextLeftOf, statusLineItems } from '../../../../src/tui/components/status-line.js';

const DATA = {
  model: '',
  effort: null,
  contextLeft: null,
  usedTokens: null,
  cwd: '/w',
  branch: null,
  sandbox: { text: 'auto', danger: false },
};

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

  it('shows in the default footer only under 50 % and only for a known window', () => {
    const footer = (model: string, last: ReturnType<typeof used> | undefined) =>
      statusLineItems(null, { ...DATA, model, contextLeft: contextLeftOf(model, last) }).map((item) => item.text);
    expect(footer('gpt-5.1-codex', used(142_000))).toEqual(['auto', 'gpt-5.1-codex']);
    expect(footer('gpt-5.1-codex', used(150_000))).toEqual(['auto', '47% context left', 'gpt-5.1-codex']);
    expect(footer('gpt-5.1-codex', undefined)).toEqual(['auto', 'gpt-5.1-codex']);
    expect(footer('fake-model', used(1_000_000))).toEqual(['auto', 'fake-model']);
  });
});
