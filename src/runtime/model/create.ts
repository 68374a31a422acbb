/**
 * Picks the model transport from configuration (docs/architecture.md#one-streaming-code-path): the
 * embedded offline model when there is neither an API key nor a base URL, else the `openai` SDK
 * against the base URL or OpenAI.
 */
import { isOffline, providerLabel, type TillerConfig } from '../config.js';
import { createOfflineFetch, OFFLINE_BASE_URL, OFFLINE_LABEL } from './offline/fetch.js';
import { OfflineSideChannel } from './offline/side-channel.js';
import { createSdkModelClient } from './openai-client.js';
import type { ModelClient } from './types.js';

const OPENAI_BASE_URL = 'https://api.openai.com/v1';
/** Local Responses servers (vLLM, Ollama, LM Studio) ignore the key, but the SDK requires one. */
const KEYLESS_PLACEHOLDER = 'tiller-no-key';

export function createModelClient(config: TillerConfig): ModelClient {
  if (isOffline(config)) {
    const sideChannel = new OfflineSideChannel();
    return createSdkModelClient({
      label: OFFLINE_LABEL,
      baseURL: OFFLINE_BASE_URL,
      apiKey: KEYLESS_PLACEHOLDER,
      idleTimeoutMs: config.streamIdleTimeoutMs,
      fetch: createOfflineFetch({ sideChannel }),
      sideChannel,
    });
  }
  const baseURL = config.baseUrl ?? OPENAI_BASE_URL;
  return createSdkModelClient({
    label: providerLabel(config),
    baseURL,
    apiKey: config.apiKey ?? KEYLESS_PLACEHOLDER,
    idleTimeoutMs: config.streamIdleTimeoutMs,
  });
}
