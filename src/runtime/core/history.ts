/**
 * The thread's model-visible history. User inputs stay typed (`UserInput[]`) beside their Responses
 * form, converted once when recorded: local media is read and processed at send time, and a later
 * request repeats exactly what the model saw (a file changed afterwards does not rewrite history).
 */
import type { ResponseItem } from '../../protocol/response-items.js';
import type { UserInput } from '../../protocol/user-input.js';
import type { InputTextElements } from '../model/types.js';

export type HistoryEntry = { type: 'userInput'; content: UserInput[]; converted: ResponseItem[] } | { type: 'item'; item: ResponseItem };

/** `<turn_aborted>` marker recorded after an interrupt (docs/codex-parity.md#interrupt-grace-and-the-aborted-turn-marker), user role. */
export const TURN_ABORTED_MARKER =
  '<turn_aborted>\nThe user interrupted the previous turn on purpose. Any running unified exec processes may still be running in the background. If any tools/commands were aborted, they may have partially executed.\n</turn_aborted>';

export function userTextItem(text: string): ResponseItem {
  return { type: 'message', role: 'user', content: [{ type: 'input_text', text }] };
}

export function developerTextItem(text: string): ResponseItem {
  return { type: 'message', role: 'developer', content: [{ type: 'input_text', text }] };
}

/** The model's own items: what later input follows (a message of its, or a tool call). */
function isModelTurn(item: ResponseItem): boolean {
  return (item.type === 'message' && item.role === 'assistant') || item.type === 'function_call' || item.type === 'custom_tool_call';
}

/**
 * Adds an output for every tool call that has none (its task was cut off), so the next request is
 * well formed: the API rejects a call without its output.
 */
export function closeDanglingCalls(history: HistoryEntry[], output: string): void {
  const answered = new Set<string>();
  for (const entry of history) {
    if (entry.type === 'item' && (entry.item.type === 'function_call_output' || entry.item.type === 'custom_tool_call_output'))
      answered.add(entry.item.call_id);
  }
  for (const entry of [...history]) {
    if (entry.type !== 'item' || answered.has((entry.item as { call_id?: string }).call_id ?? '')) continue;
    const item = entry.item;
    if (item.type === 'function_call')
      history.push({ type: 'item', item: { type: 'function_call_output', call_id: item.call_id, output } });
    else if (item.type === 'custom_tool_call')
      history.push({ type: 'item', item: { type: 'custom_tool_call_output', call_id: item.call_id, output } });
  }
}

/**
 * A recorded item as it is sent again. Requests use `store: false`, so the server keeps no items:
 * their ids must not be sent (the API would look them up), and a reasoning item is only useful
 * with its encrypted content or its raw text.
 */
export function forPrompt(item: ResponseItem): ResponseItem | null {
  switch (item.type) {
    case 'message':
    case 'function_call':
    case 'custom_tool_call': {
      const { id: _id, ...rest } = item;
      return rest;
    }
    case 'reasoning': {
      // Raw reasoning text goes back too: a chat server (DeepSeek) requires it after tool calls.
      if (!item.encrypted_content && !item.content?.some((part) => part.text !== '')) return null;
      const { id: _id, ...rest } = item;
      return rest;
    }
    default:
      return item;
  }
}

export function buildPromptInput(history: readonly HistoryEntry[]): ResponseItem[] {
  const out: ResponseItem[] = [];
  for (const entry of history) {
    if (entry.type === 'item') {
      const item = forPrompt(entry.item);
      if (item) out.push(item);
    } else out.push(...entry.converted);
  }
  return out;
}

/** The notices of a converted user input: the text of its developer message, if any. */
export function mediaNotices(converted: readonly ResponseItem[]): string[] {
  const notices: string[] = [];
  for (const item of converted) {
    if (item.type !== 'message' || item.role !== 'developer') continue;
    for (const part of item.content) if (part.type === 'input_text') notices.push(part.text);
  }
  return notices;
}

/**
 * Text elements of the user inputs recorded since the model's last own item (its message or tool
 * call): the input the next request answers, steered input included. Texts without elements are left out.
 */
export function unansweredTextElements(history: readonly HistoryEntry[]): InputTextElements[] {
  const found: InputTextElements[] = [];
  for (let i = history.length - 1; i >= 0; i--) {
    const entry = history[i]!;
    if (entry.type === 'item') {
      const item = entry.item;
      if (isModelTurn(item)) break;
      continue;
    }
    for (let j = entry.content.length - 1; j >= 0; j--) {
      const input = entry.content[j]!;
      if (input.type === 'text' && input.text_elements.length > 0) found.push({ text: input.text, textElements: input.text_elements });
    }
  }
  return found.reverse();
}
