/**
 * Model providers (Codex's `[model_providers.<id>]`): where prompts go, in which wire shape, with
 * which key. The built-in ones work with no table at all; a table of the same id changes only the
 * fields it sets.
 */
import type { ModelProviderFile, WireApi } from './config-check.js';

export interface BuiltInProvider {
  name: string;
  /** Null: the wire's default (OpenAI's, or OPENAI_BASE_URL). */
  baseUrl: string | null;
  /** Null: the server takes no key (local servers). */
  envKey: string | null;
  wireApi: WireApi;
  /** The model when config and flags name none. */
  defaultModel: string | null;
}

export const BUILT_IN_PROVIDERS: Readonly<Record<string, BuiltInProvider>> = {
  openai: { name: 'OpenAI', baseUrl: null, envKey: 'OPENAI_API_KEY', wireApi: 'responses', defaultModel: null },
  ollama: { name: 'Ollama', baseUrl: 'http://localhost:11434/v1', envKey: null, wireApi: 'chat', defaultModel: 'gpt-oss:20b' },
  lmstudio: {
    name: 'LM Studio',
    baseUrl: 'http://localhost:1234/v1',
    envKey: null,
    wireApi: 'chat',
    defaultModel: 'openai/gpt-oss-20b',
  },
  openrouter: {
    name: 'OpenRouter',
    baseUrl: 'https://openrouter.ai/api/v1',
    envKey: 'OPENROUTER_API_KEY',
    wireApi: 'chat',
    defaultModel: 'openai/gpt-oss-120b',
  },
  // DeepSeek answers on /v1 as on its root ("for compatibility with OpenAI", its API docs).
  deepseek: {
    name: 'DeepSeek',
    baseUrl: 'https://api.deepseek.com/v1',
    envKey: 'DEEPSEEK_API_KEY',
    wireApi: 'chat',
    defaultModel: 'deepseek-chat',
  },
  anthropic: {
    name: 'Anthropic',
    baseUrl: 'https://api.anthropic.com/v1',
    envKey: 'ANTHROPIC_API_KEY',
    wireApi: 'anthropic',
    defaultModel: 'claude-sonnet-4-5',
  },
};

/** The providers `--oss` looks for, in order. */
export const OSS_PROVIDERS = ['ollama', 'lmstudio'] as const;

/** The selected provider as the wires use it (config.ts fills it). */
export interface ProviderSettings {
  id: string;
  name: string;
  wireApi: WireApi;
  queryParams: Record<string, string>;
  /** `http_headers` and the set `env_http_headers`, resolved. */
  headers: Record<string, string>;
}

/** A built-in provider with the user's table of the same id laid over it; a table alone for any other id. */
export function providerTable(id: string, tables: Readonly<Record<string, ModelProviderFile>>): ModelProviderFile | undefined {
  const builtIn = Object.hasOwn(BUILT_IN_PROVIDERS, id) ? BUILT_IN_PROVIDERS[id] : undefined;
  const table = Object.hasOwn(tables, id) ? tables[id] : undefined;
  if (builtIn === undefined) return table;
  // OpenAI's URL and key variable stay the top level's (`base_url`, `api_key_env`, OPENAI_BASE_URL).
  if (id === 'openai') return { name: builtIn.name, wire_api: builtIn.wireApi, ...table };
  return {
    name: builtIn.name,
    wire_api: builtIn.wireApi,
    ...(builtIn.baseUrl !== null ? { base_url: builtIn.baseUrl } : {}),
    ...(builtIn.envKey !== null ? { env_key: builtIn.envKey } : {}),
    ...table,
  };
}

/** The headers a provider sends: its fixed ones, then those whose variable is set. */
export function providerHeaders(table: ModelProviderFile, env: NodeJS.ProcessEnv): Record<string, string> {
  const headers: Record<string, string> = { ...table.http_headers };
  for (const [header, variable] of Object.entries(table.env_http_headers ?? {})) {
    const value = env[variable];
    if (value !== undefined && value !== '') headers[header] = value;
  }
  return headers;
}
