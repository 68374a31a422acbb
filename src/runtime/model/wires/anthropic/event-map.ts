/**
 * One streamed Messages answer as the core's ModelEvents. The answer is a list of content blocks,
 * each opened, filled by deltas and closed: text streams as output text, a `tool_use` block's
 * input as JSON pieces (`input_json_delta`), a thinking block as `thinking_delta`s with its
 * `signature_delta`. A closed block is one history item (a message, a function or custom tool call,
 * a reasoning item). Several `tool_use` blocks in one answer are parallel calls. Unknown events and
 * block kinds are ignored.
 */
import type { ResponseItem } from '../../../../protocol/response-items.js';
import type { ModelError, ModelEvent, TokenUsage } from '../../types.js';
import { anthropicStreamError } from './errors.js';
import { redactedThinkingItem, thinkingItem } from './thinking.js';

type Json = Record<string, unknown>;

const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const obj = (value: unknown): Json | null => (typeof value === 'object' && value !== null ? (value as Json) : null);
const count = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);

type OpenBlock =
  | { kind: 'text'; id: string; text: string }
  | { kind: 'tool_use'; id: string; callId: string; name: string; json: string }
  | { kind: 'thinking'; id: string; thinking: string; signature: string }
  | { kind: 'redacted_thinking'; id: string; data: string };

interface Usage {
  input: number;
  cacheRead: number;
  cacheWrite: number;
  output: number;
}

export class MessageEvents {
  private messageId = '';
  private readonly blocks = new Map<number, OpenBlock>();
  private readonly usage: Usage = { input: 0, cacheRead: 0, cacheWrite: 0, output: 0 };
  private sawUsage = false;

  /** @param customTools the freeform tools of the request: their call's `input` is its text. */
  constructor(private readonly customTools: ReadonlySet<string>) {}

  /** The events one SSE event makes (none for most), or the error it reports. */
  map(raw: unknown): ModelEvent[] | { error: ModelError } {
    const event = obj(raw);
    if (!event) return [];
    switch (event.type) {
      case 'message_start': {
        const message = obj(event.message);
        this.messageId = str(message?.id) ?? '';
        this.addUsage(message?.usage);
        return [{ type: 'created', responseId: this.messageId }];
      }
      case 'content_block_start':
        return this.start(count(event.index) ?? -1, obj(event.content_block));
      case 'content_block_delta':
        return this.delta(count(event.index) ?? -1, obj(event.delta));
      case 'content_block_stop':
        return this.stop(count(event.index) ?? -1);
      case 'message_delta':
        this.addUsage(event.usage);
        return [];
      case 'message_stop':
        return [{ type: 'completed', responseId: this.messageId, usage: this.tokenUsage(), endTurn: null }];
      case 'error': {
        const error = obj(event.error);
        return { error: anthropicStreamError(str(error?.type), str(error?.message)) };
      }
      default:
        return [];
    }
  }

  private start(index: number, block: Json | null): ModelEvent[] {
    const id = `${this.messageId}:${index}`;
    switch (block?.type) {
      case 'text': {
        const text = str(block.text) ?? '';
        this.blocks.set(index, { kind: 'text', id, text });
        const added: ModelEvent = { type: 'output_item_added', item: { type: 'message', id, role: 'assistant', content: [] } };
        return text === '' ? [added] : [added, { type: 'output_text_delta', itemId: id, delta: text }];
      }
      case 'tool_use': {
        const callId = str(block.id) ?? id;
        // The input comes as JSON pieces; a block that starts with its whole input has none.
        const input = obj(block.input);
        const json = input && Object.keys(input).length > 0 ? JSON.stringify(input) : '';
        this.blocks.set(index, { kind: 'tool_use', id, callId, name: str(block.name) ?? '', json });
        return [];
      }
      case 'thinking': {
        const thinking = str(block.thinking) ?? '';
        this.blocks.set(index, { kind: 'thinking', id, thinking, signature: str(block.signature) ?? '' });
        return thinking === '' ? [] : [{ type: 'reasoning_delta', itemId: id, delta: thinking }];
      }
      case 'redacted_thinking':
        this.blocks.set(index, { kind: 'redacted_thinking', id, data: str(block.data) ?? '' });
        return [];
      default:
        return [];
    }
  }

  private delta(index: number, delta: Json | null): ModelEvent[] {
    const block = this.blocks.get(index);
    if (!block || !delta) return [];
    const piece = (key: string): string => str(delta[key]) ?? '';
    if (delta.type === 'text_delta' && block.kind === 'text') {
      const text = piece('text');
      block.text += text;
      return [{ type: 'output_text_delta', itemId: block.id, delta: text }];
    }
    if (delta.type === 'input_json_delta' && block.kind === 'tool_use') block.json += piece('partial_json');
    else if (delta.type === 'thinking_delta' && block.kind === 'thinking') {
      const text = piece('thinking');
      block.thinking += text;
      return [{ type: 'reasoning_delta', itemId: block.id, delta: text }];
    } else if (delta.type === 'signature_delta' && block.kind === 'thinking') block.signature += piece('signature');
    return [];
  }

  private stop(index: number): ModelEvent[] {
    const block = this.blocks.get(index);
    if (!block) return [];
    this.blocks.delete(index);
    const item = this.item(block);
    return [{ type: 'output_item_done', item }];
  }

  private item(block: OpenBlock): ResponseItem {
    switch (block.kind) {
      case 'text':
        return { type: 'message', id: block.id, role: 'assistant', content: [{ type: 'output_text', text: block.text }] };
      case 'tool_use': {
        const args = block.json === '' ? '{}' : block.json;
        if (this.customTools.has(block.name)) {
          return { type: 'custom_tool_call', id: block.id, call_id: block.callId, name: block.name, input: freeformInput(args) };
        }
        return { type: 'function_call', id: block.id, call_id: block.callId, name: block.name, arguments: args };
      }
      case 'thinking':
        return thinkingItem(block.id, block.thinking, block.signature);
      case 'redacted_thinking':
        return redactedThinkingItem(block.id, block.data);
    }
  }

  /** message_start carries the input counts, message_delta the output (and, from newer servers, input again: the later wins). */
  private addUsage(raw: unknown): void {
    const usage = obj(raw);
    if (!usage) return;
    this.sawUsage = true;
    this.usage.input = count(usage.input_tokens) ?? this.usage.input;
    this.usage.cacheRead = count(usage.cache_read_input_tokens) ?? this.usage.cacheRead;
    this.usage.cacheWrite = count(usage.cache_creation_input_tokens) ?? this.usage.cacheWrite;
    this.usage.output = count(usage.output_tokens) ?? this.usage.output;
  }

  /** Anthropic's `input_tokens` leaves out the cached ones: the input figure is all three. */
  private tokenUsage(): TokenUsage | null {
    if (!this.sawUsage) return null;
    const { input, cacheRead, cacheWrite, output } = this.usage;
    const inputTokens = input + cacheRead + cacheWrite;
    return {
      input_tokens: inputTokens,
      cached_input_tokens: cacheRead,
      cache_write_input_tokens: cacheWrite,
      output_tokens: output,
      reasoning_output_tokens: 0,
      total_tokens: inputTokens + output,
    };
  }
}

/** A freeform tool's text, from the `{input}` object the model filled (raw JSON when it wrote something else). */
function freeformInput(json: string): string {
  try {
    const input = obj(JSON.parse(json))?.input;
    return typeof input === 'string' ? input : json;
  } catch {
    return json;
  }
}
