/**
 * Quitting with Ctrl+C or Ctrl+D takes two presses, as in Claude Code and Gemini CLI: the first one
 * (on an empty, idle composer, or the Ctrl+C that empties a draft) says in the footer that the next
 * quits, and a second press of the same key within QUIT_CONFIRM_MS does. One stray press, after Esc
 * closed a search say, no longer drops the user in their shell.
 */
export type QuitKey = 'c' | 'd';

export const QUIT_CONFIRM_MS = 1500;

/** The first press: which key and until when the second one quits. */
export interface QuitArm {
  readonly key: QuitKey;
  readonly until: number;
}

export function quitPress(arm: QuitArm | null, key: QuitKey, now: number): 'quit' | QuitArm {
  if (arm !== null && arm.key === key && now < arm.until) return 'quit';
  return { key, until: now + QUIT_CONFIRM_MS };
}

export function quitHintText(key: QuitKey): string {
  return `press Ctrl+${key.toUpperCase()} again to quit`;
}
