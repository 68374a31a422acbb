/**
 * What the two wires that drive the openai SDK (Responses, Chat Completions) share: the SDK as they
 * hold it, the models listing, and a request failure as the core's ModelError.
 */
import type { OpenAI } from 'openai';
import { abortedError, connectionError, connectTimeoutError, httpStatusError, isApiErrorBody, type RequestTarget } from './errors.js';
import { ModelError, type ListedModel } from './types.js';

export interface Sdk {
  OpenAI: typeof OpenAI;
  client: OpenAI;
  target: RequestTarget;
}

/** `client.models.list()`: the ids the server lists (entries without one are skipped). */
export async function listModels(load: () => Promise<Sdk>, signal: AbortSignal, timeout: number): Promise<ListedModel[]> {
  if (signal.aborted) throw abortedError();
  const sdk = await load();
  let page: { data?: unknown };
  try {
    page = await sdk.client.models.list({ signal, timeout });
  } catch (error) {
    throw requestError(sdk.OpenAI, error, signal);
  }
  const data: unknown[] = Array.isArray(page.data) ? page.data : [];
  return data.flatMap((m) => {
    const entry = (typeof m === 'object' && m !== null ? m : {}) as { id?: unknown; owned_by?: unknown };
    if (typeof entry.id !== 'string' || entry.id === '') return [];
    return [{ id: entry.id, ownedBy: typeof entry.owned_by === 'string' && entry.owned_by !== '' ? entry.owned_by : null }];
  });
}

/**
 * `baseUrlKey`: the config key of the URL. A 404 that is a web server's page, not the API's error (an
 * unknown model is one), means the URL is wrong: the message names that key.
 */
export function requestError(
  sdk: typeof OpenAI,
  error: unknown,
  signal: AbortSignal,
  target: RequestTarget | null = null,
  baseUrlKey?: string,
): ModelError {
  if (signal.aborted) return abortedError();
  if (error instanceof ModelError) return error;
  if (error instanceof sdk.APIConnectionTimeoutError) return connectTimeoutError();
  if (error instanceof sdk.APIConnectionError) return connectionError(error.cause ?? error, target);
  if (error instanceof sdk.APIError && error.status === 404 && baseUrlKey !== undefined && !isApiErrorBody(error.error)) {
    return new ModelError(`${target?.url ?? 'the server'} answered 404 Not Found: check ${baseUrlKey} (it ends in /v1)`, false, 'other');
  }
  if (error instanceof sdk.APIError && typeof error.status === 'number') {
    return httpStatusError({ status: error.status, headers: error.headers, error: error.error, message: error.message });
  }
  return connectionError(error, target);
}
