/**
 * Configuration: `$TILLER_HOME/config.toml` (default ~/.tiller). Environment beats file beats default.
 */
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { z } from 'zod';
import type { ApprovalPolicy } from '../protocol/api.js';

const ConfigFile = z
  .object({
    model: z.string().min(1).optional(),
    base_url: z.string().url().optional(),
    api_key_env: z.string().min(1).optional(),
    approval_policy: z.enum(['on-request', 'never', 'untrusted']).optional(),
    vim_mode_default: z.boolean().optional(),
    model_supports_images: z.boolean().optional(),
    /** Record the `<turn_aborted>` marker into history after an interrupt. */
    interrupt_marker: z.boolean().optional(),
    stream_max_retries: z.number().int().min(0).max(100).optional(),
    stream_idle_timeout_ms: z.number().int().positive().optional(),
    hooks: z
      .object({
        user_prompt_submit: z.array(z.string().min(1)).optional(),
      })
      .optional(),
    skills_dir: z.string().optional(),
  })
  .strict();

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
  let file: z.infer<typeof ConfigFile> = {};
  const path = join(home, 'config.toml');
  let raw: string | null = null;
  try {
    raw = readFileSync(path, 'utf8');
  } catch {
    raw = null;
  }
  if (raw !== null) {
    try {
      const parsed = ConfigFile.safeParse(parseToml(raw));
      if (parsed.success) file = parsed.data;
      else {
        const issue = parsed.error.issues[0];
        warnings.push(`config.toml: ${issue ? `${issue.path.join('.') || '(root)'}: ${issue.message}` : 'invalid'}; using defaults`);
      }
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
