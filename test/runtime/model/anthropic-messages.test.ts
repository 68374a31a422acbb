/** Codex-shaped history and requests as Anthropic Messages bodies (wires/anthropic/messages.ts, request.ts). */
import { describe, expect, it } from 'vitest';
import type { ResponseItem } from '../../../src/protocol/response-items.js';
import type { ModelRequest } from '../../../src/runtime/model/types.js';
import {
  AUDIO_NOT_SENT_NOTICE,
  FILE_NOT_SENT_NOTICE,
  IMAGE_FORMAT_NOT_SENT_NOTICE,
  MISSING_OUTPUT,
  toConversation,
} from '../../../src/runtime/model/wires/anthropic/messages.js';
import { maxOutputTokens, messagesBody } from '../../../src/runtime/model/wires/anthropic/request.js';
import { thinkingItem, redactedThinkingItem } from '../../../src/runtime/model/wires/anthropic/thinking.js';

const user = (text: string): ResponseItem => ({ type: 'message', role: 'user', content: [{ type: 'input_text', text }] });
const developer = (text: string): ResponseItem => ({ type: 'message', role: 'developer', content: [{ type: 'input_text', text }] });
const assistant = (text: string): ResponseItem => ({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] });
const call = (id: string, args: unknown): ResponseItem => ({
  type: 'function_call',
  call_id: id,
  name: 'exec_command',
  arguments: JSON.stringify(args),
});
const output = (id: string, text: string): ResponseItem => ({ type: 'function_call_output', call_id: id, output: text });

function request(input: ResponseItem[], overrides: Partial<ModelRequest> = {}): ModelRequest {
  return {
    model: 'claude-sonnet-4-5',
    input,
    tools: [],
    tool_choice: 'auto',
    parallel_tool_calls: true,
    store: false,
    stream: true,
    include: [],
    prompt_cache_key: 't',
    ...overrides,
  };
}

describe('history as Anthropic messages', () => {
  it('sends the leading developer messages as system, a later one in place as user text', () => {
    const { system, messages } = toConversation([developer('brief'), user('agents'), developer('permissions'), user('hi')]);
    expect(system).toEqual([{ type: 'text', text: 'brief' }]);
    expect(messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'agents' },
          { type: 'text', text: 'permissions' },
          { type: 'text', text: 'hi' },
        ],
      },
    ]);
  });

  it('starts the assistant message with the thinking block, byte for byte, then the tool_use blocks; one tool_result per id follows', () => {
    const signature = 'EqQBCgIYAhIM+/sig==\u00e9';
    const thinking = 'Let me think…\n  about "this"';
    const { messages } = toConversation([
      user('list files'),
      thinkingItem('m:0', thinking, signature),
      call('toolu_1', { cmd: 'ls' }),
      call('toolu_2', { cmd: 'pwd' }),
      output('toolu_1', 'a.txt'),
      output('toolu_2', '/tmp'),
    ]);
    expect(messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'list files' }] },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking, signature },
          { type: 'tool_use', id: 'toolu_1', name: 'exec_command', input: { cmd: 'ls' } },
          { type: 'tool_use', id: 'toolu_2', name: 'exec_command', input: { cmd: 'pwd' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: 'a.txt' }] },
          { type: 'tool_result', tool_use_id: 'toolu_2', content: [{ type: 'text', text: '/tmp' }] },
        ],
      },
    ]);
  });

  it('sends a redacted thinking block back as its data, and no reasoning item another wire recorded', () => {
    const openai: ResponseItem = { type: 'reasoning', summary: [{ type: 'summary_text', text: 's' }], encrypted_content: 'gAAAAB-openai' };
    const { messages } = toConversation([user('q'), openai, redactedThinkingItem('m:0', 'opaque=='), assistant('a')]);
    expect(messages[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'redacted_thinking', data: 'opaque==' },
        { type: 'text', text: 'a' },
      ],
    });
  });

  it('puts the tool results first in the user message, before input steered in while the calls ran', () => {
    const { messages } = toConversation([user('go'), call('c1', {}), user('also check b'), output('c1', 'done')]);
    expect(messages[2]).toEqual({
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'c1', content: [{ type: 'text', text: 'done' }] },
        { type: 'text', text: 'also check b' },
      ],
    });
  });

  it('answers a call without a recorded output, and sends an output without its call as text', () => {
    const { messages } = toConversation([user('go'), call('c1', {}), user('next'), output('gone', 'late')]);
    expect(messages[2]!.content).toEqual([
      { type: 'tool_result', tool_use_id: 'c1', content: [{ type: 'text', text: MISSING_OUTPUT }], is_error: true },
      { type: 'text', text: 'next' },
      { type: 'text', text: 'Output of tool call gone:\nlate' },
    ]);
  });

  it('sends a freeform call as a tool_use with its text as `input`, and its output as the tool_result', () => {
    const { messages } = toConversation([
      user('patch'),
      { type: 'custom_tool_call', call_id: 'p1', name: 'apply_patch', input: '*** Begin Patch\n*** End Patch' },
      { type: 'custom_tool_call_output', call_id: 'p1', output: 'Success.' },
    ]);
    expect(messages[1]!.content).toEqual([
      { type: 'tool_use', id: 'p1', name: 'apply_patch', input: { input: '*** Begin Patch\n*** End Patch' } },
    ]);
    expect(messages[2]!.content).toEqual([{ type: 'tool_result', tool_use_id: 'p1', content: [{ type: 'text', text: 'Success.' }] }]);
  });

  it('sends user and view_image images as base64 blocks, and what it cannot carry as a path-free notice', () => {
    const png = 'data:image/png;base64,iVBORw0KGgo=';
    const { messages } = toConversation([
      {
        type: 'message',
        role: 'user',
        content: [
          { type: 'input_text', text: 'see' },
          { type: 'input_image', image_url: png, detail: 'auto' },
          { type: 'input_image', image_url: 'https://example.com/cat.jpg', detail: 'auto' },
          { type: 'input_image', image_url: 'data:image/bmp;base64,Qk0=', detail: 'auto' },
          { type: 'input_audio', audio_url: 'data:audio/wav;base64,UklGRg==' },
          { type: 'input_file', file_id: 'file_1' },
          { type: 'input_text', text: '' },
        ],
      },
      call('v1', { path: '/home/me/shot.png' }),
      { type: 'function_call_output', call_id: 'v1', output: [{ type: 'input_image', image_url: png, detail: 'auto' }] },
    ]);
    expect(messages[0]!.content).toEqual([
      { type: 'text', text: 'see' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
      { type: 'image', source: { type: 'url', url: 'https://example.com/cat.jpg' } },
      { type: 'text', text: IMAGE_FORMAT_NOT_SENT_NOTICE },
      { type: 'text', text: AUDIO_NOT_SENT_NOTICE },
      { type: 'text', text: FILE_NOT_SENT_NOTICE },
    ]);
    expect(messages[2]!.content).toEqual([
      {
        type: 'tool_result',
        tool_use_id: 'v1',
        content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } }],
      },
    ]);
    for (const notice of [IMAGE_FORMAT_NOT_SENT_NOTICE, AUDIO_NOT_SENT_NOTICE, FILE_NOT_SENT_NOTICE]) expect(notice).not.toMatch(/\//);
  });

  it('merges consecutive same-role items and drops a message left with no content', () => {
    const { messages } = toConversation([
      user('a'),
      { type: 'message', role: 'user', content: [] },
      user('b'),
      assistant('x'),
      assistant('y'),
    ]);
    expect(messages.map((m) => [m.role, m.content.length])).toEqual([
      ['user', 2],
      ['assistant', 2],
    ]);
  });
});

describe('the Messages request body', () => {
  const tools: ModelRequest['tools'] = [
    {
      type: 'function',
      name: 'exec_command',
      description: 'Runs.',
      strict: false,
      parameters: { type: 'object', properties: { cmd: { type: 'string' } } },
    },
    { type: 'custom', name: 'apply_patch', description: 'Patches.', format: { type: 'grammar', syntax: 'lark', definition: 'start: x' } },
    { type: 'web_search' },
  ];

  it('maps function and freeform tools to Anthropic tools, leaves out the hosted search, and caches system, tools and the last block', () => {
    const body = messagesBody(request([developer('brief'), user('hi'), assistant('yo'), user('more')], { tools }));
    expect(body.system).toEqual([{ type: 'text', text: 'brief', cache_control: { type: 'ephemeral' } }]);
    expect(body.tools).toEqual([
      { name: 'exec_command', description: 'Runs.', input_schema: { type: 'object', properties: { cmd: { type: 'string' } } } },
      {
        name: 'apply_patch',
        description: 'Patches.',
        input_schema: {
          type: 'object',
          properties: { input: { type: 'string', description: expect.any(String) } },
          required: ['input'],
          additionalProperties: false,
        },
        cache_control: { type: 'ephemeral' },
      },
    ]);
    expect(body.tool_choice).toEqual({ type: 'auto' });
    expect(body.messages.at(-1)).toEqual({ role: 'user', content: [{ type: 'text', text: 'more', cache_control: { type: 'ephemeral' } }] });
    // Only the last block carries a breakpoint: at most four are allowed.
    expect(JSON.stringify(body).match(/cache_control/g)).toHaveLength(3);
    expect(body).toMatchObject({ model: 'claude-sonnet-4-5', stream: true, max_tokens: 32_000 });
    expect(body).not.toHaveProperty('thinking');
  });

  it('asks for one call at a time when parallel calls are off, and thinks within max_tokens when an effort is set', () => {
    const body = messagesBody(request([user('hi')], { tools, parallel_tool_calls: false, reasoning: { effort: 'high' } }));
    expect(body.tool_choice).toEqual({ type: 'auto', disable_parallel_tool_use: true });
    expect(body.thinking).toEqual({ type: 'enabled', budget_tokens: 20_000 });
    const small = messagesBody(request([user('hi')], { model: 'claude-3-5-haiku-latest', reasoning: { effort: 'xhigh' } }));
    expect(small.max_tokens).toBe(maxOutputTokens('claude-3-5-haiku-latest'));
    expect(small.thinking!.budget_tokens).toBeLessThan(small.max_tokens);
  });
});
