/**
 * `[mcp_servers.NAME]` tables (Codex's format, plus Tiller's `trusted`): checked key by key when
 * config.toml is read, kept as written (snake_case), and resolved with their defaults when a
 * server starts. A bad entry is a warning and that server is left out; the rest of the file applies.
 * Loaded at start-up: no MCP SDK here.
 */
import { clampDelay } from '../../protocol/long-timer.js';

/** One `[mcp_servers.NAME]` table as written (after the check): stdio (`command`) or streamable HTTP (`url`). */
export interface McpServerConfig {
  /** stdio: the program to run, with `args`, `env` (added to a small inherited set), `env_vars` (names passed through) and `cwd`. */
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  env_vars?: string[];
  cwd?: string;
  /** Streamable HTTP: the endpoint, and the variable holding a bearer token for it. */
  url?: string;
  bearer_token_env_var?: string;
  http_headers?: Record<string, string>;
  /** Default true; a disabled server is listed but never started. */
  enabled?: boolean;
  /** How long starting (spawn, initialize, tools/list) may take; default 10. */
  startup_timeout_sec?: number;
  /** How long one tool call may take; default 60. */
  tool_timeout_sec?: number;
  /** Only these tools are offered (all when absent); `disabled_tools` are then taken out. */
  enabled_tools?: string[];
  disabled_tools?: string[];
  /** Tiller's: its tools run without asking, whatever the approval policy. */
  trusted?: boolean;
}

export const DEFAULT_STARTUP_TIMEOUT_SEC = 10;
export const DEFAULT_TOOL_TIMEOUT_SEC = 60;

/** A server name: what `mcp://NAME` mentions match. */
export const MCP_SERVER_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

/** The server's config with its defaults, as the manager uses it. */
export type ResolvedMcpServer = {
  name: string;
  enabled: boolean;
  startupTimeoutMs: number;
  toolTimeoutMs: number;
  enabledTools: ReadonlySet<string> | null;
  disabledTools: ReadonlySet<string>;
  trusted: boolean;
} & (
  | { transport: 'stdio'; command: string; args: string[]; env: Record<string, string>; envVars: string[]; cwd: string | null }
  | { transport: 'streamableHttp'; url: string; bearerTokenEnvVar: string | null; httpHeaders: Record<string, string> }
);

export function resolveMcpServer(name: string, config: McpServerConfig): ResolvedMcpServer {
  const common = {
    name,
    enabled: config.enabled ?? true,
    startupTimeoutMs: clampDelay(Math.round((config.startup_timeout_sec ?? DEFAULT_STARTUP_TIMEOUT_SEC) * 1000)),
    toolTimeoutMs: clampDelay(Math.round((config.tool_timeout_sec ?? DEFAULT_TOOL_TIMEOUT_SEC) * 1000)),
    enabledTools: config.enabled_tools ? new Set(config.enabled_tools) : null,
    disabledTools: new Set(config.disabled_tools ?? []),
    trusted: config.trusted ?? false,
  };
  if (config.url !== undefined) {
    return {
      ...common,
      transport: 'streamableHttp',
      url: config.url,
      bearerTokenEnvVar: config.bearer_token_env_var ?? null,
      httpHeaders: config.http_headers ?? {},
    };
  }
  return {
    ...common,
    transport: 'stdio',
    command: config.command ?? '',
    args: config.args ?? [],
    env: config.env ?? {},
    envVars: config.env_vars ?? [],
    cwd: config.cwd ?? null,
  };
}

// ---- the check ------------------------------------------------------------------------------

type FieldCheck = (value: unknown) => string | null;

const isTable = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date);
const nonEmptyString: FieldCheck = (v) => (typeof v === 'string' && v.length > 0 ? null : 'expected a non-empty string');
const stringList: FieldCheck = (v) => (Array.isArray(v) && v.every((s) => typeof s === 'string') ? null : 'expected a list of strings');
const nameList: FieldCheck = (v) =>
  Array.isArray(v) && v.every((s) => typeof s === 'string' && s.length > 0) ? null : 'expected a list of names';
const stringTable: FieldCheck = (v) =>
  isTable(v) && Object.values(v).every((s) => typeof s === 'string') ? null : 'expected a table of strings';
const boolean: FieldCheck = (v) => (typeof v === 'boolean' ? null : 'expected true or false');
const seconds: FieldCheck = (v) => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? null : 'expected a positive number of seconds');
const httpUrl: FieldCheck = (v) => {
  if (typeof v !== 'string' || !URL.canParse(v)) return 'expected an http(s) URL';
  const protocol = new URL(v).protocol;
  return protocol === 'http:' || protocol === 'https:' ? null : 'expected an http(s) URL';
};

const FIELDS: Record<keyof McpServerConfig, FieldCheck> = {
  command: nonEmptyString,
  args: stringList,
  env: stringTable,
  env_vars: nameList,
  cwd: nonEmptyString,
  url: httpUrl,
  bearer_token_env_var: nonEmptyString,
  http_headers: stringTable,
  enabled: boolean,
  startup_timeout_sec: seconds,
  tool_timeout_sec: seconds,
  enabled_tools: nameList,
  disabled_tools: nameList,
  trusted: boolean,
};

const STDIO_ONLY: Array<keyof McpServerConfig> = ['command', 'args', 'env', 'env_vars', 'cwd'];
const HTTP_ONLY: Array<keyof McpServerConfig> = ['url', 'bearer_token_env_var', 'http_headers'];

/**
 * The usable servers of an `[mcp_servers]` table; each one that cannot be used is a warning
 * (`config.toml: mcp_servers.NAME: reason (server ignored)`) and is left out. An unknown key only
 * warns (Codex has more keys than Tiller reads).
 */
export function checkMcpServers(raw: Record<string, unknown>, warnings: string[]): Record<string, McpServerConfig> {
  const out: Record<string, McpServerConfig> = {};
  for (const [name, entry] of Object.entries(raw)) {
    const drop = (reason: string): void => void warnings.push(`config.toml: mcp_servers.${name}: ${reason} (server ignored)`);
    if (!MCP_SERVER_NAME.test(name)) {
      drop('a server name may hold only letters, digits, `_`, `-` and `.`, and starts with a letter or digit');
      continue;
    }
    if (!isTable(entry)) {
      drop('expected a table');
      continue;
    }
    const kept: Record<string, unknown> = {};
    let problem: string | null = null;
    for (const [key, value] of Object.entries(entry)) {
      const check = Object.hasOwn(FIELDS, key) ? FIELDS[key as keyof McpServerConfig] : undefined;
      if (check === undefined) {
        warnings.push(`config.toml: unknown key mcp_servers.${name}.${key} (ignored)`);
        continue;
      }
      const why = check(value);
      if (why !== null) {
        problem ??= `${key}: ${why}`;
        continue;
      }
      kept[key] = value;
    }
    if (problem !== null) {
      drop(problem);
      continue;
    }
    const hasCommand = kept.command !== undefined;
    const hasUrl = kept.url !== undefined;
    if (hasCommand === hasUrl) {
      drop(
        hasCommand
          ? 'give either `command` (stdio) or `url` (streamable HTTP), not both'
          : 'expected `command` (stdio) or `url` (streamable HTTP)',
      );
      continue;
    }
    const foreign = (hasCommand ? HTTP_ONLY : STDIO_ONLY).filter((key) => kept[key] !== undefined);
    if (foreign.length > 0) {
      drop(
        `${foreign.join(', ')} ${foreign.length === 1 ? 'does' : 'do'} not apply to a ${hasCommand ? 'stdio' : 'streamable HTTP'} server`,
      );
      continue;
    }
    out[name] = kept as McpServerConfig;
  }
  return out;
}
