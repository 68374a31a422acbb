import { describe, expect, it } from 'vitest';
import {
  buildPromptInput,
  closeDanglingCalls,
  forPrompt,
  type HistoryEntry,
  mediaNotices,
  TURN_ABORTED_MARKER,
  unansweredTextElements,
} from '../../src/runtime/core/history.js';

describe('prompt history', () => {
  it('sends output items without their server ids and drops reasoning with neither encrypted content nor raw text', () => {
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
    expect(forPrompt({ type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'enc' })).toEqual({
      type: 'reasoning',
      summary: [],
      encrypted_content: 'enc',
    });
    // A chat server's raw reasoning (DeepSeek's reasoning_content) has no encrypted form: its text goes back.
    const raw = { type: 'reasoning' as const, summary: [], content: [{ type: 'reasoning_text' as const, text: 'think' }] };
    expect(forPrompt({ ...raw, id: 'r1' })).toEqual(raw);
    expect(forPrompt({ type: 'reasoning', id: 'r2', summary: [], content: [{ type: 'reasoning_text', text: '' }] })).toBeNull();
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

describe('unanswered text elements', () => {
  const element = (start: number, end: number, placeholder: string | null = null) => ({ byte_range: { start, end }, placeholder });
  const userInput = (text: string, elements: ReturnType<typeof element>[]): HistoryEntry => ({
    type: 'userInput',
    content: [
      { type: 'text', text, text_elements: elements },
      { type: 'local_image', path: '/a.png' },
    ],
    converted: [],
  });

  it('takes the user inputs after the model’s last message or tool call, in order, skipping texts without elements', () => {
    const history: HistoryEntry[] = [
      userInput('old [Image #1]', [element(4, 14, '[Image #1]')]),
      { type: 'item', item: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'answer' }] } },
      userInput('new [Image #2]', [element(4, 14, '[Image #2]')]),
      { type: 'item', item: { type: 'function_call', call_id: 'c', name: 'shell', arguments: '{}' } },
      { type: 'item', item: { type: 'function_call_output', call_id: 'c', output: 'ok' } },
      userInput('plain', []),
      userInput('steer @a.ts', [element(6, 11)]),
      { type: 'item', item: { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'hook context' }] } },
      userInput('more [Image #3]', [element(5, 15, '[Image #3]')]),
    ];
    expect(unansweredTextElements(history)).toEqual([
      { text: 'steer @a.ts', textElements: [element(6, 11)] },
      { text: 'more [Image #3]', textElements: [element(5, 15, '[Image #3]')] },
    ]);
    expect(unansweredTextElements(history.slice(0, 3))).toEqual([{ text: 'new [Image #2]', textElements: [element(4, 14, '[Image #2]')] }]);
    expect(unansweredTextElements([])).toEqual([]);
  });
});
