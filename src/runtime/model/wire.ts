/**
 * The seam between Tiller and a model API (docs/architecture.md#how-to-add-a-wire). A wire turns the
 * configured provider into a ModelClient: requests in, the core's typed ModelEvents out, every
 * failure a ModelError whose `retryable`, `info` and `retryAfterMs` the core's retry layers read
 * (core/sampling.ts), so the core never knows which API it talks to. Each wire is a folder under
 * wires/, listed once in wires/index.ts; model/create.ts picks one, and nothing else makes one.
 */
import type { ModelClient } from './types.js';

/** The provider settings a wire is made from (model/create.ts fills them from config). */
export interface WireOptions {
  /** What the status line calls the provider (config.ts `providerLabel`). */
  label: string;
  /** The configured base URL; null: the wire's own default (OpenAI's, for Responses). */
  baseUrl: string | null;
  /** The configured API key; null: none (local servers take none). */
  apiKey: string | null;
  /** Longest silence allowed between events, and the wait for response headers. */
  idleTimeoutMs: number;
  /** The provider's `http_headers` and set `env_http_headers`, sent with every request. */
  headers?: Record<string, string>;
  /** The provider's `query_params`, added to every request URL. */
  queryParams?: Record<string, string>;
  /** The config key of the URL (`model_providers.<id>.base_url`), for a message saying what to fix. */
  baseUrlKey?: string;
}

export interface Wire<Id extends string = string> {
  readonly id: Id;
  create(options: WireOptions): ModelClient;
}
