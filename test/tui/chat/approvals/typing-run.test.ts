import { describe, expect, it } from 'vitest';
import { PROMPT_GRACE_MS, TYPING_GAP_MS, TypingRun } from '../../../../src/tui/chat/approvals/typing-run.js';

describe('TypingRun', () => {
  it('keys less than the gap apart are one run; a run begun before the prompt belongs to the draft', () => {
    const run = new TypingRun();
    const step = TYPING_GAP_MS - 100;
    run.key(1_000);
    run.key(1_000 + step);
    const shownAt = 1_000 + step + 1;
    run.key(1_000 + 2 * step);
    expect(1_000 + 2 * step - shownAt).toBeGreaterThan(PROMPT_GRACE_MS);
    expect(run.belongsToDraft(1_000 + 2 * step, shownAt)).toBe(true);
  });

  it('a pause ends the run: the next key after the grace answers the prompt', () => {
    const run = new TypingRun();
    run.key(0);
    const shownAt = 100;
    run.key(shownAt + PROMPT_GRACE_MS + TYPING_GAP_MS);
    expect(run.belongsToDraft(shownAt + PROMPT_GRACE_MS + TYPING_GAP_MS, shownAt)).toBe(false);
  });

  it('any key within the grace after the prompt appeared belongs to the draft', () => {
    const run = new TypingRun();
    run.key(10_000);
    expect(run.belongsToDraft(10_000, 10_000 - PROMPT_GRACE_MS + 1)).toBe(true);
  });

  it('a run sent to the draft stays there until a pause', () => {
    const run = new TypingRun();
    run.key(5_000);
    expect(run.belongsToDraft(5_000, 0)).toBe(false);
    run.continueInDraft();
    run.key(5_100);
    expect(run.belongsToDraft(5_100, 0)).toBe(true);
    run.key(5_100 + TYPING_GAP_MS);
    expect(run.belongsToDraft(5_100 + TYPING_GAP_MS, 0)).toBe(false);
  });
});
