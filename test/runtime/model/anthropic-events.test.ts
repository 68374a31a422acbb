/** Anthropic stream events as the core's ModelEvents (wires/anthropic/event-map.ts), from the fake server's own event lists. */
import { describe, expect, it } from 'vitest';
import type { ModelError, ModelEvent } from '../../../src/runtime/model/types.js';
import { MessageEvents } from '../../../src/runtime/model/wires/anthropic/event-map.js';
import { type AnthropicScript, messageEvents } from '../../support/fake-anthropic-server.js';

function mapAll(script: AnthropicScript, customTools: string[] = []): ModelEvent[] {
  const events = new MessageEvents(new Set(customTools));
  return messageEvents(script, 'msg_1', 'claude-x').flatMap((raw) => {
    const mapped = events.map(raw);
    if ('error' in mapped) throw mapped.error;
    return mapped;
  });
}

const done = (events: ModelEvent[]) => events.flatMap((e) => (e.type === 'output_item_done' ? [e.item] : []));

describe('Anthropic stream events', () => {
  it('streams text as deltas of one message item and completes with the message id', () => {
    const events = mapAll({ text: 'Hello there, friend' });
    expect(events[0]).toEqual({ type: 'created', responseId: 'msg_1' });
    expect(events[1]).toEqual({ type: 'output_item_added', item: { type: 'message', id: 'msg_1:0', role: 'assistant', content: [] } });
    expect(events.filter((e) => e.type === 'output_text_delta').map((e) => (e as { delta: string }).delta)).toEqual([
      'Hello',
      ' there,',
      ' friend',
    ]);
    expect(done(events)).toEqual([
      { type: 'message', id: 'msg_1:0', role: 'assistant', content: [{ type: 'output_text', text: 'Hello there, friend' }] },
    ]);
    expect(events.at(-1)).toMatchObject({ type: 'completed', responseId: 'msg_1', endTurn: null });
  });

  it('joins each tool_use input from its JSON pieces; several blocks are parallel calls', () => {
    const events = mapAll({
      toolUses: [
        { name: 'exec_command', input: { cmd: 'ls -la', workdir: '/tmp' }, id: 'toolu_a' },
        { name: 'exec_command', input: { cmd: 'pwd' }, id: 'toolu_b' },
      ],
      pieceLength: 3,
    });
    expect(done(events)).toEqual([
      { type: 'function_call', id: 'msg_1:0', call_id: 'toolu_a', name: 'exec_command', arguments: '{"cmd":"ls -la","workdir":"/tmp"}' },
      { type: 'function_call', id: 'msg_1:1', call_id: 'toolu_b', name: 'exec_command', arguments: '{"cmd":"pwd"}' },
    ]);
  });

  it("gives a freeform tool's call its text, and a call without input `{}`", () => {
    const events = mapAll(
      {
        toolUses: [
          { name: 'apply_patch', input: { input: '*** Begin Patch\n*** End Patch' } },
          { name: 'list', input: {} },
        ],
      },
      ['apply_patch'],
    );
    expect(done(events)).toEqual([
      { type: 'custom_tool_call', id: 'msg_1:0', call_id: 'toolu_msg_1_0', name: 'apply_patch', input: '*** Begin Patch\n*** End Patch' },
      { type: 'function_call', id: 'msg_1:1', call_id: 'toolu_msg_1_1', name: 'list', arguments: '{}' },
    ]);
  });

  it('streams thinking as reasoning deltas and records the block with its signature', () => {
    const events = mapAll({ thinking: { text: 'Think hard', signature: 'sig/+==' }, text: 'ok' });
    expect(events.filter((e) => e.type === 'reasoning_delta')).toEqual([
      { type: 'reasoning_delta', itemId: 'msg_1:0', delta: 'Think' },
      { type: 'reasoning_delta', itemId: 'msg_1:0', delta: ' hard' },
    ]);
    const [reasoning] = done(events);
    expect(reasoning).toMatchObject({
      type: 'reasoning',
      id: 'msg_1:0',
      summary: [],
      content: [{ type: 'reasoning_text', text: 'Think hard' }],
    });
    expect((reasoning as { encrypted_content: string }).encrypted_content.endsWith('sig/+==')).toBe(true);
  });

  it('counts cache reads and writes into the input figure, and the output from message_delta', () => {
    const events = mapAll({
      text: 'x',
      usage: { input_tokens: 12, cache_read_input_tokens: 3000, cache_creation_input_tokens: 200, output_tokens: 42 },
    });
    expect(events.at(-1)).toEqual({
      type: 'completed',
      responseId: 'msg_1',
      endTurn: null,
      usage: {
        input_tokens: 3212,
        cached_input_tokens: 3000,
        cache_write_input_tokens: 200,
        output_tokens: 42,
        reasoning_output_tokens: 0,
        total_tokens: 3254,
      },
    });
  });

  it('maps an error event by its type: overloaded is retried, a bad request is not', () => {
    const events = new MessageEvents(new Set());
    const overloaded = events.map({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }) as { error: ModelError };
    expect(overloaded.error).toMatchObject({ message: 'Overloaded', retryable: true });
    const bad = events.map({
      type: 'error',
      error: { type: 'invalid_request_error', message: 'prompt is too long: 300000 tokens > 200000 maximum' },
    }) as {
      error: ModelError;
    };
    expect(bad.error).toMatchObject({ retryable: false, info: 'contextWindowExceeded' });
    expect(events.map({ type: 'ping' })).toEqual([]);
  });
});
