import { describe, expect, it } from 'vitest';
import { buildPromptInput, closeDanglingCalls, forPrompt, type HistoryEntry, mediaNotices, TURN_ABORTED_MARKER } from '../../src/runtime/core/history.js';

describe('prompt history', () => {
  it('sends output items without their server ids and drops reasoning without encrypted content', () => {
    expect(forPrompt({ type: 'message', id: 'msg_1', role: 'assistant', content: [{ type: 'output_text', text: 'a' }] })).toEqual({
      type: 'message',
      role: 'assistant',
      content: [{ type: 'output_text', text: 'a' }],
    });
    expect(forPrompt({ type: 'function_call', id: 'fc_1', call_id: 'c', name: 'shell', arguments: '{}' })).toEqual({
      type: 'function_call',
      call_id: 'c',
      name: 'shell',
      arguments: '{}',
    });
    expect(forPrompt({ type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: null })).toBeNull();
    expect(forPrompt({ type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'enc' })).toEqual({ type: 'reasoning', summary: [], encrypted_content: 'enc' });
  });

  it('sends the converted form of user input, in order with recorded items', () => {
    const input = buildPromptInput([
      {
        type: 'userInput',
        content: [{ type: 'text', text: 'hi', text_elements: [] }],
        converted: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] }],
      },
      { type: 'item', item: { type: 'function_call_output', call_id: 'c', output: 'x' } },
    ]);
    expect(input).toEqual([
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] },
      { type: 'function_call_output', call_id: 'c', output: 'x' },
    ]);
  });

  it('finds the media notices of a converted input', () => {
    expect(
      mediaNotices([
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'look' }] },
        { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'Tiller could not read the local image.' }] },
      ]),
    ).toEqual(['Tiller could not read the local image.']);
  });

  it('closes function calls left without output', () => {
    const history: HistoryEntry[] = [
      { type: 'item', item: { type: 'function_call', call_id: 'a', name: 'shell', arguments: '{}' } },
      { type: 'item', item: { type: 'function_call_output', call_id: 'a', output: 'done' } },
      { type: 'item', item: { type: 'function_call', call_id: 'b', name: 'shell', arguments: '{}' } },
    ];
    closeDanglingCalls(history, 'aborted');
    expect(history.slice(3)).toEqual([{ type: 'item', item: { type: 'function_call_output', call_id: 'b', output: 'aborted' } }]);
  });

  it('the interrupt marker is the exact Codex text', () => {
    expect(TURN_ABORTED_MARKER).toBe(
      '<turn_aborted>\nThe user interrupted the previous turn on purpose. Any running unified exec processes may still be running in the background. If any tools/commands were aborted, they may have partially executed.\n</turn_aborted>',
    );
  });
});
