import { describe, expect, it } from 'vitest';
import type { ModelEvent } from '../../../src/runtime/model/types.js';
import { ChatStreamMapper, mapUsage } from '../../../src/runtime/model/wires/chat/stream-map.js';
import { chatChunks } from '../../support/fake-chat-server.js';

function run(chunks: object[], freeform: string[] = []): ModelEvent[] {
  const mapper = new ChatStreamMapper(new Set(freeform));
  const events = chunks.flatMap((chunk) => mapper.feed(chunk));
  expect(mapper.finished).toBe(true);
  return [...events, ...mapper.finish()];
}

const done = (events: ModelEvent[]) => events.flatMap((e) => (e.type === 'output_item_done' ? [e.item] : []));

describe('ChatStreamMapper', () => {
  it('text: created, the message item, one delta per piece, then completed with the usage of the last chunk', () => {
    const events = run(
      chatChunks('id1', 'm', { text: 'Hello there world', usage: { prompt_tokens: 12, completion_tokens: 3, cached_tokens: 4 } }, true),
    );
    expect(events[0]).toEqual({ type: 'created', responseId: 'id1' });
    expect(events.filter((e) => e.type === 'output_text_delta').map((e) => (e as { delta: string }).delta)).toEqual([
      'Hello ',
      'there ',
      'world',
    ]);
    expect(done(events)).toEqual([
      { type: 'message', id: 'id1-message', role: 'assistant', content: [{ type: 'output_text', text: 'Hello there world' }] },
    ]);
    expect(events.at(-1)).toEqual({
      type: 'completed',
      responseId: 'id1',
      endTurn: null,
      usage: {
        input_tokens: 12,
        cached_input_tokens: 4,
        cache_write_input_tokens: 0,
        output_tokens: 3,
        reasoning_output_tokens: 0,
        total_tokens: 15,
      },
    });
  });

  it('reasoning_content (or reasoning) pieces are accumulated into one reasoning item, closed before the answer', () => {
    for (const field of ['reasoning_content', 'reasoning'] as const) {
      const events = run(chatChunks('r', 'm', { reasoning: ['Think ', 'hard', '.'], reasoningField: field, text: 'Answer' }, false));
      expect(events.filter((e) => e.type === 'reasoning_delta').map((e) => (e as { delta: string }).delta)).toEqual([
        'Think ',
        'hard',
        '.',
      ]);
      expect(done(events)).toEqual([
        {
          type: 'reasoning',
          id: 'r-reasoning',
          summary: [],
          content: [{ type: 'reasoning_text', text: 'Think hard.' }],
          encrypted_content: 'chat-reasoning:',
        },
        { type: 'message', id: 'r-message', role: 'assistant', content: [{ type: 'output_text', text: 'Answer' }] },
      ]);
      expect(events.at(-1)).toMatchObject({ type: 'completed', usage: null });
    }
  });

  it('several tool calls streamed at once are assembled per index; a freeform tool becomes a custom tool call', () => {
    const patch = '*** Begin Patch\n*** Add File: a.txt\n+hi\n*** End Patch';
    const events = run(
      chatChunks(
        't',
        'm',
        {
          toolCalls: [
            { name: 'shell', arguments: { command: ['echo', 'one two three'] }, id: 'call_a' },
            { name: 'apply_patch', arguments: { input: patch }, id: 'call_b' },
            { name: 'shell', arguments: { command: ['ls'] }, id: 'call_c' },
          ],
        },
        false,
      ),
      ['apply_patch'],
    );
    expect(done(events)).toEqual([
      { type: 'function_call', call_id: 'call_a', name: 'shell', arguments: JSON.stringify({ command: ['echo', 'one two three'] }) },
      { type: 'custom_tool_call', call_id: 'call_b', name: 'apply_patch', input: patch },
      { type: 'function_call', call_id: 'call_c', name: 'shell', arguments: JSON.stringify({ command: ['ls'] }) },
    ]);
  });

  it('a freeform call whose arguments are not `{input}` stays a function call, for the tool to report', () => {
    const events = run(chatChunks('t', 'm', { toolCalls: [{ name: 'apply_patch', arguments: 'not json', id: 'c' }] }, false), [
      'apply_patch',
    ]);
    expect(done(events)).toEqual([{ type: 'function_call', call_id: 'c', name: 'apply_patch', arguments: 'not json' }]);
  });

  it('without a finish_reason the answer is not whole', () => {
    const mapper = new ChatStreamMapper();
    for (const chunk of chatChunks('x', 'm', { text: 'cut' }, false).slice(0, 2)) mapper.feed(chunk);
    expect(mapper.finished).toBe(false);
  });
});

describe('mapUsage', () => {
  it("DeepSeek's cache hits and the reasoning tokens", () => {
    expect(
      mapUsage({
        prompt_tokens: 100,
        completion_tokens: 50,
        prompt_cache_hit_tokens: 60,
        completion_tokens_details: { reasoning_tokens: 20 },
      }),
    ).toEqual({
      input_tokens: 100,
      cached_input_tokens: 60,
      cache_write_input_tokens: 0,
      output_tokens: 50,
      reasoning_output_tokens: 20,
      total_tokens: 150,
    });
  });
});
