/**
 * Configuration: `$TILLER_HOME/config.toml` (default ~/.tiller). Flags (overrides) beat the
 * environment, which beats the selected `[profiles.NAME]`, which beats the file's top-level keys,
 * which beat the defaults.
 */
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { parse as parseToml, TomlError } from 'smol-toml';
import type { ApprovalPolicy, ReasoningEffort, SandboxMode } from '../protocol/api.js';
import { clampDelay } from '../protocol/long-timer.js';
import { registerSecret } from '../protocol/redact.js';
import {
  checkConfigFile,
  type ConfigFile,
  type ConfigProblem,
  type ModelProviderFile,
  type NotifyMethod,
  type ProfileFile,
  type ThemeSetting,
  type WebSearchMode,
} from './config-check.js';
import type { McpServerConfig } from './mcp/config.js';
import { DEFAULT_SHELL_ENVIRONMENT_POLICY, type ShellEnvironmentPolicy } from './commands/environment.js';
import { BUILT_IN_PROVIDERS, providerHeaders, providerTable, type ProviderSettings } from './providers.js';
import { projectTrustLevel, type TrustLevel } from './project-trust.js';

/**
 * A config file Tiller must not start with: it does not parse, or a key that decides where
 * prompts go has a bad value. The message is `path:line: reason`, for the user as it is.
 */
export class ConfigError extends Error {
  constructor(path: string, line: number | null, reason: string) {
    super(`${path}${line === null ? '' : `:${line}`}: ${reason}`);
    this.name = 'ConfigError';
  }
}

/** A stalled stream is given up (and retried, which the user sees) after a minute of silence. */
export const DEFAULT_STREAM_IDLE_TIMEOUT_MS = 60_000;

export interface TillerConfig {
  home: string;
  /** `checkpoints`: the workspace is recorded before each turn that may write (runtime/checkpoints); absent: off (tests). */
  checkpoints?: boolean;
  model: string;
  baseUrl: string | null;
  /** The key itself is never logged; only whether one is set. */
  apiKey: string | null;
  approvalPolicy: ApprovalPolicy;
  sandboxMode: SandboxMode;
  /** Extra places a `workspace-write` command may write, beside the workspace. */
  sandboxWritableRoots: string[];
  sandboxNetworkAccess: boolean;
  /** `model_reasoning_effort`: sent as `reasoning.effort` until /model or Alt+, / Alt+. change it. */
  reasoningEffort: ReasoningEffort | null;
  /** `models`: what the /model picker offers when the provider cannot list its own (may be empty). */
  models: string[];
  /** The `[profiles.NAME]` in use, or null. */
  profile: string | null;
  /** `[mcp_servers.NAME]`, checked (a bad entry was left out with a warning), as written: defaults apply when a server starts. */
  mcpServers: Record<string, McpServerConfig>;
  vimModeDefault: boolean;
  /** `vim_escape_sequence` (`jj`, `jk`): typed quickly in Vim's Insert mode it acts as Esc; null: none. */
  vimEscapeSequence: string | null;
  modelSupportsImages: boolean;
  interruptMarker: boolean;
  /** Silent retries of a request that failed before its stream began (`request_max_retries`, Codex's default 4). */
  requestMaxRetries: number;
  streamMaxRetries: number;
  /** A stream silent this long is dropped and retried (`stream_idle_timeout_ms`); default 60 s. */
  streamIdleTimeoutMs: number;
  userPromptSubmitHooks: string[];
  /** `[shell_environment_policy]`: the environment of the model's commands; absent, Codex's defaults. */
  shellEnvironmentPolicy?: ShellEnvironmentPolicy;
  /** The variables that hold the provider's API key: never passed to a command by default (OPENAI_API_KEY and CODEX_API_KEY always). */
  secretEnvNames?: string[];
  skillsDir: string;
  /** `project_doc_max_bytes`: how much of the AGENTS.md files a thread sends (0: none); absent, 32 KiB. */
  projectDocMaxBytes?: number;
  /** `notify`: how the TUI asks for attention while its terminal is unfocused; absent, osc9 (loadConfig always sets it). */
  notify?: NotifyMethod;
  /** `theme`: `auto` (the terminal's background decides), `dark` or `light`; absent, auto. */
  theme?: ThemeSetting;
  /** `[tui] status_line`: the footer's items, as written (ids checked by the TUI); absent, the default footer. */
  statusLine?: string[];
  /** `[projects."<path>"] trust_level = "trusted"`: the directories trusted (absolute, as written); absent, none. */
  trustedProjects?: string[];
  /** The working directory's `trust_level` (its own entry or the nearest above it); null, undecided. */
  projectTrust?: TrustLevel | null;
  /** A flag, the profile or the file set the approval policy or the sandbox: the TUI does not ask about trust. */
  policyExplicit?: boolean;
  /** `web_search`: the hosted web search offered to the model (OpenAI's provider only); absent, Codex's default `cached`. */
  webSearch?: WebSearchMode;
  /** `model_provider`: the provider's wire and extras; absent, OpenAI's Responses API. */
  provider?: ProviderSettings;
  /** The `[model_providers.<id>]` tables' ids: providers /model can switch to besides the built-in ones. */
  providerTables?: string[];
  /** What this config was loaded with, so a switch of provider (providers-switch.ts) loads the same file the same way. */
  loadedWith?: ConfigOverrides;
  /** Keys of the config file that were ignored: shown to the user, never fatal. */
  warnings: string[];
}

/** Codex 0.171's default for the OpenAI provider. */
export const DEFAULT_MODEL = 'gpt-5.5';
export const OFFLINE_MODEL = 'tiller-offline';

export interface ConfigOverrides {
  /** `-p/--profile NAME`: use `[profiles.NAME]` (beats the file's `profile`); an unknown name is a ConfigError. */
  profile?: string;
  model?: string;
  baseUrl?: string;
  approvalPolicy?: ApprovalPolicy;
  sandboxMode?: SandboxMode;
  /** Appended to the file's writable roots. */
  addDirs?: string[];
  /** `exec -c key=value`: a checked table laid over the file's keys (before the profile's, as Codex). */
  config?: Record<string, unknown>;
  /** exec's CODEX_API_KEY (the Codex SDK's `apiKey`): beats the key variable. */
  apiKey?: string;
  /** `--oss`: use the local Ollama or LM Studio server; oss.ts turns it into `modelProvider`. */
  oss?: true;
  /** The local server's provider (oss.ts found it running); beats `model_provider`. */
  modelProvider?: string;
}

function shellEnvironmentPolicy(table: ConfigFile['shell_environment_policy']): ShellEnvironmentPolicy {
  const d = DEFAULT_SHELL_ENVIRONMENT_POLICY;
  return {
    inherit: table?.inherit ?? d.inherit,
    ignoreDefaultExcludes: table?.ignore_default_excludes ?? d.ignoreDefaultExcludes,
    exclude: table?.exclude ?? d.exclude,
    set: table?.set ?? d.set,
    includeOnly: table?.include_only ?? d.includeOnly,
  };
}

export function tillerHome(env: NodeJS.ProcessEnv = process.env): string {
  return env.TILLER_HOME && env.TILLER_HOME.length > 0 ? env.TILLER_HOME : join(homedir(), '.tiller');
}

/** Throws ConfigError when the file exists but cannot be used; a missing file means the defaults. */
export function loadConfig(overrides: ConfigOverrides = {}, env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): TillerConfig {
  const home = tillerHome(env);
  const path = join(home, 'config.toml');
  const cliTable = { ...overrides.config, ...(overrides.modelProvider !== undefined ? { model_provider: overrides.modelProvider } : {}) };
  const { file, endpoint, provider, tableIds, profile, warnings } = readConfigFile(path, overrides.profile, cliTable);
  const keyEnv = endpoint.keyEnv ?? 'OPENAI_API_KEY';
  const apiKey = overrides.apiKey ?? (env[keyEnv] && env[keyEnv]!.length > 0 ? env[keyEnv]! : null);
  if (apiKey !== null) registerSecret(apiKey);
  // Without a key OpenAI's provider means the offline model; any other provider that names a key needs it.
  if (apiKey === null && provider.id !== 'openai' && endpoint.keyEnv !== undefined) {
    throw new ConfigError(
      path,
      null,
      `model_providers.${provider.id}.env_key: ${keyEnv} is not set; export ${keyEnv}=<your ${provider.name} API key>, or choose another model_provider`,
    );
  }
  // OPENAI_BASE_URL is the OpenAI provider's URL: another provider's own base_url wins over it.
  const ownBaseUrl = provider.id === 'openai' ? undefined : endpoint.baseUrl;
  const baseUrl = overrides.baseUrl ?? ownBaseUrl ?? (env.OPENAI_BASE_URL || undefined) ?? endpoint.baseUrl ?? null;
  const offline = apiKey === null && baseUrl === null;
  const workspaceWrite = file.sandbox_workspace_write ?? {};
  const builtIn = Object.hasOwn(BUILT_IN_PROVIDERS, provider.id) ? BUILT_IN_PROVIDERS[provider.id] : undefined;
  const projects = Object.fromEntries(
    Object.entries(file.projects ?? {}).flatMap(([path, p]) => (p.trust_level === undefined ? [] : [[path, p.trust_level]])),
  );
  const projectTrust = projectTrustLevel(cwd, projects);
  return {
    home,
    model: overrides.model ?? env.TILLER_MODEL ?? file.model ?? builtIn?.defaultModel ?? (offline ? OFFLINE_MODEL : DEFAULT_MODEL),
    baseUrl,
    apiKey,
    // As Codex: an untrusted project asks before anything not known to be read-only.
    approvalPolicy: overrides.approvalPolicy ?? file.approval_policy ?? (projectTrust === 'untrusted' ? 'untrusted' : 'on-request'),
    sandboxMode: overrides.sandboxMode ?? file.sandbox_mode ?? 'workspace-write',
    sandboxWritableRoots: [...(workspaceWrite.writable_roots ?? []), ...(overrides.addDirs ?? [])],
    sandboxNetworkAccess: workspaceWrite.network_access ?? false,
    reasoningEffort: file.model_reasoning_effort ?? null,
    models: file.models ?? [],
    profile,
    mcpServers: file.mcp_servers ?? {},
    vimModeDefault: file.vim_mode_default ?? false,
    vimEscapeSequence: file.vim_escape_sequence ?? null,
    modelSupportsImages: file.model_supports_images ?? true,
    interruptMarker: file.interrupt_marker ?? true,
    checkpoints: file.checkpoints ?? true,
    requestMaxRetries: provider.table.request_max_retries ?? file.request_max_retries ?? 4,
    streamMaxRetries: provider.table.stream_max_retries ?? file.stream_max_retries ?? 5,
    streamIdleTimeoutMs: clampDelay(
      Number(env.TILLER_STREAM_IDLE_TIMEOUT_MS) || file.stream_idle_timeout_ms || DEFAULT_STREAM_IDLE_TIMEOUT_MS,
    ),
    userPromptSubmitHooks: file.hooks?.user_prompt_submit ?? [],
    shellEnvironmentPolicy: shellEnvironmentPolicy(file.shell_environment_policy),
    secretEnvNames: [...new Set([keyEnv, 'OPENAI_API_KEY', 'CODEX_API_KEY'])],
    skillsDir: file.skills_dir ?? join(home, 'skills'),
    ...(file.project_doc_max_bytes !== undefined ? { projectDocMaxBytes: file.project_doc_max_bytes } : {}),
    notify: file.notify ?? 'osc9',
    theme: file.theme ?? 'auto',
    ...(file.tui?.status_line !== undefined ? { statusLine: file.tui.status_line } : {}),
    trustedProjects: Object.entries(file.projects ?? {}).flatMap(([path, p]) => (p.trust_level === 'trusted' ? [path] : [])),
    projectTrust,
    policyExplicit: [overrides.approvalPolicy, overrides.sandboxMode, file.approval_policy, file.sandbox_mode].some((v) => v !== undefined),
    webSearch: file.web_search ?? 'cached',
    provider: {
      id: provider.id,
      name: provider.name,
      wireApi: provider.table.wire_api ?? 'responses',
      queryParams: provider.table.query_params ?? {},
      headers: providerHeaders(provider.table, env),
    },
    providerTables: tableIds,
    loadedWith: overrides,
    warnings,
  };
}

/**
 * For the entry points: the config, or null once the reason it cannot be used is on stderr (the
 * caller exits 2).
 */
export function loadConfigOrReport(overrides: ConfigOverrides = {}): TillerConfig | null {
  try {
    return loadConfig(overrides);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`tiller: ${error.message}\n`);
    return null;
  }
}

interface ReadConfig {
  /** The top-level keys with the selected profile's laid over them. */
  file: Omit<ConfigFile, 'profile' | 'profiles' | 'model_providers'>;
  /** Where prompts go and the variable with the key, as the file (and profile) say. */
  endpoint: { baseUrl: string | undefined; keyEnv: string | undefined };
  /** The selected provider's id and table (a built-in one's defaults filled in). */
  provider: { id: string; name: string; table: ModelProviderFile };
  /** The `[model_providers.<id>]` tables' ids. */
  tableIds: string[];
  profile: string | null;
  warnings: string[];
}

function readConfigFile(path: string, profileOverride: string | undefined, cliTable: Record<string, unknown>): ReadConfig {
  let raw: string;
  try {
    raw = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw new ConfigError(path, null, `cannot read: ${(error as Error).message}`);
    if (profileOverride !== undefined) throw new ConfigError(path, null, `profile "${profileOverride}": the file does not exist`);
    if (Object.keys(cliTable).length === 0)
      return {
        file: {},
        endpoint: { baseUrl: undefined, keyEnv: undefined },
        provider: { id: 'openai', name: 'OpenAI', table: providerTable('openai', {})! },
        tableIds: [],
        profile: null,
        warnings: [],
      };
    raw = '';
  }
  let parsed: Record<string, unknown>;
  try {
    parsed = parseToml(raw);
  } catch (error) {
    if (!(error instanceof TomlError)) throw error;
    const reason = (error.message.split('\n')[0] ?? '').replace(/^Invalid TOML document: /, '');
    throw new ConfigError(path, error.line, `not valid TOML: ${reason}`);
  }
  const checked = checkConfigFile(mergeTables(parsed, cliTable));
  if (checked.error !== null) throw problemError(path, raw, checked.error);
  const { file: whole, warnings } = checked;
  const { profile: fileProfile, profiles = {}, model_providers: providers = {}, ...top } = whole;
  const profileName = profileOverride ?? fileProfile;
  let selected: ProfileFile = {};
  if (profileName !== undefined) {
    const found = Object.hasOwn(profiles, profileName) ? profiles[profileName] : undefined;
    if (found === undefined) {
      const known = Object.keys(profiles);
      const reason = `no [profiles.${profileName}] table (${known.length === 0 ? 'the file defines no profiles' : `profiles: ${known.join(', ')}`})`;
      if (profileOverride !== undefined) throw new ConfigError(path, null, `profile "${profileName}": ${reason}`);
      throw problemError(path, raw, { path: ['profile'], reason });
    }
    selected = found;
  }
  // `model_provider` names a built-in provider (providers.ts) or a `[model_providers.NAME]` table.
  // The command line's (`-c`, `--oss`) beats a profile's.
  const fromCli = typeof cliTable.model_provider === 'string' ? cliTable.model_provider : undefined;
  const id = fromCli ?? selected.model_provider ?? top.model_provider ?? 'openai';
  const provider = providerTable(id, providers);
  if (provider === undefined) {
    const where =
      selected.model_provider !== undefined && fromCli === undefined ? ['profiles', profileName!, 'model_provider'] : ['model_provider'];
    throw problemError(path, raw, { path: where, reason: `no [model_providers.${id}] table` });
  }
  // Within one table a provider's value beats the table's own key; a profile that names a provider
  // or sets the key beats the top level.
  const layered = (fromProvider: string | undefined, key: 'base_url' | 'api_key_env'): string | undefined => {
    if (selected.model_provider !== undefined || fromCli !== undefined) return fromProvider ?? selected[key];
    return selected[key] ?? fromProvider ?? top[key];
  };
  return {
    file: { ...top, ...selected },
    endpoint: { baseUrl: layered(provider.base_url, 'base_url'), keyEnv: layered(provider.env_key, 'api_key_env') },
    provider: { id, name: provider.name ?? id, table: provider },
    tableIds: Object.keys(providers),
    profile: profileName ?? null,
    warnings,
  };
}

/** `base` with `over` laid on it, tables merged key by key (`-c sandbox_workspace_write.network_access=true` keeps the table's other keys). */
function mergeTables(base: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const current = Object.hasOwn(merged, key) ? merged[key] : undefined;
    const isTable = (v: unknown): v is Record<string, unknown> =>
      typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date);
    merged[key] = isTable(current) && isTable(value) ? mergeTables(current, value) : value;
  }
  return merged;
}

function problemError(path: string, raw: string, problem: ConfigProblem): ConfigError {
  return new ConfigError(path, lineOf(raw, problem.path), `${problem.path.join('.')}: ${problem.reason}`);
}

/**
 * The line of `key =` inside the key's table (`[a.b]` for path a.b.key), found by a plain scan:
 * good enough to point at the mistake; null when the key is written another way (dotted, inline).
 */
function lineOf(raw: string, keyPath: readonly string[]): number | null {
  const table = keyPath.slice(0, -1).join('.');
  const key = keyPath.at(-1)!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const assigns = new RegExp(`^\\s*["']?${key}["']?\\s*=`);
  let current = '';
  const lines = raw.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const header = /^\s*\[\[?([^\]]*)\]/.exec(lines[i]!);
    if (header) current = header[1]!.replace(/["'\s]/g, '');
    else if (current === table && assigns.test(lines[i]!)) return i + 1;
  }
  return null;
}

export function isOffline(config: Pick<TillerConfig, 'apiKey' | 'baseUrl'>): boolean {
  return config.apiKey === null && config.baseUrl === null;
}

/** OpenAI's own Responses API (no base URL, or api.openai.com): the only provider that runs the hosted tools. */
export function isOpenAiProvider(config: Pick<TillerConfig, 'apiKey' | 'baseUrl'>): boolean {
  if (isOffline(config)) return false;
  if (config.baseUrl === null) return true;
  try {
    return new URL(config.baseUrl).host === 'api.openai.com';
  } catch {
    return false;
  }
}

/** The provider as the header, the footer and /status name it: `offline`, `openai`, or the base URL's host. */
export function providerLabel(config: Pick<TillerConfig, 'apiKey' | 'baseUrl'>): string {
  if (isOffline(config)) return 'offline';
  if (config.baseUrl === null) return 'openai';
  try {
    return new URL(config.baseUrl).host || config.baseUrl;
  } catch {
    return config.baseUrl;
  }
}
