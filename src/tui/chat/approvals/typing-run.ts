/**
 * Keys typed in one run (less than TYPING_GAP_MS apart) belong together. An approval prompt that
 * appears mid-word must not take the next letters as answers: Codex's prompt does, so typing "yes…"
 * into the draft can run a command. Letters of a run begun before the prompt appeared, or of a run
 * that began with a letter that is no answer (the user started a new message), go into the draft;
 * a run that begins with y, a or n after the prompt appeared may answer it (prompt-keys.ts), however
 * soon after it appeared: a key that reaches the prompt is the prompt's (issue 30: an `n` 200 ms after
 * the prompt went into the hidden draft instead of declining).
 */
export const TYPING_GAP_MS = 400;

export class TypingRun {
  private lastKeyAt = -Infinity;
  private runStartedAt = -Infinity;
  private runInDraft = false;

  /** Notes a key press at `now`. */
  key(now: number): void {
    if (now - this.lastKeyAt >= TYPING_GAP_MS) {
      this.runStartedAt = now;
      this.runInDraft = false;
    }
    this.lastKeyAt = now;
  }

  /** A key that is no letter (Enter, an arrow) ends the run: the next letter starts a new one. */
  end(): void {
    this.lastKeyAt = -Infinity;
  }

  /** The rest of this run goes to the draft too (it began with a letter that is no answer). */
  continueInDraft(): void {
    this.runInDraft = true;
  }

  /** Whether the key just noted belongs to the draft rather than to a prompt shown since `shownAt`. */
  belongsToDraft(shownAt: number): boolean {
    return this.runInDraft || this.runStartedAt < shownAt;
  }
}
