/**
 * Keys typed in one run (less than TYPING_GAP_MS apart) belong to what the user was typing when the
 * run began. An approval prompt that appears mid-word must not take the next letters as answers:
 * Codex's prompt does, so typing "yes…" into the draft can run a command. Those letters go on into the
 * draft instead; after a pause (or a key that is not a letter) the prompt owns the keys.
 */
export const TYPING_GAP_MS = 400;
/** Letters this soon after the prompt appeared were aimed at the draft, whatever came before. */
export const PROMPT_GRACE_MS = 250;

export class TypingRun {
  private lastKeyAt = -Infinity;
  private runStartedAt = -Infinity;

  /** Notes a key press at `now`. */
  key(now: number): void {
    if (now - this.lastKeyAt >= TYPING_GAP_MS) this.runStartedAt = now;
    this.lastKeyAt = now;
  }

  /** Whether the key just noted belongs to the draft rather than to a prompt shown since `shownAt`. */
  belongsToDraft(now: number, shownAt: number): boolean {
    return this.runStartedAt < shownAt || now - shownAt < PROMPT_GRACE_MS;
  }
}
