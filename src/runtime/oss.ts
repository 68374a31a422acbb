/**
 * `--oss` (Codex's flag): the local Ollama or LM Studio server, whichever answers first in that
 * order at its provider's base URL (built in, or as `[model_providers.ollama]` moves it). Asked
 * before the config is used, so a server that is not running is said at once, not on the first prompt.
 */
import { ConfigError, type ConfigOverrides, loadConfig } from './config.js';
import { BUILT_IN_PROVIDERS, OSS_PROVIDERS } from './providers.js';

/** How long a local server has to answer `GET /models`: it is on this machine, or not running. */
const PROBE_TIMEOUT_MS = 1500;

export function noOssServerMessage(tried: readonly string[]): string {
  return `--oss: no local model server is running (tried ${tried.join(', ')}): start Ollama (\`ollama serve\`) or LM Studio's server (\`lms server start\`)`;
}

/**
 * The overrides with the running local server's provider, or the message to show when none runs. A
 * config that cannot be used leaves the overrides as they are, for the entry point's loadConfig to report.
 */
export async function resolveOss(
  overrides: ConfigOverrides,
  env: NodeJS.ProcessEnv = process.env,
  fetchImpl: typeof fetch = fetch,
): Promise<{ overrides: ConfigOverrides } | { error: string }> {
  if (!overrides.oss) return { overrides };
  const tried: string[] = [];
  for (const id of OSS_PROVIDERS) {
    let baseUrl: string;
    try {
      baseUrl = loadConfig({ ...overrides, modelProvider: id }, env).baseUrl ?? BUILT_IN_PROVIDERS[id]!.baseUrl!;
    } catch (error) {
      if (error instanceof ConfigError) return { overrides };
      throw error;
    }
    tried.push(`${BUILT_IN_PROVIDERS[id]!.name} at ${baseUrl}`);
    if (await answers(`${baseUrl.replace(/\/+$/, '')}/models`, fetchImpl)) return { overrides: { ...overrides, modelProvider: id } };
  }
  return { error: noOssServerMessage(tried) };
}

async function answers(url: string, fetchImpl: typeof fetch): Promise<boolean> {
  try {
    const response = await fetchImpl(url, { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
    await response.body?.cancel();
    return response.ok;
  } catch {
    return false;
  }
}
