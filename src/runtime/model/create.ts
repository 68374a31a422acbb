/**
 * Picks the wire from configuration (docs/architecture.md#one-streaming-code-path): the embedded
 * offline model when there is neither an API key nor a base URL, else the provider's `wire_api`
 * (Responses unless it says otherwise). Wires are made here, through the registry, and nowhere else.
 */
import { isOffline, providerLabel, type TillerConfig } from '../config.js';
import type { WireApi } from '../config-check.js';
import { baseUrlKey } from '../providers-probe.js';
import type { ModelClient } from './types.js';
import { type WireId, wireById } from './wires/index.js';

/** The wire a provider's `wire_api` names. */
const WIRE_OF_API: Record<WireApi, WireId> = { responses: 'responses', chat: 'chat', anthropic: 'anthropic' };

export function wireFor(config: Pick<TillerConfig, 'apiKey' | 'baseUrl' | 'provider'>): WireId {
  if (isOffline(config)) return 'offline';
  return WIRE_OF_API[config.provider?.wireApi ?? 'responses'];
}

export function createModelClient(config: TillerConfig): ModelClient {
  return wireById(wireFor(config)).create({
    label: providerLabel(config),
    baseUrl: config.baseUrl,
    apiKey: config.apiKey,
    idleTimeoutMs: config.streamIdleTimeoutMs,
    baseUrlKey: baseUrlKey(config),
    ...(config.provider ? { headers: config.provider.headers, queryParams: config.provider.queryParams } : {}),
  });
}
