/**
 * Anthropic thinking blocks as the history's reasoning items, and back. The signature (or a redacted
 * block's data) rides in `encrypted_content` behind a prefix naming it Anthropic's, so a block goes
 * back byte for byte, and a reasoning item another wire recorded (OpenAI's encrypted content) is
 * never sent to Anthropic as a signature it would refuse.
 */
import type { ResponseItem } from '../../../../protocol/response-items.js';
import { ANTHROPIC_REDACTED_PREFIX as REDACTED, ANTHROPIC_THINKING_PREFIX as SIGNED } from '../../reasoning-origin.js';

type Reasoning = Extract<ResponseItem, { type: 'reasoning' }>;

export function thinkingItem(id: string, thinking: string, signature: string): Reasoning {
  return {
    type: 'reasoning',
    id,
    summary: [],
    content: [{ type: 'reasoning_text', text: thinking }],
    encrypted_content: SIGNED + signature,
  };
}

export function redactedThinkingItem(id: string, data: string): Reasoning {
  return { type: 'reasoning', id, summary: [], content: null, encrypted_content: REDACTED + data };
}

/** The block a recorded reasoning item was, or null when it is not one of Anthropic's. */
export function thinkingOf(
  item: Reasoning,
): { type: 'thinking'; thinking: string; signature: string } | { type: 'redacted_thinking'; data: string } | null {
  const sealed = item.encrypted_content ?? '';
  if (sealed.startsWith(SIGNED)) {
    const thinking = (item.content ?? []).map((part) => part.text).join('');
    return { type: 'thinking', thinking, signature: sealed.slice(SIGNED.length) };
  }
  if (sealed.startsWith(REDACTED)) return { type: 'redacted_thinking', data: sealed.slice(REDACTED.length) };
  return null;
}
