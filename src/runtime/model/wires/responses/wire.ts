/** The OpenAI Responses API (`POST /responses`, SSE) through the `openai` SDK: OpenAI, or any server at a base URL. */
import type { Wire } from '../../wire.js';
import { createSdkModelClient } from './client.js';

const OPENAI_BASE_URL = 'https://api.openai.com/v1';
/** Local Responses servers (vLLM, Ollama, LM Studio) ignore the key, but the SDK requires one. */
const KEYLESS_PLACEHOLDER = 'tiller-no-key';

export const responsesWire: Wire<'responses'> = {
  id: 'responses',
  create: (options) =>
    createSdkModelClient({
      label: options.label,
      baseURL: options.baseUrl ?? OPENAI_BASE_URL,
      apiKey: options.apiKey ?? KEYLESS_PLACEHOLDER,
      idleTimeoutMs: options.idleTimeoutMs,
    }),
};
