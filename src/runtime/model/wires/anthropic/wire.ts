/** Anthropic's Messages API (`POST /messages`, SSE) with plain fetch: Anthropic, or a server speaking its API at a base URL. */
import type { Wire } from '../../wire.js';
import { createAnthropicClient } from './client.js';

export const ANTHROPIC_BASE_URL = 'https://api.anthropic.com/v1';

export const anthropicWire: Wire<'anthropic'> = {
  id: 'anthropic',
  create: (options) =>
    createAnthropicClient({
      label: options.label,
      baseUrl: options.baseUrl ?? ANTHROPIC_BASE_URL,
      apiKey: options.apiKey,
      idleTimeoutMs: options.idleTimeoutMs,
      ...(options.headers ? { headers: options.headers } : {}),
      ...(options.queryParams ? { queryParams: options.queryParams } : {}),
      ...(options.baseUrlKey ? { baseUrlKey: options.baseUrlKey } : {}),
    }),
};
