/**
 * Picks the wire from configuration (docs/architecture.md#one-streaming-code-path): the embedded
 * offline model when there is neither an API key nor a base URL, else the provider's `wire_api`
 * (Responses unless it says otherwise). Wires are made here, through the registry, and nowhere else.
 */
import { isOffline, providerLabel, type TillerConfig } from '../config.js';
import type { WireApi } from '../config-check.js';
import { ModelError, type ModelClient } from './types.js';
import { WIRES, type WireId, wireById } from './wires/index.js';

/** The wire a provider's `wire_api` names. */
const WIRE_OF_API: Record<WireApi, string> = { responses: 'responses', chat: 'chat', anthropic: 'anthropic' };

function isWireId(id: string): id is WireId {
  return WIRES.some((wire) => wire.id === id);
}

/** The wire to use; a string that names no registered wire when the build lacks it (createModelClient says so). */
export function wireFor(config: Pick<TillerConfig, 'apiKey' | 'baseUrl' | 'provider'>): WireId | string {
  if (isOffline(config)) return 'offline';
  return WIRE_OF_API[config.provider?.wireApi ?? 'responses'];
}

export function createModelClient(config: TillerConfig): ModelClient {
  const id = wireFor(config);
  // Until every wire_api has its wire: said once, when the client is made, not on each request.
  if (!isWireId(id))
    throw new ModelError(`wire_api = "${config.provider?.wireApi}" is not available in this build of Tiller`, false, 'other');
  return wireById(id).create({
    label: providerLabel(config),
    baseUrl: config.baseUrl,
    apiKey: config.apiKey,
    idleTimeoutMs: config.streamIdleTimeoutMs,
    ...(config.provider ? { headers: config.provider.headers, queryParams: config.provider.queryParams } : {}),
  });
}
