/**
 * Configuration: `$TILLER_HOME/config.toml` (default ~/.tiller). Environment beats file beats default.
 */
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { parse as parseToml } from 'smol-toml';
import type { ApprovalPolicy } from '../protocol/api.js';

/**
 * The keys config.toml may hold and what each must be. Checked by hand rather than with zod: the
 * config is read before the first frame, and zod's chunk would add ~50 ms to every start-up.
 */
const FIELDS = {
  model: 'string',
  base_url: 'url',
  api_key_env: 'string',
  approval_policy: ['on-request', 'never', 'untrusted'],
  vim_mode_default: 'boolean',
  model_supports_images: 'boolean',
  /** Record the `<turn_aborted>` marker into history after an interrupt. */
  interrupt_marker: 'boolean',
  stream_max_retries: 'retries',
  stream_idle_timeout_ms: 'positiveInt',
  hooks: 'hooks',
  skills_dir: 'string',
} as const;

interface ConfigFile {
  model?: string;
  base_url?: string;
  api_key_env?: string;
  approval_policy?: ApprovalPolicy;
  vim_mode_default?: boolean;
  model_supports_images?: boolean;
  interrupt_marker?: boolean;
  stream_max_retries?: number;
  stream_idle_timeout_ms?: number;
  hooks?: { user_prompt_submit?: string[] };
  skills_dir?: string;
}

const isNonEmptyString = (v: unknown): v is string => typeof v === 'string' && v.length > 0;

type Check = (value: unknown) => string | null;

/** Each kind's check: why the value does not fit, or null. A nested path starts with `.`. */
const CHECKS: Record<Exclude<(typeof FIELDS)[keyof typeof FIELDS], readonly string[]>, Check> = {
  string: (v) => (isNonEmptyString(v) ? null : 'expected a non-empty string'),
  url: (v) => (isNonEmptyString(v) && URL.canParse(v) ? null : 'expected a URL'),
  boolean: (v) => (typeof v === 'boolean' ? null : 'expected true or false'),
  retries: (v) => (Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 100 ? null : 'expected a whole number from 0 to 100'),
  positiveInt: (v) => (Number.isInteger(v) && (v as number) > 0 ? null : 'expected a positive whole number'),
  hooks: (v) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return 'expected a table';
    for (const [key, hooks] of Object.entries(v)) {
      if (key !== 'user_prompt_submit') return `.${key}: unknown key`;
      if (!Array.isArray(hooks) || !hooks.every(isNonEmptyString)) return `.${key}: expected a list of commands`;
    }
    return null;
  },
};

function problem(kind: (typeof FIELDS)[keyof typeof FIELDS], value: unknown): string | null {
  if (typeof kind === 'string') return CHECKS[kind](value);
  return (kind as readonly unknown[]).includes(value) ? null : `expected one of ${kind.map((k) => `"${k}"`).join(', ')}`;
}

/** The parsed file, or the first problem as `path: message`. */
export function checkConfigFile(raw: unknown): { ok: true; value: ConfigFile } | { ok: false; error: string } {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { ok: false, error: '(root): expected a table' };
  for (const [key, value] of Object.entries(raw)) {
    const kind = FIELDS[key as keyof typeof FIELDS];
    if (kind === undefined) return { ok: false, error: `${key}: unknown key` };
    const why = problem(kind, value);
    if (why !== null) return { ok: false, error: why.startsWith('.') ? `${key}${why}` : `${key}: ${why}` };
  }
  return { ok: true, value: raw as ConfigFile };
}

export interface TillerConfig {
  home: string;
  model: string;
  baseUrl: string | null;
  /** The key itself is never logged; only whether one is set. */
  apiKey: string | null;
  approvalPolicy: ApprovalPolicy;
  vimModeDefault: boolean;
  modelSupportsImages: boolean;
  interruptMarker: boolean;
  streamMaxRetries: number;
  streamIdleTimeoutMs: number;
  userPromptSubmitHooks: string[];
  skillsDir: string;
  /** Problems found in the config file: shown to the user, never fatal. */
  warnings: string[];
}

export const DEFAULT_MODEL = 'gpt-5.1-codex';
export const OFFLINE_MODEL = 'tiller-offline';

export interface ConfigOverrides {
  model?: string;
  baseUrl?: string;
  approvalPolicy?: ApprovalPolicy;
}

export function tillerHome(env: NodeJS.ProcessEnv = process.env): string {
  return env.TILLER_HOME && env.TILLER_HOME.length > 0 ? env.TILLER_HOME : join(homedir(), '.tiller');
}

export function loadConfig(overrides: ConfigOverrides = {}, env: NodeJS.ProcessEnv = process.env): TillerConfig {
  const home = tillerHome(env);
  const warnings: string[] = [];
  let file: ConfigFile = {};
  const path = join(home, 'config.toml');
  let raw: string | null = null;
  try {
    raw = readFileSync(path, 'utf8');
  } catch {
    raw = null;
  }
  if (raw !== null) {
    try {
      const checked = checkConfigFile(parseToml(raw));
      if (checked.ok) file = checked.value;
      else warnings.push(`config.toml: ${checked.error}; using defaults`);
    } catch (error) {
      warnings.push(`config.toml: ${error instanceof Error ? error.message.split('\n')[0] : 'cannot parse'}; using defaults`);
    }
  }
  const keyEnv = file.api_key_env ?? 'OPENAI_API_KEY';
  const apiKey = env[keyEnv] && env[keyEnv]!.length > 0 ? env[keyEnv]! : null;
  const baseUrl = overrides.baseUrl ?? (env.OPENAI_BASE_URL || undefined) ?? file.base_url ?? null;
  const offline = apiKey === null && baseUrl === null;
  return {
    home,
    model: overrides.model ?? env.TILLER_MODEL ?? file.model ?? (offline ? OFFLINE_MODEL : DEFAULT_MODEL),
    baseUrl,
    apiKey,
    approvalPolicy: overrides.approvalPolicy ?? file.approval_policy ?? 'on-request',
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

export function isOffline(config: TillerConfig): boolean {
  return config.apiKey === null && config.baseUrl === null;
}
