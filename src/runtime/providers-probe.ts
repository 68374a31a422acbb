/**
 * A cheap look at the provider's base URL before the first request (issue 29): `GET {base_url}/models`,
 * off the first frame and never awaited by a turn. A URL that answers an HTML page or a 404 is not
 * the API root (most often the `/v1` is missing, or it is a web page's address): one line naming the
 * key to fix. Anything else (an API's 401, a server that is down) is left to the first request, and
 * so is OpenAI's own provider, whose Responses wire says what is wrong with its URL at once.
 */
import { isOffline, type TillerConfig } from './config.js';

const PROBE_TIMEOUT_MS = 3000;

/** The config key that sets the provider's URL, as the user would edit it. */
export function baseUrlKey(config: Pick<TillerConfig, 'provider'>): string {
  const id = config.provider?.id ?? 'openai';
  return id === 'openai' ? 'base_url (or OPENAI_BASE_URL)' : `model_providers.${id}.base_url`;
}

/** The line for a base URL that answered `what` (an HTML page, a 404): the key and the fix. */
export function notAnApiMessage(config: Pick<TillerConfig, 'provider' | 'baseUrl'>, what: string): string {
  return `${baseUrlKey(config)} = "${config.baseUrl ?? ''}" is not an API root (GET /models answered ${what}): set it to the server's API URL, which ends in /v1 (for example http://localhost:11434/v1 for Ollama)`;
}

export async function probeBaseUrl(
  config: Pick<TillerConfig, 'provider' | 'baseUrl' | 'apiKey'>,
  fetchImpl: typeof fetch = fetch,
): Promise<string | null> {
  if (isOffline(config) || config.baseUrl === null || (config.provider?.id ?? 'openai') === 'openai') return null;
  let response: Response;
  try {
    response = await fetchImpl(`${config.baseUrl.replace(/\/+$/, '')}/models`, {
      headers: { accept: 'application/json', ...config.provider?.headers },
      signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
    });
  } catch {
    return null;
  }
  const type = response.headers.get('content-type') ?? '';
  await response.body?.cancel().catch(() => undefined);
  if (/text\/html/i.test(type)) return notAnApiMessage(config, `an HTML page (HTTP ${response.status})`);
  if (response.status === 404) return notAnApiMessage(config, 'HTTP 404');
  return null;
}
