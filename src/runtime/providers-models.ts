/**
 * model/list with `tillerProviders` (the TUI's /model): the models of every provider the session can
 * switch to, asked at once, the session's own provider first. Its list keeps model-list.ts's
 * fallbacks and note; another provider that cannot list is named in the note, except a local server
 * that is simply not running.
 */
import { errorMessage } from '../error-message.js';
import type { ModelListResult } from '../protocol/api.js';
import { ConfigError, type TillerConfig } from './config.js';
import { listModels, modelEntries } from './model-list.js';
import type { ModelClient } from './model/types.js';
import { BUILT_IN_PROVIDERS } from './providers.js';
import { listedProviders, providerConfig } from './providers-switch.js';

export interface ProviderClients {
  /** The session's config (its provider is listed first). */
  config: TillerConfig;
  /** The client of a provider, made once per id. */
  clientFor(id: string, config: TillerConfig): ModelClient;
}

export async function listProvidersModels(clients: ProviderClients, env: NodeJS.ProcessEnv = process.env): Promise<ModelListResult> {
  const notes: string[] = [];
  const lists = await Promise.all(
    listedProviders(clients.config, env).map(async ({ id, quiet }, index) => {
      let config: TillerConfig;
      try {
        config = providerConfig(clients.config, id, env);
      } catch (error) {
        if (!(error instanceof ConfigError)) throw error;
        // The reason names the provider's key (`model_providers.<id>.env_key`) and the fix.
        if (!quiet) notes.push(`${error.message.replace(/^.*?config\.toml: /, '')}.`);
        return [];
      }
      const name = config.provider?.name ?? providerName(config, id);
      const client = clients.clientFor(id, config);
      if (index === 0) {
        const own = await listModels(client, config);
        if (own.note !== null) notes.unshift(own.note);
        return own.data.map((m) => ({ ...m, tillerProvider: id, tillerProviderName: name }));
      }
      try {
        const listed = (await client.listModels?.()) ?? [];
        if (listed.length === 0 && !quiet) notes.push(`${name} lists no models.`);
        return modelEntries(listed, config).map((m) => ({ ...m, isDefault: false, tillerProvider: id, tillerProviderName: name }));
      } catch (error) {
        if (!quiet) notes.push(`${name} did not list its models (${errorMessage(error)}).`);
        return [];
      }
    }),
  );
  return { data: lists.flat(), nextCursor: null, note: notes.length === 0 ? null : notes.join(' ') };
}

function providerName(config: TillerConfig, id: string): string {
  if (config.provider?.id === id) return config.provider.name;
  return Object.hasOwn(BUILT_IN_PROVIDERS, id) ? BUILT_IN_PROVIDERS[id]!.name : id;
}
