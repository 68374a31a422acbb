/**
 * Keeps the composer's skill list current: one load at a time, and the composer told only when the
 * list changed, so a refresh on every focus costs nothing when nothing moved.
 */
import type { ChatControllerOptions } from './controller-options.js';

type Skills = Awaited<ReturnType<NonNullable<ChatControllerOptions['loadSkills']>>>;

export function skillsRefresher(load: ChatControllerOptions['loadSkills'], apply: (skills: Skills) => void): () => void {
  let loading = false;
  /** The skills last given to the composer (JSON), to tell a changed list. */
  let lastKey: string | null = null;
  return () => {
    if (load === undefined || loading) return;
    loading = true;
    load()
      .then((skills) => {
        const key = JSON.stringify(skills);
        if (key === lastKey) return;
        lastKey = key;
        apply(skills);
      })
      .catch(() => undefined)
      .finally(() => {
        loading = false;
      });
  };
}
