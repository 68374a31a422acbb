/**
 * Which wire recorded a reasoning item, read from its `encrypted_content`, so a session that switches
 * provider mid-session never sends one API's reasoning to another: OpenAI answers 400 to an
 * Anthropic signature, and Anthropic to OpenAI's encrypted content (issue 29).
 */
import type { ResponseItem } from '../../protocol/response-items.js';

/** Anthropic's thinking signature and redacted data ride in `encrypted_content` behind these prefixes. */
export const ANTHROPIC_THINKING_PREFIX = 'anthropic-thinking:';
export const ANTHROPIC_REDACTED_PREFIX = 'anthropic-redacted-thinking:';
/**
 * A chat server's `reasoning_content` is marked so: raw text alone could also be a Responses
 * server's (Ollama's gpt-oss), and OpenAI's Responses API refuses reasoning it did not seal.
 */
export const CHAT_REASONING_MARK = 'chat-reasoning:';

type Reasoning = Extract<ResponseItem, { type: 'reasoning' }>;

/**
 * `anthropic`: a thinking block; `encrypted`: OpenAI's sealed reasoning; `chat`: a chat server's
 * `reasoning_content`; `plain`: text only (a Responses server that seals nothing).
 */
export type ReasoningOrigin = 'anthropic' | 'encrypted' | 'chat' | 'plain';

export function reasoningOrigin(item: Reasoning): ReasoningOrigin {
  const sealed = item.encrypted_content ?? '';
  if (sealed.startsWith(ANTHROPIC_THINKING_PREFIX) || sealed.startsWith(ANTHROPIC_REDACTED_PREFIX)) return 'anthropic';
  if (sealed === CHAT_REASONING_MARK) return 'chat';
  return sealed === '' ? 'plain' : 'encrypted';
}

/** The input with every reasoning item a wire cannot carry left out; all other items are kept, in order. */
export function carriedReasoning(input: readonly ResponseItem[], carries: readonly ReasoningOrigin[]): ResponseItem[] {
  return input.filter((item) => item.type !== 'reasoning' || carries.includes(reasoningOrigin(item)));
}
