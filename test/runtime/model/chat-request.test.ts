import { describe, expect, it } from 'vitest';
import type { ResponseItem } from '../../../src/protocol/response-items.js';
import type { ModelRequest } from '../../../src/runtime/model/types.js';
import { AUDIO_NOT_SENT_NOTICE, toChatMessages, toChatRequest } from '../../../src/runtime/model/wires/chat/request.js';
import { helloRequest } from '../support/model-request.js';

const SHELL = {
  type: 'function' as const,
  name: 'shell',
  description: 'Runs a command',
  strict: false,
  parameters: { type: 'object', properties: { command: { type: 'array' } } },
};
const PATCH = {
  type: 'custom' as const,
  name: 'apply_patch',
  description: 'Edits files',
  format: { type: 'grammar' as const, syntax: 'lark' as const, definition: 'start: "x"' },
};

describe('toChatRequest', () => {
  it('streams with include_usage; function tools as they are, a freeform tool as a function of one `input` string, no hosted search', () => {
    const request: ModelRequest = {
      ...helloRequest('deepseek-chat'),
      tools: [SHELL, PATCH, { type: 'web_search' }],
      parallel_tool_calls: true,
      reasoning: { effort: 'high' },
    };
    const { body, freeformTools } = toChatRequest(request);
    expect(body).toMatchObject({
      model: 'deepseek-chat',
      stream: true,
      stream_options: { include_usage: true },
      tool_choice: 'auto',
      parallel_tool_calls: true,
      reasoning_effort: 'high',
    });
    expect(body.tools).toEqual([
      { type: 'function', function: { name: 'shell', description: 'Runs a command', parameters: SHELL.parameters } },
      {
        type: 'function',
        function: {
          name: 'apply_patch',
          description: 'Edits files',
          parameters: {
            type: 'object',
            properties: { input: { type: 'string', description: expect.any(String) } },
            required: ['input'],
            additionalProperties: false,
          },
        },
      },
    ]);
    expect([...freeformTools]).toEqual(['apply_patch']);
  });

  it('without tools: no tools, tool_choice or parallel_tool_calls at all', () => {
    const { body } = toChatRequest({ ...helloRequest(), tools: [SHELL] }, { withTools: false });
    expect(body).not.toHaveProperty('tools');
    expect(body).not.toHaveProperty('tool_choice');
    expect(body).not.toHaveProperty('parallel_tool_calls');
  });

  it("an output schema is the chat API's response_format", () => {
    const schema = { type: 'object' };
    const { body } = toChatRequest({ ...helloRequest(), text: { format: { type: 'json_schema', name: 'out', schema, strict: true } } });
    expect(body.response_format).toEqual({ type: 'json_schema', json_schema: { name: 'out', schema, strict: true } });
  });
});

describe('toChatMessages', () => {
  it('a tool-using turn: reasoning and calls on one assistant message (reasoning_content kept), one tool message per call', () => {
    const input: ResponseItem[] = [
      { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'You are Tiller.' }] },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'fix it' }] },
      { type: 'reasoning', summary: [], content: [{ type: 'reasoning_text', text: 'Look first.' }] },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Looking.' }] },
      { type: 'function_call', call_id: 'c1', name: 'shell', arguments: '{"command":["ls"]}' },
      { type: 'custom_tool_call', call_id: 'c2', name: 'apply_patch', input: '*** Begin Patch\n*** End Patch' },
      { type: 'function_call_output', call_id: 'c1', output: 'a.txt' },
      { type: 'custom_tool_call_output', call_id: 'c2', output: 'Done!' },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Fixed.' }] },
    ];
    expect(toChatMessages(input)).toEqual([
      { role: 'system', content: 'You are Tiller.' },
      { role: 'user', content: 'fix it' },
      {
        role: 'assistant',
        content: 'Looking.',
        reasoning_content: 'Look first.',
        tool_calls: [
          { id: 'c1', type: 'function', function: { name: 'shell', arguments: '{"command":["ls"]}' } },
          {
            id: 'c2',
            type: 'function',
            function: { name: 'apply_patch', arguments: JSON.stringify({ input: '*** Begin Patch\n*** End Patch' }) },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'a.txt' },
      { role: 'tool', tool_call_id: 'c2', content: 'Done!' },
      { role: 'assistant', content: 'Fixed.' },
    ]);
  });

  it('user images as image_url data URLs; audio becomes a path-free notice, never a part the server refuses', () => {
    const messages = toChatMessages([
      {
        type: 'message',
        role: 'user',
        content: [
          { type: 'input_text', text: 'what is this?' },
          { type: 'input_image', image_url: 'data:image/png;base64,AAAA', detail: 'auto' },
          { type: 'input_audio', audio_url: 'data:audio/wav;base64,BBBB' },
        ],
      },
    ]);
    expect(messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'what is this?' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
          { type: 'text', text: AUDIO_NOT_SENT_NOTICE },
        ],
      },
    ]);
    expect(JSON.stringify(messages)).not.toContain('BBBB');
  });

  it("view_image's image follows the tool messages as a user message (a tool message carries text only)", () => {
    const messages = toChatMessages([
      { type: 'function_call', call_id: 'v1', name: 'view_image', arguments: '{"path":"a.png"}' },
      {
        type: 'function_call_output',
        call_id: 'v1',
        output: [
          { type: 'input_text', text: 'the image' },
          { type: 'input_image', image_url: 'data:image/png;base64,CCCC', detail: 'auto' },
        ],
      },
    ]);
    expect(messages.slice(1)).toEqual([
      { role: 'tool', tool_call_id: 'v1', content: 'the image\n[image]' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'The images the tool calls above returned:' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,CCCC' } },
        ],
      },
    ]);
  });
});
