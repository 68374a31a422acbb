/**
 * Picks the wire from configuration (docs/architecture.md#one-streaming-code-path): the embedded
 * offline model when there is neither an API key nor a base URL, else Responses against the base URL
 * or OpenAI. Wires are made here, through the registry, and nowhere else.
 */
import { isOffline, providerLabel, type TillerConfig } from '../config.js';
import type { ModelClient } from './types.js';
import { type WireId, wireById } from './wires/index.js';

export function wireFor(config: Pick<TillerConfig, 'apiKey' | 'baseUrl'>): WireId {
  return isOffline(config) ? 'offline' : 'responses';
}

export function createModelClient(config: TillerConfig): ModelClient {
  return wireById(wireFor(config)).create({
    label: providerLabel(config),
    baseUrl: config.baseUrl,
    apiKey: config.apiKey,
    idleTimeoutMs: config.streamIdleTimeoutMs,
  });
}
