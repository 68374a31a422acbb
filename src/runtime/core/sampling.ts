/**
 * One sampling request with Codex's two retry layers (docs/codex-parity.md#stream-retries-and-backoff):
 * a request that fails before its stream begins is retried silently, then a retryable failure is
 * announced as `Reconnecting... n/max` and retried after the server's delay or the backoff; anything
 * else fails the turn. The prompt is rebuilt from history on every attempt.
 */
import { errorMessage } from '../../error-message.js';
import type { CodexErrorInfo } from '../../protocol/api.js';
import type { ResponseItem } from '../../protocol/response-items.js';
import { setLongTimeout } from '../../protocol/long-timer.js';
import { retryAnnouncement } from '../model/retry.js';
import { type ModelEvent, ModelError, type ToolSpec } from '../model/types.js';
import { baseBrief } from '../context/base-brief.js';
import { modelFamily } from '../tools/model-family.js';
import { buildPromptInput, developerTextItem, unansweredTextElements } from './history.js';
import { newId } from './ids.js';
import { modelRequestBody } from './request-body.js';
import type { TurnServices } from './turn-services.js';
import { type ActiveTurn, TurnAborted, TurnFailed } from './turn-state.js';
import { webSearchItem } from './web-search-items.js';

export interface SamplingOptions {
  tools: ToolSpec[];
  /** Stream the assistant's message as agentMessage items (a compact turn does not). */
  emitAgentItems: boolean;
  /** Extra items appended to the prompt for this request only (the compact instruction). */
  extraInput?: ResponseItem[];
  /** A brief in place of the base brief (the review turn's). */
  brief?: string;
  /** A conversation of its own in place of the thread's context and history (the review turn's). */
  input?: readonly ResponseItem[];
  /** The request is a sub-agent's, marked as Codex marks it (request-body.ts). */
  subagent?: 'review';
}

export interface SamplingResult {
  /** Output items of the successful attempt, in order, ready to record. */
  items: ResponseItem[];
  endTurn: boolean | null;
  lastAgentMessage: string | null;
}

function httpStatusOf(info: CodexErrorInfo | null): number | null {
  if (info === null || typeof info === 'string') return null;
  for (const value of Object.values(info) as Array<{ httpStatusCode?: number | null }>) {
    if (value && typeof value.httpStatusCode === 'number') return value.httpStatusCode;
  }
  return null;
}

function asModelError(error: unknown): ModelError {
  if (error instanceof ModelError) return error;
  const message = errorMessage(error);
  return new ModelError(message, true, null);
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setLongTimeout(done, ms);
    function done(): void {
      timer.clear();
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

function messageText(item: ResponseItem): string {
  if (item.type !== 'message') return '';
  return item.content.map((c) => (c.type === 'output_text' || c.type === 'input_text' ? c.text : '')).join('');
}

export async function runSamplingRequest(services: TurnServices, turn: ActiveTurn, options: SamplingOptions): Promise<SamplingResult> {
  const max = services.config.streamMaxRetries;
  turn.samplingRequests += 1;
  let retries = 0;
  for (;;) {
    if (turn.signal.aborted) throw new TurnAborted();
    try {
      return await attemptWithRequestRetries(services, turn, options);
    } catch (caught) {
      if (turn.signal.aborted || caught instanceof TurnAborted) throw new TurnAborted();
      const error = asModelError(caught);
      if (!error.retryable) {
        throw new TurnFailed({ message: error.message, codexErrorInfo: error.info ?? 'other', additionalDetails: error.additionalDetails });
      }
      if (retries >= max) {
        // A server that never answered stays `httpConnectionFailed` (as Codex reports the last
        // transport error), so a client can tell an unreachable server from one that kept failing.
        const unreachable = error.info !== null && typeof error.info === 'object' && 'httpConnectionFailed' in error.info;
        throw new TurnFailed({
          message: `exceeded retry limit, last error: ${error.message}`,
          codexErrorInfo: unreachable ? error.info : { responseTooManyFailedAttempts: { httpStatusCode: httpStatusOf(error.info) } },
          additionalDetails: error.additionalDetails,
        });
      }
      retries += 1;
      const delay = error.retryAfterMs ?? services.backoffMs(retries);
      services.events.error(
        { message: retryAnnouncement(retries, max, delay), codexErrorInfo: error.info, additionalDetails: error.message },
        true,
      );
      await sleep(delay, turn.signal);
    }
  }
}

/**
 * A request that failed before its stream began (no connection, a 5xx answer) is sent again
 * silently up to `request_max_retries` times (docs/codex-parity.md#stream-retries-and-backoff);
 * a 429 and everything after the first event go to the announced stream retries.
 */
function requestRetryable(error: ModelError): boolean {
  const info = error.info;
  if (!error.retryable || info === null || typeof info !== 'object') return false;
  if ('httpConnectionFailed' in info) return true;
  const status = 'responseStreamConnectionFailed' in info ? info.responseStreamConnectionFailed.httpStatusCode : null;
  return status !== null && status !== undefined && status >= 500;
}

async function attemptWithRequestRetries(services: TurnServices, turn: ActiveTurn, options: SamplingOptions): Promise<SamplingResult> {
  let retries = 0;
  for (;;) {
    try {
      return await attemptSampling(services, turn, options);
    } catch (caught) {
      if (turn.signal.aborted || !(caught instanceof ModelError) || !requestRetryable(caught)) throw caught;
      if (retries >= services.config.requestMaxRetries) throw caught;
      retries += 1;
      await sleep(caught.retryAfterMs ?? services.backoffMs(retries), turn.signal);
      if (turn.signal.aborted) throw new TurnAborted();
    }
  }
}

async function attemptSampling(services: TurnServices, turn: ActiveTurn, options: SamplingOptions): Promise<SamplingResult> {
  // The brief first, as Codex sends its base instructions: a developer message, no `instructions` field.
  const brief = developerTextItem(options.brief ?? baseBrief(modelFamily(turn.context.model)));
  const input = [brief, ...(options.input ?? [...services.initialContext, ...buildPromptInput(services.history)])];
  if (options.extraInput) input.push(...options.extraInput);
  const request = modelRequestBody({
    model: turn.context.model,
    input,
    tools: options.tools,
    threadId: services.threadId,
    effort: turn.context.effort,
    outputSchema: turn.outputSchema,
    ...(options.subagent !== undefined ? { subagent: options.subagent } : {}),
  });
  const items: ResponseItem[] = [];
  // Model item id → our item id and text so far, for agent messages and reasoning of this attempt.
  const agentItems = new Map<string, { id: string; text: string }>();
  const reasoningItems = new Map<string, { id: string; text: string }>();
  let lastAgentMessage: string | null = null;
  let completed: Extract<ModelEvent, { type: 'completed' }> | null = null;
  const events = services.events;

  const startAgent = (modelId: string): { id: string; text: string } => {
    let entry = agentItems.get(modelId);
    if (!entry) {
      entry = { id: newId(), text: '' };
      agentItems.set(modelId, entry);
      if (options.emitAgentItems) events.itemStarted({ type: 'agentMessage', id: entry.id, text: '' });
    }
    return entry;
  };
  const startReasoning = (modelId: string): { id: string; text: string } => {
    let entry = reasoningItems.get(modelId);
    if (!entry) {
      entry = { id: newId(), text: '' };
      reasoningItems.set(modelId, entry);
      events.itemStarted({ type: 'reasoning', id: entry.id, summary: [], content: [] });
    }
    return entry;
  };

  // Model item id → our item id of each hosted web search, started when the server begins it.
  const searchItems = new Map<string, string>();
  const startSearch = (modelId: string): string => {
    let id = searchItems.get(modelId);
    if (id === undefined) {
      id = newId();
      searchItems.set(modelId, id);
      events.itemStarted(webSearchItem(id, undefined));
    }
    return id;
  };

  // A failed attempt's partial answer is never completed (Codex drops it): the retry streams a new
  // item, and a client shows the partial only until then (docs/codex-parity.md#stream-retries-and-backoff).
  const textElements = unansweredTextElements(services.history);
  const streamOptions = { turnId: turn.id, ...(textElements.length > 0 ? { textElements } : {}) };
  for await (const event of services.modelClient.stream(request, turn.signal, streamOptions)) {
    if (turn.signal.aborted) throw new TurnAborted();
    switch (event.type) {
      case 'created':
        break;
      case 'output_item_added':
        if (event.item.type === 'message' && event.item.role === 'assistant') startAgent(event.item.id ?? `anon-${agentItems.size}`);
        else if (event.item.type === 'web_search_call') startSearch(event.item.id ?? `anon-w-${searchItems.size}`);
        break;
      case 'output_text_delta': {
        const entry = startAgent(event.itemId);
        entry.text += event.delta;
        if (options.emitAgentItems) events.agentMessageDelta(entry.id, event.delta);
        break;
      }
      case 'reasoning_delta': {
        const entry = startReasoning(event.itemId);
        entry.text += event.delta;
        events.emit('item/reasoning/textDelta', { itemId: entry.id, delta: event.delta });
        break;
      }
      case 'output_item_done': {
        const item = event.item;
        items.push(item);
        if (item.type === 'message' && item.role === 'assistant') {
          const entry = startAgent(item.id ?? `anon-${agentItems.size}`);
          const text = messageText(item) || entry.text;
          lastAgentMessage = text;
          if (options.emitAgentItems) events.itemCompleted({ type: 'agentMessage', id: entry.id, text });
        } else if (item.type === 'web_search_call') {
          const id = startSearch(item.id ?? `anon-w-${searchItems.size}`);
          events.itemCompleted(webSearchItem(id, item.action));
        } else if (item.type === 'reasoning') {
          const entry = startReasoning(item.id ?? `anon-r-${reasoningItems.size}`);
          const summary = item.summary.map((s) => s.text);
          events.itemCompleted({ type: 'reasoning', id: entry.id, summary, content: entry.text ? [entry.text] : [] });
        }
        break;
      }
      case 'completed':
        completed = event;
        break;
      case 'notice':
        events.warning(event.message);
        break;
    }
  }
  if (turn.signal.aborted) throw new TurnAborted();
  if (completed === null) {
    throw new ModelError('stream closed before response.completed', true, { responseStreamDisconnected: { httpStatusCode: null } });
  }
  if (completed.usage) services.addUsage(completed.usage);
  return { items, endTurn: completed.endTurn, lastAgentMessage };
}
