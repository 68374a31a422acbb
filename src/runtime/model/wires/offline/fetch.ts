/**
 * The embedded offline model as a `fetch` implementation: the `openai` SDK posts to
 * {OFFLINE_BASE_URL}/responses and gets Responses SSE served in process, so offline runs take
 * the same code path as a real server. Text streams word by word at a readable pace.
 */
import type { ResponseItem } from '../../../../protocol/response-items.js';
import { encodeSse, responseEvents, splitWords } from '../responses/sse-events.js';
import type { ModelStreamOptions } from '../../types.js';
import { decideReply } from './account.js';

export const OFFLINE_BASE_URL = 'http://offline.tiller/v1';
export const OFFLINE_LABEL = 'offline';
/**
 * The body field where the offline client (client.ts) puts the request's stream options, which
 * the Responses body has no place for. The body never leaves the process.
 */
export const STREAM_OPTIONS_FIELD = 'tiller_stream_options';
/** The name it answers to (config.ts's OFFLINE_MODEL). */
const OFFLINE_MODEL_ID = 'tiller-offline';
const DEFAULT_DELAY_MS = 25;

export interface OfflineFetchOptions {
  /** Pause before each streamed word; default TILLER_OFFLINE_DELAY_MS, else 25 ms. */
  delayMs?: number;
}

export function offlineDelayFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.TILLER_OFFLINE_DELAY_MS;
  const value = raw === undefined || raw.trim() === '' ? NaN : Number(raw);
  return Number.isFinite(value) && value >= 0 ? value : DEFAULT_DELAY_MS;
}

export function createOfflineFetch(options: OfflineFetchOptions = {}): typeof globalThis.fetch {
  const delayMs = options.delayMs ?? offlineDelayFromEnv();
  // Per thread (prompt_cache_key): the turn of the previous request, to recognise steered input.
  const lastTurn = new Map<string, string>();
  let responses = 0;

  return async (input, init) => {
    const request = new Request(input, init);
    const path = new URL(request.url).pathname;
    // The offline model lists itself (the /model picker).
    if (request.method === 'GET' && path.endsWith('/models')) {
      return json(200, { object: 'list', data: [{ id: OFFLINE_MODEL_ID, object: 'model', created: 0, owned_by: 'tiller' }] });
    }
    if (request.method !== 'POST' || !path.endsWith('/responses')) {
      return json(404, { error: { message: `the offline model does not serve ${request.method} ${path}`, type: 'invalid_request_error' } });
    }
    let body: { model?: unknown; input?: unknown; prompt_cache_key?: unknown; [STREAM_OPTIONS_FIELD]?: ModelStreamOptions };
    try {
      body = (await request.json()) as typeof body;
    } catch {
      return json(400, { error: { message: 'request body is not JSON', type: 'invalid_request_error' } });
    }
    const items = Array.isArray(body.input) ? (body.input as ResponseItem[]) : [];
    const thread = typeof body.prompt_cache_key === 'string' ? body.prompt_cache_key : '';
    const streamOptions = body[STREAM_OPTIONS_FIELD] ?? {};
    const turnId = streamOptions.turnId || null;
    const sameTurnAsPrevious = turnId !== null && lastTurn.get(thread) === turnId;
    if (turnId !== null) lastTurn.set(thread, turnId);

    const textElements = streamOptions.textElements ?? [];
    const reply = decideReply({ input: items, sameTurnAsPrevious, textElements });
    responses += 1;
    const responseId = `resp_offline_${responses}`;
    const deltas = reply.text === null ? [] : splitWords(reply.text);
    const events = responseEvents({
      responseId,
      model: typeof body.model === 'string' ? body.model : OFFLINE_MODEL_ID,
      deltas,
      ...(reply.command === null
        ? {}
        : {
            functionCall: { name: 'exec_command', arguments: JSON.stringify({ cmd: reply.command }), callId: `call_offline_${responses}` },
          }),
      usage: { input_tokens: Math.ceil(JSON.stringify(items).length / 4), output_tokens: deltas.length },
    });
    return new Response(eventStream(events, delayMs, request.signal), {
      status: 200,
      headers: { 'content-type': 'text/event-stream' },
    });
  };
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

/** Streams the events, pausing before each text delta; an abort errors the body at once. */
function eventStream(events: { type: string }[], delayMs: number, signal: AbortSignal): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let index = 0;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let wake: (() => void) | null = null;
  const stop = (): void => {
    stopped = true;
    if (timer) clearTimeout(timer);
    wake?.();
  };
  return new ReadableStream<Uint8Array>({
    start(controller) {
      signal.addEventListener(
        'abort',
        () => {
          if (!stopped) controller.error(signal.reason ?? new DOMException('aborted', 'AbortError'));
          stop();
        },
        { once: true },
      );
    },
    async pull(controller) {
      const event = events[index];
      if (stopped) return;
      if (!event) {
        controller.close();
        return;
      }
      if (delayMs > 0 && event.type === 'response.output_text.delta') {
        await new Promise<void>((resolve) => {
          wake = resolve;
          timer = setTimeout(resolve, delayMs);
        });
        timer = null;
        wake = null;
        if (stopped) return;
      }
      index += 1;
      controller.enqueue(encoder.encode(encodeSse(event)));
    },
    cancel: stop,
  });
}
