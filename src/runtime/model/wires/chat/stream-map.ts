/**
 * Chat Completions chunks into the core's ModelEvents, as the Responses wire would give them: a
 * reasoning item (from `reasoning_content` / `reasoning` deltas, accumulated here: the SDK's own
 * final message keeps only the last piece), then the assistant message, then one call per tool-call
 * index. Items close in that order as the next begins, and all at the end. Pure and stateful: one
 * mapper per request.
 */
import type { ResponseItem } from '../../../../protocol/response-items.js';
import type { ModelEvent, TokenUsage } from '../../types.js';
import { CHAT_REASONING_MARK } from '../../reasoning-origin.js';

type Json = Record<string, unknown>;

const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const num = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);
const obj = (value: unknown): Json | null => (typeof value === 'object' && value !== null ? (value as Json) : null);

interface PendingCall {
  id: string;
  name: string;
  arguments: string;
}

export class ChatStreamMapper {
  private responseId: string | null = null;
  private reasoning: { id: string; text: string; open: boolean } | null = null;
  private message: { id: string; text: string; open: boolean } | null = null;
  private readonly calls = new Map<number, PendingCall>();
  private usage: TokenUsage | null = null;
  /** A choice's `finish_reason` came: the answer is whole even if the stream then ends without `[DONE]`. */
  finished = false;

  /** `freeformTools`: tools sent as functions taking `{input}` whose calls the core reads as custom tool calls. */
  constructor(private readonly freeformTools: ReadonlySet<string> = new Set()) {}

  feed(raw: unknown): ModelEvent[] {
    const chunk = obj(raw);
    if (!chunk) return [];
    const events: ModelEvent[] = [];
    if (this.responseId === null) {
      this.responseId = str(chunk.id) ?? 'chatcmpl';
      events.push({ type: 'created', responseId: this.responseId });
    }
    if (obj(chunk.usage)) this.usage = mapUsage(chunk.usage);
    const choice = obj(Array.isArray(chunk.choices) ? chunk.choices[0] : null);
    if (!choice) return events;
    const delta = obj(choice.delta) ?? {};
    const thinking = str(delta.reasoning_content) ?? str(delta.reasoning);
    if (thinking) {
      if (this.reasoning === null) {
        this.reasoning = { id: `${this.responseId}-reasoning`, text: '', open: true };
        events.push({ type: 'output_item_added', item: this.reasoningItem() });
      }
      this.reasoning.text += thinking;
      events.push({ type: 'reasoning_delta', itemId: this.reasoning.id, delta: thinking });
    }
    const content = str(delta.content);
    if (content) {
      this.closeReasoning(events);
      if (this.message === null) {
        this.message = { id: `${this.responseId}-message`, text: '', open: true };
        events.push({ type: 'output_item_added', item: this.messageItem() });
      }
      this.message.text += content;
      events.push({ type: 'output_text_delta', itemId: this.message.id, delta: content });
    }
    for (const raw of Array.isArray(delta.tool_calls) ? delta.tool_calls : []) {
      const call = obj(raw);
      if (!call) continue;
      this.closeReasoning(events);
      this.closeMessage(events);
      const index = typeof call.index === 'number' ? call.index : this.calls.size;
      const fn = obj(call.function) ?? {};
      let pending = this.calls.get(index);
      if (pending === undefined) {
        pending = { id: '', name: '', arguments: '' };
        this.calls.set(index, pending);
      }
      // The id and name come once, on a call's first piece; its arguments in pieces after.
      if (str(call.id)) pending.id = str(call.id)!;
      if (str(fn.name)) pending.name += str(fn.name)!;
      if (str(fn.arguments)) pending.arguments += str(fn.arguments)!;
    }
    if (str(choice.finish_reason)) this.finished = true;
    return events;
  }

  /** The items still open, then `completed`. */
  finish(): ModelEvent[] {
    const events: ModelEvent[] = [];
    if (this.responseId === null) {
      this.responseId = 'chatcmpl';
      events.push({ type: 'created', responseId: this.responseId });
    }
    this.closeReasoning(events);
    this.closeMessage(events);
    const calls = [...this.calls.entries()].sort(([a], [b]) => a - b);
    for (const [index, call] of calls) {
      events.push({ type: 'output_item_done', item: this.callItem(call, `${this.responseId}-call-${index}`) });
    }
    events.push({ type: 'completed', responseId: this.responseId, usage: this.usage, endTurn: null });
    return events;
  }

  private callItem(call: PendingCall, fallbackId: string): ResponseItem {
    const callId = call.id || fallbackId;
    if (this.freeformTools.has(call.name)) {
      const input = freeformInput(call.arguments);
      if (input !== null) return { type: 'custom_tool_call', call_id: callId, name: call.name, input };
    }
    return { type: 'function_call', call_id: callId, name: call.name, arguments: call.arguments };
  }

  private reasoningItem(): ResponseItem {
    const text = this.reasoning?.text ?? '';
    return {
      type: 'reasoning',
      id: this.reasoning?.id,
      summary: [],
      content: text === '' ? [] : [{ type: 'reasoning_text', text }],
      encrypted_content: CHAT_REASONING_MARK,
    };
  }

  private messageItem(): ResponseItem {
    const text = this.message?.text ?? '';
    return { type: 'message', id: this.message?.id, role: 'assistant', content: text === '' ? [] : [{ type: 'output_text', text }] };
  }

  private closeReasoning(events: ModelEvent[]): void {
    if (this.reasoning?.open !== true) return;
    this.reasoning.open = false;
    events.push({ type: 'output_item_done', item: this.reasoningItem() });
  }

  private closeMessage(events: ModelEvent[]): void {
    if (this.message?.open !== true) return;
    this.message.open = false;
    events.push({ type: 'output_item_done', item: this.messageItem() });
  }
}

/** A freeform tool's text from its function arguments `{"input": "…"}`; null when they are not that shape (the core reports it). */
function freeformInput(args: string): string | null {
  try {
    const input = obj(JSON.parse(args))?.input;
    return typeof input === 'string' ? input : null;
  } catch {
    return null;
  }
}

/** `usage` of the last chunk: prompt and completion tokens, with the cached and reasoning parts where the server counts them. */
export function mapUsage(raw: unknown): TokenUsage | null {
  const usage = obj(raw);
  if (!usage) return null;
  const input = num(usage.prompt_tokens);
  const output = num(usage.completion_tokens);
  // DeepSeek counts cache hits in its own field.
  const cached = num(obj(usage.prompt_tokens_details)?.cached_tokens) || num(usage.prompt_cache_hit_tokens);
  return {
    input_tokens: input,
    cached_input_tokens: cached,
    cache_write_input_tokens: 0,
    output_tokens: output,
    reasoning_output_tokens: num(obj(usage.completion_tokens_details)?.reasoning_tokens),
    total_tokens: typeof usage.total_tokens === 'number' ? num(usage.total_tokens) : input + output,
  };
}
