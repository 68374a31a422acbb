/**
 * `tiller exec -c key=value` (docs/codex-parity.md#exec-command-line), as Codex reads it: the key a
 * dotted path into config.toml's tables, the value TOML (a value that does not parse as TOML is the
 * raw string, so `-c model=o3` works unquoted). The overrides are checked like config.toml's keys
 * and laid over the file's (loadConfig) before its profile is applied, as Codex applies them.
 */
import { parse as parseToml } from 'smol-toml';
import { checkConfigFile } from '../config-check.js';

export interface CheckedOverrides {
  /** The usable keys, as a table shaped like config.toml. */
  table: Record<string, unknown>;
  /** `openai_base_url` (the Codex SDK's `baseUrl`): where prompts go, beating OPENAI_BASE_URL as a flag does. */
  baseUrl?: string;
  /** One line per ignored key (`-c unknown key web_search (ignored)`). */
  warnings: string[];
  /** A value of a key that decides where prompts go that cannot be used: a usage error. */
  error: string | null;
}

function tomlValue(raw: string): unknown {
  try {
    return parseToml(`value = ${raw}`).value;
  } catch {
    return raw;
  }
}

function isTable(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

/** `key=value` strings (each has an `=`, the parser made sure) into one table; a later key wins. */
export function overridesTable(pairs: readonly string[]): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    const path = pair.slice(0, at).trim().split('.');
    let table = root;
    for (const key of path.slice(0, -1)) {
      const next = Object.hasOwn(table, key) ? table[key] : undefined;
      table = isTable(next) ? next : (table[key] = {});
    }
    table[path.at(-1)!] = tomlValue(pair.slice(at + 1).trim());
  }
  return root;
}

/**
 * The overrides, checked as config.toml's keys are; warnings and the error name the flag (exec's
 * `-c`, the UI's `--config`) instead of the file.
 */
export function checkOverrides(pairs: readonly string[], flag = '-c'): CheckedOverrides {
  const { openai_base_url: baseUrl, ...table } = overridesTable(pairs);
  const out: CheckedOverrides = { table: {}, warnings: [], error: null };
  if (baseUrl !== undefined) {
    if (typeof baseUrl !== 'string' || !URL.canParse(baseUrl)) return { ...out, error: `${flag} openai_base_url: expected a URL` };
    out.baseUrl = baseUrl;
  }
  const checked = checkConfigFile(table);
  if (checked.error !== null) return { ...out, error: `${flag} ${checked.error.path.join('.')}: ${checked.error.reason}` };
  out.table = checked.file as Record<string, unknown>;
  out.warnings = checked.warnings.map((line) => line.replace(/^config\.toml: /, `${flag} `));
  return out;
}
