/**
 * Switching provider in a session (/model, issue 29): another provider's settings, loaded from the
 * same config.toml, profile and `--config` keys as the session's, and which providers /model lists.
 * Only the provider's own fields change; everything else stays the session's.
 */
import { loadConfig, type TillerConfig } from './config.js';
import { BUILT_IN_PROVIDERS, OSS_PROVIDERS } from './providers.js';

/**
 * The session's config with provider `id` in place of its own. The launch's `-m`, `--base-url` and
 * key were for the launch provider and are not carried over. Throws ConfigError (a missing key variable).
 */
export function providerConfig(base: TillerConfig, id: string, env: NodeJS.ProcessEnv = process.env): TillerConfig {
  if ((base.provider?.id ?? 'openai') === id) return base;
  const { baseUrl: _url, apiKey: _key, oss: _oss, model: _model, modelProvider: _provider, ...kept } = base.loadedWith ?? {};
  const loaded = loadConfig({ ...kept, modelProvider: id }, env);
  return {
    ...base,
    model: loaded.model,
    baseUrl: loaded.baseUrl,
    apiKey: loaded.apiKey,
    requestMaxRetries: loaded.requestMaxRetries,
    streamMaxRetries: loaded.streamMaxRetries,
    secretEnvNames: [...new Set([...(base.secretEnvNames ?? []), ...(loaded.secretEnvNames ?? [])])],
    ...(loaded.provider ? { provider: loaded.provider } : {}),
  };
}

export interface ListedProvider {
  id: string;
  /** A local server that may simply not be running: a failure to list it is not worth a note. */
  quiet: boolean;
}

/**
 * The providers /model asks for models, the session's first: every `[model_providers.<id>]` table,
 * a built-in one whose key variable is set, and the local servers (listed only when they answer).
 */
export function listedProviders(config: TillerConfig, env: NodeJS.ProcessEnv = process.env): ListedProvider[] {
  const current = config.provider?.id ?? 'openai';
  const out: ListedProvider[] = [{ id: current, quiet: false }];
  const add = (id: string, quiet: boolean): void => {
    if (!out.some((p) => p.id === id)) out.push({ id, quiet });
  };
  for (const id of config.providerTables ?? []) add(id, false);
  for (const [id, builtIn] of Object.entries(BUILT_IN_PROVIDERS)) {
    if ((OSS_PROVIDERS as readonly string[]).includes(id)) add(id, true);
    else if (builtIn.envKey !== null && (env[builtIn.envKey] ?? '') !== '') add(id, false);
  }
  return out;
}
