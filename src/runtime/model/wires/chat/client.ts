/**
 * ModelClient over the `openai` SDK's Chat Completions streaming (`POST {base}/chat/completions`,
 * SSE): the SDK builds and sends the request and reads a failed status; the chunks are read by the
 * shared SSE reader and mapped by stream-map.ts. The SDK never retries (maxRetries 0): the core owns
 * both retry layers, and every failure is a ModelError.
 */
import type { OpenAI } from 'openai';
import { redactSecrets } from '../../../../protocol/redact.js';
import { abortedError, streamClosedError, streamFailureError, streamReadError } from '../../errors.js';
import { EventWaiter } from '../../event-waiter.js';
import { requestError, type Sdk, type SdkOptions, sdkLoader, warmSdk } from '../../openai-sdk.js';
import { listChatModels } from './models.js';
import { takeNodeBody } from '../../http-fetch.js';
import { sseEvents } from '../../sse-reader.js';
import { LIST_MODELS_TIMEOUT_MS, ModelError, type ModelClient, type ModelEvent, type ModelRequest } from '../../types.js';
import { toChatRequest } from './request.js';
import { ChatStreamMapper } from './stream-map.js';

export interface ChatClientOptions extends Omit<SdkOptions, 'fetch'> {
  label: string;
  /** The config key of the URL, named when the URL answers a web page. */
  baseUrlKey?: string;
}

/** Said once, as a warning the history never keeps, when the provider refuses the tools: the turn goes on without them. */
export const toolsRejectedNotice = (label: string): string =>
  `${label} does not support tools, so this session runs without them (no commands, no patches).`;

/** A 400/404/422 that says the model or server takes no tools (Ollama, llama.cpp, LM Studio and vLLM word it so). */
export function isToolsRejection(error: unknown): boolean {
  if (!(error instanceof ModelError)) return false;
  const text = `${error.message} ${error.additionalDetails ?? ''}`.toLowerCase();
  return /\btools?\b/.test(text) && /(not support|unsupported|does not support|doesn't support|not supported|not allowed)/.test(text);
}

export function createChatClient(options: ChatClientOptions): ModelClient {
  const load = sdkLoader(options, '/chat/completions');
  warmSdk(load);
  let toolsRejected = false;
  async function* stream(request: ModelRequest, signal: AbortSignal): AsyncGenerator<ModelEvent> {
    if (!toolsRejected) {
      try {
        // Nothing is yielded before the first chunk, so a refusal of the tools can still be retried without them.
        yield* streamChat(load, request, true, signal, options);
        return;
      } catch (error) {
        if (request.tools.length === 0 || !isToolsRejection(error)) throw error;
        toolsRejected = true;
        yield { type: 'notice', message: toolsRejectedNotice(options.label) };
      }
    }
    yield* streamChat(load, request, false, signal, options);
  }
  return {
    label: options.label,
    stream: (request, signal) => stream(request, signal),
    listModels: (signal) =>
      listChatModels(
        load,
        { baseURL: options.baseURL, headers: options.headers ?? {} },
        signal ?? new AbortController().signal,
        Math.min(options.idleTimeoutMs, LIST_MODELS_TIMEOUT_MS),
      ),
  };
}

async function* streamChat(
  load: () => Promise<Sdk>,
  request: ModelRequest,
  withTools: boolean,
  signal: AbortSignal,
  { idleTimeoutMs, baseUrlKey = 'base_url' }: Pick<ChatClientOptions, 'idleTimeoutMs' | 'baseUrlKey'>,
): AsyncGenerator<ModelEvent> {
  if (signal.aborted) throw abortedError();
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
      throw new ModelError(`cannot use the proxy: ${errorText(error)}`, false, 'other');
    }
    const { body, freeformTools } = toChatRequest(request, { withTools });
    let response: Response;
    try {
      response = await sdk.client.chat.completions
        .create(body as unknown as OpenAI.Chat.ChatCompletionCreateParamsStreaming, { signal: exchange.signal })
        .asResponse();
    } catch (error) {
      throw requestError(sdk.OpenAI, error, signal, sdk.target, baseUrlKey);
    }
    if (!/event-stream/i.test(response.headers.get('content-type') ?? 'text/event-stream')) {
      throw new ModelError(
        `${sdk.target.url} answered ${response.headers.get('content-type')}, not a stream: check ${baseUrlKey} (it ends in /v1)`,
        false,
        'other',
      );
    }
    iterator = sseEvents(takeNodeBody(response) ?? response.body);
    waiter = new EventWaiter(iterator, signal, exchange, idleTimeoutMs);
    const mapper = new ChatStreamMapper(freeformTools);
    for (;;) {
      let result: IteratorResult<unknown>;
      try {
        result = await waiter.next();
      } catch (error) {
        throw streamError(error, signal);
      }
      if (result.done) {
        if (signal.aborted) throw abortedError();
        // `[DONE]` or the end after a finish_reason: the answer is whole. Anything else was cut off.
        if (!mapper.finished) throw streamClosedError(null);
        yield* mapper.finish();
        return;
      }
      yield* mapper.feed(result.value);
    }
  } finally {
    waiter?.dispose();
    signal.removeEventListener('abort', onAbort);
    exchange.abort();
    iterator?.return?.().catch(() => undefined);
  }
}

/** An `error` object in a chunk is how OpenRouter and vLLM report a failure mid-stream. */
function streamError(error: unknown, signal: AbortSignal): ModelError {
  return streamReadError(error, signal, (inner) =>
    streamFailureError(typeof inner?.code === 'string' ? inner.code : null, typeof inner?.message === 'string' ? inner.message : null),
  );
}

function errorText(error: unknown): string {
  return redactSecrets(error instanceof Error ? error.message : String(error));
}
