import { describe, expect, it } from 'vitest';
import type { ResponseItem } from '../../../src/protocol/response-items.js';
import { CHAT_REASONING_MARK, carriedReasoning, reasoningOrigin } from '../../../src/runtime/model/reasoning-origin.js';
import { toChatMessages } from '../../../src/runtime/model/wires/chat/request.js';
import { responsesBody } from '../../../src/runtime/model/wires/responses/client.js';
import { helloRequest } from '../support/model-request.js';

type Reasoning = Extract<ResponseItem, { type: 'reasoning' }>;

const anthropicThinking: Reasoning = {
  type: 'reasoning',
  id: 'th_1',
  summary: [],
  content: [{ type: 'reasoning_text', text: 'Claude thought.' }],
  encrypted_content: 'anthropic-thinking:EqQBsig==',
};
const anthropicRedacted: Reasoning = {
  type: 'reasoning',
  id: 'th_2',
  summary: [],
  content: null,
  encrypted_content: 'anthropic-redacted-thinking:blob',
};
const openaiSealed: Reasoning = {
  type: 'reasoning',
  id: 'rs_1',
  summary: [{ type: 'summary_text', text: 'OpenAI summary.' }],
  encrypted_content: 'gAAAAB-sealed',
};
const chatPlain: Reasoning = {
  type: 'reasoning',
  id: 'r_1',
  summary: [],
  content: [{ type: 'reasoning_text', text: 'DeepSeek thought.' }],
  encrypted_content: CHAT_REASONING_MARK,
};
// A Responses server that seals nothing (Ollama's gpt-oss on /v1/responses).
const responsesPlain: Reasoning = {
  type: 'reasoning',
  id: 'rs_2',
  summary: [],
  content: [{ type: 'reasoning_text', text: 'gpt-oss thought.' }],
};
const user: ResponseItem = { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] };
const answer: ResponseItem = { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'hello' }] };

describe('reasoningOrigin', () => {
  it('tells Anthropic thinking, OpenAI sealed reasoning and plain reasoning text apart', () => {
    expect(reasoningOrigin(anthropicThinking)).toBe('anthropic');
    expect(reasoningOrigin(anthropicRedacted)).toBe('anthropic');
    expect(reasoningOrigin(openaiSealed)).toBe('encrypted');
    expect(reasoningOrigin(chatPlain)).toBe('chat');
    expect(reasoningOrigin(responsesPlain)).toBe('plain');
    expect(reasoningOrigin({ ...responsesPlain, encrypted_content: null })).toBe('plain');
  });
});

describe('carriedReasoning', () => {
  it('drops only the reasoning a wire cannot carry and keeps every other item in order', () => {
    const input = [user, anthropicThinking, openaiSealed, chatPlain, answer];
    expect(carriedReasoning(input, ['encrypted', 'plain'])).toEqual([user, openaiSealed, answer]);
    expect(carriedReasoning(input, ['chat'])).toEqual([user, chatPlain, answer]);
    expect(carriedReasoning(input, ['anthropic'])).toEqual([user, anthropicThinking, answer]);
  });
});

describe('each wire sends only the reasoning it can carry', () => {
  const input = [user, anthropicThinking, anthropicRedacted, openaiSealed, answer];

  it("the Responses wire never sends a chat server's reasoning_content, nor its mark, to OpenAI", () => {
    const body = responsesBody({ ...helloRequest(), input: [user, chatPlain, answer, responsesPlain] });
    expect(body.input).toEqual([user, answer, responsesPlain]);
    expect(JSON.stringify(body)).not.toMatch(/DeepSeek thought|chat-reasoning/);
  });

  it('the Responses wire never sends an Anthropic signature to OpenAI', () => {
    const body = responsesBody({ ...helloRequest(), input });
    expect(body.input).toEqual([user, openaiSealed, answer]);
    expect(JSON.stringify(body)).not.toContain('anthropic-');
  });

  it('the chat wire sends neither Anthropic thinking nor OpenAI summaries as reasoning_content', () => {
    const messages = toChatMessages(input);
    expect(JSON.stringify(messages)).not.toMatch(/Claude thought|OpenAI summary|reasoning_content/);
    expect(toChatMessages([user, chatPlain, answer]).at(-1)).toEqual({
      role: 'assistant',
      content: 'hello',
      reasoning_content: 'DeepSeek thought.',
    });
  });
});
