/**
 * The YAML front matter of a SKILL.md: a `---` line, YAML, a closing `---` (or `...`) line, then the
 * skill's text. Parsed with `yaml` (YAML 1.2, no custom tags, aliases capped), so quoted values,
 * `>` / `|` blocks and multi-line descriptions read as YAML says. One parser for every reader of
 * skill files: the TUI's skill list (names and descriptions for the `$` popup and /skills) and
 * whatever in the runtime needs the fields; the runtime injects the file itself verbatim, as Codex does.
 */
import { parseDocument } from 'yaml';

export interface SkillFile {
  /** The front matter's mapping; null without front matter, or when it is not a YAML mapping. */
  fields: Record<string, unknown> | null;
  /** Why the front matter could not be read (first YAML error), else null. */
  error: string | null;
  /** The text after the front matter (the whole file without one). */
  body: string;
}

const OPEN = /^\uFEFF?---[ \t]*$/;
const CLOSE = /^(?:---|\.\.\.)[ \t]*$/;

export function parseSkillFile(text: string): SkillFile {
  const lines = text.split(/\r?\n/);
  if (!OPEN.test(lines[0] ?? '')) return { fields: null, error: null, body: text };
  let end = lines.findIndex((line, i) => i > 0 && CLOSE.test(line));
  // Never closed (or cut off by a partial read): all of it is front matter.
  if (end < 0) end = lines.length;
  const body = lines.slice(end + 1).join('\n');
  const doc = parseDocument(lines.slice(1, end).join('\n'), { prettyErrors: false });
  const problem = doc.errors[0];
  if (problem !== undefined) return { fields: null, error: problem.message.split('\n')[0] ?? problem.message, body };
  const value: unknown = doc.toJS({ maxAliasCount: 100 });
  if (value === null || value === undefined) return { fields: {}, error: null, body };
  if (typeof value !== 'object' || Array.isArray(value))
    return { fields: null, error: 'front matter is not a mapping of keys to values', body };
  return { fields: value as Record<string, unknown>, error: null, body };
}

/** A string field, trimmed; undefined when absent, empty or not a string. */
export function stringField(file: SkillFile, key: string): string | undefined {
  const value = file.fields?.[key];
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}
