/** OpenAI's Chat Completions API (`POST {base}/chat/completions`, SSE): DeepSeek, OpenRouter, Ollama, LM Studio, llama.cpp, vLLM. */
import type { Wire } from '../../wire.js';
import { createChatClient } from './client.js';

/** Local chat servers ignore the key, but the SDK requires one. */
const KEYLESS_PLACEHOLDER = 'tiller-no-key';

export const chatWire: Wire<'chat'> = {
  id: 'chat',
  create: (options) =>
    createChatClient({
      label: options.label,
      // A chat provider always names its URL (config.ts); OpenAI's serves chat too.
      baseURL: options.baseUrl ?? 'https://api.openai.com/v1',
      apiKey: options.apiKey ?? KEYLESS_PLACEHOLDER,
      idleTimeoutMs: options.idleTimeoutMs,
      ...(options.headers ? { headers: options.headers } : {}),
      ...(options.queryParams ? { queryParams: options.queryParams } : {}),
      ...(options.baseUrlKey ? { baseUrlKey: options.baseUrlKey } : {}),
    }),
};
