/**
 * Configuration: `$TILLER_HOME/config.toml` (default ~/.tiller). Environment beats file beats default.
 */
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { parse as parseToml, TomlError } from 'smol-toml';
import type { ApprovalPolicy, SandboxMode } from '../protocol/api.js';
import { registerSecret } from '../protocol/redact.js';
import { checkConfigFile, type ConfigFile, type ConfigProblem, type ModelProviderFile } from './config-check.js';

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

export interface TillerConfig {
  home: string;
  model: string;
  baseUrl: string | null;
  /** The key itself is never logged; only whether one is set. */
  apiKey: string | null;
  approvalPolicy: ApprovalPolicy;
  sandboxMode: SandboxMode;
  /** Extra places a `workspace-write` command may write, beside the workspace. */
  sandboxWritableRoots: string[];
  sandboxNetworkAccess: boolean;
  /** `model_reasoning_effort` as written (minimal … xhigh); not sent yet. */
  reasoningEffort: string | null;
  /** `[mcp_servers.*]` as written, unchecked: reserved for MCP support. */
  mcpServers: Record<string, unknown>;
  vimModeDefault: boolean;
  modelSupportsImages: boolean;
  interruptMarker: boolean;
  streamMaxRetries: number;
  streamIdleTimeoutMs: number;
  userPromptSubmitHooks: string[];
  skillsDir: string;
  /** Keys of the config file that were ignored: shown to the user, never fatal. */
  warnings: string[];
}

export const DEFAULT_MODEL = 'gpt-5.1-codex';
export const OFFLINE_MODEL = 'tiller-offline';

export interface ConfigOverrides {
  model?: string;
  baseUrl?: string;
  approvalPolicy?: ApprovalPolicy;
  sandboxMode?: SandboxMode;
  /** Appended to the file's writable roots. */
  addDirs?: string[];
}

export function tillerHome(env: NodeJS.ProcessEnv = process.env): string {
  return env.TILLER_HOME && env.TILLER_HOME.length > 0 ? env.TILLER_HOME : join(homedir(), '.tiller');
}

/** Throws ConfigError when the file exists but cannot be used; a missing file means the defaults. */
export function loadConfig(overrides: ConfigOverrides = {}, env: NodeJS.ProcessEnv = process.env): TillerConfig {
  const home = tillerHome(env);
  const { file, provider, warnings } = readConfigFile(join(home, 'config.toml'));
  const keyEnv = provider.env_key ?? file.api_key_env ?? 'OPENAI_API_KEY';
  const apiKey = env[keyEnv] && env[keyEnv]!.length > 0 ? env[keyEnv]! : null;
  if (apiKey !== null) registerSecret(apiKey);
  const baseUrl = overrides.baseUrl ?? (env.OPENAI_BASE_URL || undefined) ?? provider.base_url ?? file.base_url ?? null;
  const offline = apiKey === null && baseUrl === null;
  const workspaceWrite = file.sandbox_workspace_write ?? {};
  return {
    home,
    model: overrides.model ?? env.TILLER_MODEL ?? file.model ?? (offline ? OFFLINE_MODEL : DEFAULT_MODEL),
    baseUrl,
    apiKey,
    approvalPolicy: overrides.approvalPolicy ?? file.approval_policy ?? 'on-request',
    sandboxMode: overrides.sandboxMode ?? file.sandbox_mode ?? 'workspace-write',
    sandboxWritableRoots: [...(workspaceWrite.writable_roots ?? []), ...(overrides.addDirs ?? [])],
    sandboxNetworkAccess: workspaceWrite.network_access ?? false,
    reasoningEffort: file.model_reasoning_effort ?? null,
    mcpServers: file.mcp_servers ?? {},
    vimModeDefault: file.vim_mode_default ?? false,
    modelSupportsImages: file.model_supports_images ?? true,
    interruptMarker: file.interrupt_marker ?? true,
    streamMaxRetries: file.stream_max_retries ?? 5,
    streamIdleTimeoutMs: Number(env.TILLER_STREAM_IDLE_TIMEOUT_MS) || file.stream_idle_timeout_ms || 300_000,
    userPromptSubmitHooks: file.hooks?.user_prompt_submit ?? [],
    skillsDir: file.skills_dir ?? join(home, 'skills'),
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

function readConfigFile(path: string): { file: ConfigFile; provider: ModelProviderFile; warnings: string[] } {
  let raw: string;
  try {
    raw = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { file: {}, provider: {}, warnings: [] };
    throw new ConfigError(path, null, `cannot read: ${(error as Error).message}`);
  }
  let parsed: Record<string, unknown>;
  try {
    parsed = parseToml(raw);
  } catch (error) {
    if (!(error instanceof TomlError)) throw error;
    const reason = (error.message.split('\n')[0] ?? '').replace(/^Invalid TOML document: /, '');
    throw new ConfigError(path, error.line, `not valid TOML: ${reason}`);
  }
  const checked = checkConfigFile(parsed);
  if (checked.error !== null) throw problemError(path, raw, checked.error);
  const { file, warnings } = checked;
  // `model_provider` names a `[model_providers.NAME]` table; `openai` alone is built in.
  const name = file.model_provider;
  const provider = name === undefined || name === 'openai' ? (file.model_providers?.openai ?? {}) : file.model_providers?.[name];
  if (provider === undefined) throw problemError(path, raw, { path: ['model_provider'], reason: `no [model_providers.${name}] table` });
  return { file, provider, warnings };
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

export function isOffline(config: TillerConfig): boolean {
  return config.apiKey === null && config.baseUrl === null;
}
