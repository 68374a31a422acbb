/**
 * The keys config.toml may hold and what each must be. Checked by hand rather than with zod: the
 * config is read before the first frame, and zod's chunk would add ~50 ms to every start-up.
 *
 * Codex's names are accepted where they mean the same thing, so one file can serve both. An
 * unknown key, or a bad value of a key that only tunes behaviour, is a warning and that key is
 * ignored; a bad value of a key that decides where prompts go (and with which key) is an error,
 * because ignoring it would send the prompt elsewhere (OpenAI, or the offline model).
 */
import {
  APPROVAL_POLICIES,
  REASONING_EFFORTS,
  SANDBOX_MODES,
  type ApprovalPolicy,
  type ReasoningEffort,
  type SandboxMode,
} from '../protocol/api.js';
import { checkMcpServers, type McpServerConfig } from './mcp/config.js';

export const WEB_SEARCH_MODES = ['live', 'cached', 'disabled'] as const;
export type WebSearchMode = (typeof WEB_SEARCH_MODES)[number];

export const WIRE_APIS = ['responses', 'chat', 'anthropic'] as const;
export type WireApi = (typeof WIRE_APIS)[number];

/** Codex's `[model_providers.<id>]` table (providers.ts holds the built-in ones). */
export interface ModelProviderFile {
  base_url?: string;
  env_key?: string;
  name?: string;
  wire_api?: WireApi;
  /** Added to every request URL (Azure's `api-version`). */
  query_params?: Record<string, string>;
  http_headers?: Record<string, string>;
  /** Header name → the environment variable holding its value (unset variables send no header). */
  env_http_headers?: Record<string, string>;
  request_max_retries?: number;
  stream_max_retries?: number;
}

export interface ConfigFile {
  model?: string;
  base_url?: string;
  api_key_env?: string;
  model_provider?: string;
  model_providers?: Record<string, ModelProviderFile>;
  approval_policy?: ApprovalPolicy;
  sandbox_mode?: SandboxMode;
  sandbox_workspace_write?: { writable_roots?: string[]; network_access?: boolean };
  model_reasoning_effort?: ReasoningEffort;
  /** What the /model picker offers when the provider cannot list its models. */
  models?: string[];
  /** The `[profiles.NAME]` used when no `--profile` is given. */
  profile?: string;
  profiles?: Record<string, ProfileFile>;
  /** `[mcp_servers.NAME]`: each checked on its own (mcp/config.ts); a bad one is left out with a warning. */
  mcp_servers?: Record<string, McpServerConfig>;
  vim_mode_default?: boolean;
  /** Two keys that, typed quickly in Vim's Insert mode, act as Esc (`jj`, `jk`). */
  vim_escape_sequence?: string;
  model_supports_images?: boolean;
  interrupt_marker?: boolean;
  checkpoints?: boolean;
  request_max_retries?: number;
  stream_max_retries?: number;
  stream_idle_timeout_ms?: number;
  hooks?: { user_prompt_submit?: string[] };
  /** Codex's: the environment the model's commands get (commands/environment.ts). */
  shell_environment_policy?: {
    inherit?: 'all' | 'core' | 'none';
    ignore_default_excludes?: boolean;
    exclude?: string[];
    set?: Record<string, string>;
    include_only?: string[];
  };
  skills_dir?: string;
  /** Codex's `[projects."<path>"] trust_level`: a trusted directory needs no Git repository for `tiller exec`. */
  projects?: Record<string, { trust_level?: 'trusted' | 'untrusted' }>;
  /** Codex's: the hosted web search, from its cache (`cached`, the default), the live web, or not at all. */
  web_search?: WebSearchMode;
  /** Codex's cap on the AGENTS.md text a thread sends (bytes; 0 sends none). */
  project_doc_max_bytes?: number;
  /** How the TUI asks for attention when a turn ends or an approval waits while the terminal is unfocused. */
  notify?: NotifyMethod;
  theme?: ThemeSetting;
  /** Codex's `[tui]`: `status_line`, the footer's items by Codex's ids (tui/components/status-line.ts). */
  tui?: { status_line?: string[] };
}

export const NOTIFY_METHODS = ['osc9', 'osc777', 'bell', 'off'] as const;
export type NotifyMethod = (typeof NOTIFY_METHODS)[number];
/** `theme`: the colours (tui/theme.ts); `auto` picks dark or light from the terminal's background (OSC 11). */
export const THEME_SETTINGS = ['auto', 'dark', 'light', 'high-contrast'] as const;
export type ThemeSetting = (typeof THEME_SETTINGS)[number];

/** Keys a profile cannot set: they are the file's, not a profile's. */
const FILE_ONLY_KEYS = ['profile', 'profiles', 'model_providers', 'mcp_servers', 'projects'] as const;

/** A `[profiles.NAME]` table: the top-level keys (but the file's own), each replacing the top-level value. */
export type ProfileFile = Omit<ConfigFile, (typeof FILE_ONLY_KEYS)[number]>;

/** Why the value does not fit, or null. */
type Check = (value: unknown) => string | null;

type Node =
  | { kind: 'value'; check: Check; critical?: true }
  | { kind: 'table'; fields: Record<string, Node>; critical?: true }
  /** `[name.ANY]`: a table of same-shaped tables. */
  | { kind: 'named'; entry: Node; critical?: true }
  /** A table checked by its own reader, which warns and leaves out what it cannot use (`[mcp_servers.*]`). */
  | { kind: 'custom'; read: (table: Record<string, unknown>, warnings: string[]) => unknown };

const isNonEmptyString = (v: unknown): v is string => typeof v === 'string' && v.length > 0;
const isTable = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date);

const value = (check: Check, critical?: true): Node => (critical ? { kind: 'value', check, critical } : { kind: 'value', check });
const oneOf =
  (choices: readonly string[]): Check =>
  (v) =>
    typeof v === 'string' && choices.includes(v) ? null : `expected one of ${choices.map((c) => `"${c}"`).join(', ')}`;
const string: Check = (v) => (isNonEmptyString(v) ? null : 'expected a non-empty string');
const url: Check = (v) => (isNonEmptyString(v) && URL.canParse(v) ? null : 'expected a URL');
const boolean: Check = (v) => (typeof v === 'boolean' ? null : 'expected true or false');
const stringList =
  (what: string): Check =>
  (v) =>
    Array.isArray(v) && v.every(isNonEmptyString) ? null : `expected a list of ${what}`;
const stringTable: Check = (v) =>
  isTable(v) && Object.values(v).every((x) => typeof x === 'string') ? null : 'expected a table of strings';
const retries: Check = (v) =>
  Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 100 ? null : 'expected a whole number from 0 to 100';

const SCHEMA: Record<string, Node> = {
  model: value(string, true),
  base_url: value(url, true),
  api_key_env: value(string, true),
  model_provider: value(string, true),
  model_providers: {
    kind: 'named',
    critical: true,
    entry: {
      kind: 'table',
      critical: true,
      fields: {
        base_url: value(url, true),
        env_key: value(string, true),
        name: value(string, true),
        // An unknown wire would send the prompt in a shape the server cannot read.
        wire_api: value(oneOf(WIRE_APIS), true),
        query_params: value(stringTable, true),
        http_headers: value(stringTable, true),
        env_http_headers: value(stringTable, true),
        request_max_retries: value(retries, true),
        stream_max_retries: value(retries, true),
      },
    },
  },
  // Codex's `on-failure` is deprecated there; its nearest meaning here is on-request.
  // A mistyped policy or sandbox must not fall back to one that allows more than the user asked.
  approval_policy: value(oneOf([...APPROVAL_POLICIES, 'on-failure']), true),
  sandbox_mode: value(oneOf(SANDBOX_MODES), true),
  sandbox_workspace_write: {
    kind: 'table',
    fields: { writable_roots: value(stringList('paths')), network_access: value(boolean) },
  },
  model_reasoning_effort: value(oneOf(REASONING_EFFORTS)),
  mcp_servers: { kind: 'custom', read: checkMcpServers },
  vim_mode_default: value(boolean),
  vim_escape_sequence: value((v) =>
    typeof v === 'string' && /^[^\s\p{C}]{2}$/u.test(v) ? null : 'expected two characters, such as "jj" or "jk"',
  ),
  model_supports_images: value(boolean),
  /** Record the `<turn_aborted>` marker into history after an interrupt. */
  interrupt_marker: value(boolean),
  checkpoints: value(boolean),
  request_max_retries: value(retries),
  stream_max_retries: value(retries),
  stream_idle_timeout_ms: value((v) => (Number.isInteger(v) && (v as number) > 0 ? null : 'expected a positive whole number')),
  hooks: { kind: 'table', fields: { user_prompt_submit: value(stringList('commands')) } },
  // What keeps secrets out of commands: a value that cannot be read stops Tiller rather than leak one.
  shell_environment_policy: {
    kind: 'table',
    critical: true,
    fields: {
      inherit: value(oneOf(['all', 'core', 'none']), true),
      ignore_default_excludes: value(boolean, true),
      exclude: value(stringList('patterns'), true),
      set: value((v) => (isTable(v) && Object.values(v).every((x) => typeof x === 'string') ? null : 'expected a table of strings'), true),
      include_only: value(stringList('patterns'), true),
    },
  },
  skills_dir: value(string),
  project_doc_max_bytes: value((v) =>
    Number.isInteger(v) && (v as number) >= 0 ? null : 'expected a whole number of bytes (0 sends no AGENTS.md)',
  ),
  models: value(stringList('model names')),
  // Codex's `notify` is a program to run (a list); Tiller writes to the terminal instead.
  notify: value((v) =>
    Array.isArray(v) ? `a program to run (Codex's notify) is not supported; ${oneOf(NOTIFY_METHODS)(null)}` : oneOf(NOTIFY_METHODS)(v),
  ),
  theme: value(oneOf(THEME_SETTINGS)),
  tui: { kind: 'table', fields: { status_line: value(stringList('status line items')) } },
  projects: { kind: 'named', entry: { kind: 'table', fields: { trust_level: value(oneOf(['trusted', 'untrusted'])) } } },
  web_search: value(oneOf(WEB_SEARCH_MODES)),
};
/** Codex's format: a table of the top-level keys. A profile that cannot be read cannot be chosen. */
const PROFILE_FIELDS: Record<string, Node> = Object.fromEntries(
  Object.entries(SCHEMA).filter(([key]) => !(FILE_ONLY_KEYS as readonly string[]).includes(key)),
);
SCHEMA.profile = value(string, true);
SCHEMA.profiles = { kind: 'named', critical: true, entry: { kind: 'table', critical: true, fields: PROFILE_FIELDS } };

/** A bad value of a critical key: `path` is the key's table path plus the key. */
export interface ConfigProblem {
  path: string[];
  reason: string;
}

export interface CheckedConfig {
  file: ConfigFile;
  /** One line per ignored key, for the user. */
  warnings: string[];
  /** The first critical problem; the file must not be used. */
  error: ConfigProblem | null;
}

/** Checks a parsed config.toml: what can be used, what was ignored, and whether it cannot be used at all. */
export function checkConfigFile(raw: Record<string, unknown>): CheckedConfig {
  const out: CheckedConfig = { file: {}, warnings: [], error: null };
  out.file = (walk({ kind: 'table', fields: SCHEMA }, raw, [], out) ?? {}) as ConfigFile;
  const tables: Array<[string, ProfileFile]> = [
    ['', out.file],
    ...Object.entries(out.file.profiles ?? {}).map(([name, p]): [string, ProfileFile] => [`profiles.${name}.`, p]),
  ];
  for (const [prefix, table] of tables) {
    if ((table.approval_policy as string | undefined) !== 'on-failure') continue;
    out.warnings.push(`config.toml: ${prefix}approval_policy "on-failure" is read as "on-request"`);
    table.approval_policy = 'on-request';
  }
  return out;
}

/** The value with its ignored parts left out, or undefined when all of it is ignored. */
function walk(node: Node, v: unknown, path: string[], out: CheckedConfig): unknown {
  const bad = (reason: string): undefined => {
    if ('critical' in node && node.critical) out.error ??= { path, reason };
    else out.warnings.push(`config.toml: ${path.join('.')}: ${reason} (ignored)`);
    return undefined;
  };
  if (node.kind === 'value') {
    const why = node.check(v);
    return why === null ? v : bad(why);
  }
  if (!isTable(v)) return bad('expected a table');
  if (node.kind === 'custom') return node.read(v, out.warnings);
  const kept: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(v)) {
    // hasOwn: a key such as `constructor` must not find Object.prototype's.
    const field = node.kind === 'named' ? node.entry : Object.hasOwn(node.fields, key) ? node.fields[key] : undefined;
    if (field === undefined) {
      out.warnings.push(`config.toml: unknown key ${[...path, key].join('.')} (ignored)`);
      continue;
    }
    const checked = walk(field, child, [...path, key], out);
    if (checked !== undefined) kept[key] = checked;
  }
  return kept;
}
