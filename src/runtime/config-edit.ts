/**
 * Small edits of `config.toml` that keep the rest of the file as the user wrote it (comments, order,
 * other keys): one key of one table is set, its old value (a multi-line array too) replaced in place,
 * else the key is added to its table, else the table is appended. The result must still parse, or
 * nothing is written. The file is 0600, its folder 0700, and written through a rename.
 */
import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseToml } from 'smol-toml';

export type TomlScalar = string | boolean | number;
export type TomlValue = TomlScalar | readonly TomlScalar[];

/** `value` as TOML: JSON's string escapes are TOML's basic-string escapes. */
export function tomlValue(value: TomlValue): string {
  if (Array.isArray(value)) return `[${value.map((v) => tomlValue(v)).join(', ')}]`;
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}

/** `name` as a key: bare when it can be, else quoted (`[projects."/a b"]`). */
function tomlKey(name: string): string {
  return /^[A-Za-z0-9_-]+$/.test(name) ? name : JSON.stringify(name);
}

/**
 * `text` with `key = value` in the table `table` (its path; [] for the top level). Pure; throws when
 * the edited text would not parse (the file had a shape this editor cannot follow).
 */
export function withConfigValue(text: string, table: readonly string[], key: string, value: TomlValue): string {
  const line = `${tomlKey(key)} = ${tomlValue(value)}`;
  const lines = text.split('\n');
  const header = table.length === 0 ? null : `[${table.map(tomlKey).join('.')}]`;
  const start = header === null ? 0 : lines.findIndex((l) => stripComment(l) === header) + 1;
  let out: string;
  if (header !== null && start === 0) {
    const sep = text === '' || text.endsWith('\n\n') ? '' : text.endsWith('\n') ? '\n' : '\n\n';
    out = `${text}${sep}${header}\n${line}\n`;
  } else {
    let end = start;
    while (end < lines.length && !isHeader(lines[end]!)) end++;
    const keyPattern = new RegExp(`^\\s*(?:${escapeRegExp(tomlKey(key))}|${escapeRegExp(JSON.stringify(key))})\\s*=`);
    const at = lines.slice(start, end).findIndex((l) => keyPattern.test(l));
    if (at >= 0) {
      const first = start + at;
      lines.splice(first, valueLineCount(lines, first), line);
    } else {
      // After the table's last key, so a blank line or comment that closes the table stays below it.
      let insert = end;
      while (insert > start && isBlankOrComment(lines[insert - 1]!)) insert--;
      // A top-level key put straight above a table keeps a blank line between them.
      const spaced = header === null && insert < lines.length && isHeader(lines[insert]!);
      lines.splice(insert, 0, ...(spaced ? [line, ''] : [line]));
    }
    out = lines.join('\n');
    if (header === null && !out.endsWith('\n')) out += '\n';
  }
  parseToml(out);
  return out;
}

/** Sets `key` in `table` of `home/config.toml` (see withConfigValue), creating the file if need be. */
export function writeConfigValue(home: string, table: readonly string[], key: string, value: TomlValue): void {
  editConfigFile(home, (text) => withConfigValue(text, table, key, value));
}

/** Rewrites `home/config.toml` through `edit` (0600, folder 0700, atomic); a missing file is empty text. */
export function editConfigFile(home: string, edit: (text: string) => string): void {
  const file = join(home, 'config.toml');
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const next = edit(text);
  mkdirSync(home, { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, next, { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, file);
}

function stripComment(line: string): string {
  return line.replace(/\s+#.*$/, '').trim();
}

function isHeader(line: string): boolean {
  return /^\s*\[\[?[^\]=]*\]\]?\s*(#.*)?$/.test(line);
}

function isBlankOrComment(line: string): boolean {
  const t = line.trim();
  return t === '' || t.startsWith('#');
}

/** How many lines the value starting at `lines[first]` spans: more than one for an array left open. */
function valueLineCount(lines: readonly string[], first: number): number {
  let depth = 0;
  for (let i = first; i < lines.length; i++) {
    depth += bracketDepthChange(i === first ? lines[i]!.slice(lines[i]!.indexOf('=') + 1) : lines[i]!);
    if (depth <= 0) return i - first + 1;
  }
  return lines.length - first;
}

/** `[` minus `]` outside strings and comments. */
function bracketDepthChange(text: string): number {
  let depth = 0;
  let quote: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quote !== null) {
      if (ch === '\\' && quote === '"') i++;
      else if (ch === quote) quote = null;
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '#') break;
    else if (ch === '[') depth++;
    else if (ch === ']') depth--;
  }
  return depth;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
