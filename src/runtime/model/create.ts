/**
 * Picks the model transport from configuration (docs/architecture.md#one-streaming-code-path): the
 * embedded offline model when there is neither an API key nor a base URL, else the `openai` SDK
 * against the base URL or OpenAI.
 */
import { isOffline, providerLabel, type TillerConfig } from '../config.js';
import { createOfflineModelClient } from './wires/offline/client.js';
import { createSdkModelClient } from './wires/responses/client.js';
import type { ModelClient } from './types.js';

const OPENAI_BASE_URL = 'https://api.openai.com/v1';
/** Local Responses servers (vLLM, Ollama, LM Studio) ignore the key, but the SDK requires one. */
const KEYLESS_PLACEHOLDER = 'tiller-no-key';

export function createModelClient(config: TillerConfig): ModelClient {
  if (isOffline(config)) return createOfflineModelClient({ idleTimeoutMs: config.streamIdleTimeoutMs });
  const baseURL = config.baseUrl ?? OPENAI_BASE_URL;
  return createSdkModelClient({
    label: providerLabel(config),
    baseURL,
    apiKey: config.apiKey ?? KEYLESS_PLACEHOLDER,
    idleTimeoutMs: config.streamIdleTimeoutMs,
  });
}
