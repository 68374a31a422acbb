/**
 * Maps one Responses SSE event (as parsed by the SDK) to what the core consumes (docs/codex-parity.md#stream-events).
 * Unknown event types and unknown output item kinds map to null and are ignored.
 */
import type { ContentItem, ResponseItem, ResponsesWebSearchAction } from '../../../../protocol/response-items.js';
import { incompleteError, streamFailureError } from '../../errors.js';
import type { ModelError, ModelEvent, TokenUsage } from '../../types.js';

export type MappedEvent = { event: ModelEvent } | { error: ModelError } | null;

type Json = Record<string, unknown>;

const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const num = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);
const obj = (value: unknown): Json | null => (typeof value === 'object' && value !== null ? (value as Json) : null);

export function mapStreamEvent(raw: unknown): MappedEvent {
  const event = obj(raw);
  if (!event) return null;
  switch (event.type) {
    case 'response.created': {
      const response = obj(event.response);
      return { event: { type: 'created', responseId: str(response?.id) ?? '' } };
    }
    case 'response.output_item.added': {
      const item = mapOutputItem(event.item);
      return item ? { event: { type: 'output_item_added', item } } : null;
    }
    case 'response.output_item.done': {
      const item = mapOutputItem(event.item);
      return item ? { event: { type: 'output_item_done', item } } : null;
    }
    case 'response.output_text.delta':
      return { event: { type: 'output_text_delta', itemId: str(event.item_id) ?? '', delta: str(event.delta) ?? '' } };
    case 'response.reasoning_summary_text.delta':
    case 'response.reasoning_text.delta':
      return { event: { type: 'reasoning_delta', itemId: str(event.item_id) ?? '', delta: str(event.delta) ?? '' } };
    case 'response.completed': {
      const response = obj(event.response);
      const endTurn = response?.end_turn;
      return {
        event: {
          type: 'completed',
          responseId: str(response?.id) ?? '',
          usage: mapUsage(response?.usage),
          endTurn: typeof endTurn === 'boolean' ? endTurn : null,
        },
      };
    }
    case 'response.failed': {
      const error = obj(obj(event.response)?.error);
      return { error: streamFailureError(str(error?.code), str(error?.message)) };
    }
    case 'response.incomplete': {
      const details = obj(obj(event.response)?.incomplete_details);
      return { error: incompleteError(str(details?.reason)) };
    }
    case 'error':
      return { error: streamFailureError(str(event.code), str(event.message)) };
    default:
      return null;
  }
}

/** Only the fields Codex keeps: what is sent back is what the server can read again. */
function webSearchAction(raw: unknown): ResponsesWebSearchAction | null {
  const action = obj(raw);
  if (!action) return null;
  const opt = <K extends string>(key: K, value: unknown): Partial<Record<K, string>> => {
    const text = str(value);
    return text === null ? {} : ({ [key]: text } as Record<K, string>);
  };
  switch (action.type) {
    case 'search': {
      const queries = Array.isArray(action.queries) ? action.queries.filter((q): q is string => typeof q === 'string') : null;
      return { type: 'search', ...opt('query', action.query), ...(queries ? { queries } : {}) };
    }
    case 'open_page':
      return { type: 'open_page', ...opt('url', action.url) };
    case 'find_in_page':
      return { type: 'find_in_page', ...opt('url', action.url), ...opt('pattern', action.pattern) };
    default:
      return { type: 'other' };
  }
}

function mapUsage(raw: unknown): TokenUsage | null {
  const usage = obj(raw);
  if (!usage) return null;
  const input = num(usage.input_tokens);
  const output = num(usage.output_tokens);
  const details = obj(usage.input_tokens_details);
  return {
    input_tokens: input,
    cached_input_tokens: num(details?.cached_tokens),
    cache_write_input_tokens: num(details?.cache_write_tokens),
    output_tokens: output,
    reasoning_output_tokens: num(obj(usage.output_tokens_details)?.reasoning_tokens),
    total_tokens: typeof usage.total_tokens === 'number' ? num(usage.total_tokens) : input + output,
  };
}

export function mapOutputItem(raw: unknown): ResponseItem | null {
  const item = obj(raw);
  if (!item) return null;
  const id = str(item.id) ?? undefined;
  switch (item.type) {
    case 'message': {
      const content: ContentItem[] = [];
      for (const part of Array.isArray(item.content) ? item.content : []) {
        const p = obj(part);
        if (p?.type === 'output_text') content.push({ type: 'output_text', text: str(p.text) ?? '' });
        else if (p?.type === 'refusal') content.push({ type: 'output_text', text: str(p.refusal) ?? '' });
      }
      const role = item.role === 'user' || item.role === 'developer' || item.role === 'system' ? item.role : 'assistant';
      return { type: 'message', id, role, content };
    }
    case 'function_call':
      return {
        type: 'function_call',
        id,
        call_id: str(item.call_id) ?? '',
        name: str(item.name) ?? '',
        arguments: str(item.arguments) ?? '',
      };
    case 'custom_tool_call':
      return { type: 'custom_tool_call', id, call_id: str(item.call_id) ?? '', name: str(item.name) ?? '', input: str(item.input) ?? '' };
    case 'reasoning': {
      const texts = (list: unknown, type: string): string[] =>
        (Array.isArray(list) ? list : [])
          .map((s) => obj(s))
          .filter((s) => s !== null && (s.type === undefined || s.type === type))
          .map((s) => str(s!.text))
          .filter((t): t is string => t !== null);
      const summary = texts(item.summary, 'summary_text').map((text) => ({ type: 'summary_text' as const, text }));
      // Sent back as it came: a server that returns the raw reasoning expects it again.
      const content = Array.isArray(item.content)
        ? texts(item.content, 'reasoning_text').map((text) => ({ type: 'reasoning_text' as const, text }))
        : null;
      return { type: 'reasoning', id, summary, content, encrypted_content: str(item.encrypted_content) };
    }
    case 'web_search_call': {
      const status = str(item.status);
      const action = webSearchAction(item.action);
      return { type: 'web_search_call', ...(id ? { id } : {}), ...(status ? { status } : {}), ...(action ? { action } : {}) };
    }
    default:
      return null;
  }
}
