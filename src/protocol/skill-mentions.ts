/**
 * `$name` mentions of a skill in message text, read one way by the TUI (which skill items it sends,
 * what /inspect shows) and by the runtime (which SKILL.md files the model gets), so the two agree.
 */

/** A skill's name: a letter or digit, then letters, digits, `_`, `.` or `-`. */
export const SKILL_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

/** `$` not inside a word or after another `$`, then a name (a sentence's full stop is not part of it). */
const TEXT_SKILL_MENTION = /(^|[^\w$])\$([A-Za-z0-9][A-Za-z0-9_.-]*)/g;

/** The skill names mentioned in `text`, in order, each once. */
export function skillMentionNames(text: string): string[] {
  const names: string[] = [];
  for (const match of text.matchAll(TEXT_SKILL_MENTION)) {
    const name = match[2]!.replace(/[.]+$/, '');
    if (name.length > 0 && !names.includes(name)) names.push(name);
  }
  return names;
}
