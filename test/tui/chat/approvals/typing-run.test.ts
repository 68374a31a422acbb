import { describe, expect, it } from 'vitest';
import { TYPING_GAP_MS, TypingRun } from '../../../../src/tui/chat/approvals/typing-run.js';

describe('TypingRun', () => {
  it('keys less than the gap apart are one run; a run begun before the prompt belongs to the draft', () => {
    const run = new TypingRun();
    const step = TYPING_GAP_MS - 100;
    run.key(1_000);
    run.key(1_000 + step);
    const shownAt = 1_000 + step + 1;
    run.key(1_000 + 2 * step);
    expect(run.belongsToDraft(shownAt)).toBe(true);
  });

  it('a pause ends the run: the next key answers the prompt', () => {
    const run = new TypingRun();
    run.key(0);
    const shownAt = 100;
    run.key(shownAt + TYPING_GAP_MS);
    expect(run.belongsToDraft(shownAt)).toBe(false);
  });

  it('a run begun after the prompt appeared is the prompt’s however soon it came (no grace)', () => {
    const run = new TypingRun();
    run.key(10_000);
    expect(run.belongsToDraft(10_000 - 1)).toBe(false);
  });

  it('a run sent to the draft stays there until a pause', () => {
    const run = new TypingRun();
    run.key(5_000);
    expect(run.belongsToDraft(0)).toBe(false);
    run.continueInDraft();
    run.key(5_100);
    expect(run.belongsToDraft(0)).toBe(true);
    run.key(5_100 + TYPING_GAP_MS);
    expect(run.belongsToDraft(0)).toBe(false);
  });

  it('a key that is no letter (the Enter that sent the message) ends the run at once', () => {
    const run = new TypingRun();
    run.key(1_000);
    run.end();
    const shownAt = 1_050;
    run.key(1_100);
    expect(run.belongsToDraft(shownAt)).toBe(false);
  });
});
