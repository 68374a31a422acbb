/**
 * ModelClient over the `openai` SDK's Responses streaming (HTTP SSE). The SDK never retries
 * (maxRetries 0): the core owns the retry loop. Every failure surfaces as a ModelError.
 *
 * Abort: when the caller's signal aborts, the stream ends promptly by throwing
 * `abortedError()` (ModelError 'aborted', retryable false); callers check `signal.aborted` first.
 */
import type { OpenAI } from 'openai';
import { abortedError, streamClosedError, streamReadError } from '../../errors.js';
import { redactSecrets } from '../../../../protocol/redact.js';
import { EventWaiter } from '../../event-waiter.js';
import { listModels, requestError, type Sdk, type SdkOptions, sdkLoader, warmSdk } from '../../openai-sdk.js';
import { takeNodeBody } from '../../http-fetch.js';
import { mapStreamEvent } from './event-map.js';
import { sseEvents } from '../../sse-reader.js';
import { carriedReasoning } from '../../reasoning-origin.js';
import { LIST_MODELS_TIMEOUT_MS, ModelError, type ModelClient, type ModelEvent, type ModelRequest } from '../../types.js';

/** `fetch`: the embedded offline model serves SSE in process. */
export interface SdkModelClientOptions extends Omit<SdkOptions, 'headers' | 'queryParams'> {
  label: string;
}

export function createSdkModelClient(options: SdkModelClientOptions): ModelClient {
  const load = sdkLoader(options, '/responses');
  warmSdk(load);
  return {
    label: options.label,
    // A server gets the body alone: the stream options are for in-process transports (wires/offline/client.ts).
    stream: (request, signal) => streamResponse(load, request, signal, options.idleTimeoutMs),
    listModels: (signal) =>
      listModels(load, signal ?? new AbortController().signal, Math.min(options.idleTimeoutMs, LIST_MODELS_TIMEOUT_MS)),
  };
}

/** The body as sent: an Anthropic thinking block recorded before a provider switch would be a 400 here. */
export function responsesBody(request: ModelRequest): ModelRequest {
  return { ...request, input: carriedReasoning(request.input, ['encrypted', 'plain']) };
}

async function* streamResponse(
  load: () => Promise<Sdk>,
  request: ModelRequest,
  signal: AbortSignal,
  idleTimeoutMs: number,
): AsyncGenerator<ModelEvent> {
  if (signal.aborted) throw abortedError();
  // One controller for the HTTP exchange: aborted by the caller, by the idle timer, or on exit.
  const exchange = new AbortController();
  const onAbort = (): void => exchange.abort();
  signal.addEventListener('abort', onAbort, { once: true });
  let iterator: AsyncIterator<unknown> | null = null;
  let waiter: EventWaiter | null = null;
  try {
    let sdk: Sdk;
    try {
      sdk = await load();
    } catch (error) {
      // A proxy variable that is no URL: every request would fail the same way.
      throw new ModelError(`cannot use the proxy: ${errorText(error)}`, false, 'other');
    }
    let response: Response;
    try {
      // The SDK sends the request (headers, body, its errors for a status); the events are read here (sse-reader.ts).
      response = await sdk.client.responses
        .create(responsesBody(request) as unknown as OpenAI.Responses.ResponseCreateParamsStreaming, {
          signal: exchange.signal,
          // Codex sends a sub-agent's mark as a header too (the review turn's `x-openai-subagent: review`).
          ...(request.client_metadata !== undefined ? { headers: request.client_metadata } : {}),
        })
        .asResponse();
    } catch (error) {
      throw requestError(sdk.OpenAI, error, signal, sdk.target);
    }
    iterator = sseEvents(takeNodeBody(response) ?? response.body);
    waiter = new EventWaiter(iterator, signal, exchange, idleTimeoutMs);
    for (;;) {
      let result: IteratorResult<unknown>;
      try {
        result = await waiter.next();
      } catch (error) {
        throw streamError(error, signal);
      }
      // The SDK ends its iterator quietly when aborted, so an early end may be an abort.
      if (result.done) throw signal.aborted ? abortedError() : streamClosedError(null);
      const mapped = mapStreamEvent(result.value);
      if (mapped === null) continue;
      if ('error' in mapped) throw mapped.error;
      yield mapped.event;
      if (mapped.event.type === 'completed') return;
    }
  } finally {
    waiter?.dispose();
    signal.removeEventListener('abort', onAbort);
    exchange.abort();
    iterator?.return?.().catch(() => undefined);
  }
}

function errorText(error: unknown): string {
  return redactSecrets(error instanceof Error ? error.message : String(error));
}

/** An `error` object inside an event's data is mapped as the `error` event it stands for. */
function streamError(error: unknown, signal: AbortSignal): ModelError {
  return streamReadError(error, signal, (inner) => {
    if (inner === null) return null;
    const mapped = mapStreamEvent({ type: 'error', code: inner.code, message: inner.message });
    return mapped && 'error' in mapped ? mapped.error : null;
  });
}
