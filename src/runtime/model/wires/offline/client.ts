/**
 * The embedded offline model as a ModelClient: the `openai` SDK over the in-process fetch
 * (fetch.ts). Only this client hands the request's stream options (the turn, the user's text
 * elements) to its transport, inside the body the fetch reads in process, so the sampling path
 * never needs to know which model it talks to and nothing of them can reach a real server.
 */
import { createSdkModelClient } from '../responses/client.js';
import type { ModelClient, ModelRequest, ModelStreamOptions } from '../../types.js';
import { createOfflineFetch, OFFLINE_BASE_URL, OFFLINE_LABEL, STREAM_OPTIONS_FIELD } from './fetch.js';

/** The SDK requires a key; the offline model reads none. */
const UNUSED_KEY = 'tiller-no-key';

export interface OfflineClientOptions {
  idleTimeoutMs: number;
  /** Pause before each streamed word; default TILLER_OFFLINE_DELAY_MS, else 25 ms. */
  delayMs?: number;
}

interface OfflineRequest extends ModelRequest {
  [STREAM_OPTIONS_FIELD]: ModelStreamOptions;
}

export function createOfflineModelClient(options: OfflineClientOptions): ModelClient {
  const sdk = createSdkModelClient({
    label: OFFLINE_LABEL,
    baseURL: OFFLINE_BASE_URL,
    apiKey: UNUSED_KEY,
    idleTimeoutMs: options.idleTimeoutMs,
    fetch: createOfflineFetch({ delayMs: options.delayMs }),
  });
  return {
    label: sdk.label,
    stream: (request, signal, streamOptions = {}) => {
      const body: OfflineRequest = { ...request, [STREAM_OPTIONS_FIELD]: streamOptions };
      return sdk.stream(body, signal);
    },
    listModels: sdk.listModels,
  };
}
