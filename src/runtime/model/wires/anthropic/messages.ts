/**
 * Codex-shaped history (Responses items) as Anthropic Messages: the leading developer and system
 * messages become `system`, the rest alternates user and assistant with consecutive same-role items
 * merged. A thinking block Tiller recorded goes back first in its assistant message, text and
 * signature as they came; tool calls become `tool_use` blocks and their outputs one `tool_result`
 * per `tool_use_id`, first in the next user message, as the API requires.
 */
import type { ContentItem, ResponseItem, ToolOutputContent } from '../../../../protocol/response-items.js';
import { thinkingOf } from './thinking.js';

export type TextBlock = { type: 'text'; text: string; cache_control?: CacheControl };
export type ImageBlock = {
  type: 'image';
  source: { type: 'base64'; media_type: string; data: string } | { type: 'url'; url: string };
  cache_control?: CacheControl;
};
export type ToolResultBlock = {
  type: 'tool_result';
  tool_use_id: string;
  content: Array<TextBlock | ImageBlock>;
  is_error?: true;
  cache_control?: CacheControl;
};
export type Block =
  | TextBlock
  | ImageBlock
  | ToolResultBlock
  | { type: 'tool_use'; id: string; name: string; input: unknown; cache_control?: CacheControl }
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'redacted_thinking'; data: string };

export interface CacheControl {
  type: 'ephemeral';
}

export interface AnthropicMessage {
  role: 'user' | 'assistant';
  content: Block[];
}

export interface Conversation {
  system: TextBlock[];
  messages: AnthropicMessage[];
}

/** The media types the Messages API takes for an image. */
const IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);

/** Path-free notices for media the Messages API cannot carry: what was left out, and why. */
export const AUDIO_NOT_SENT_NOTICE = 'Tiller could not send the audio: the Anthropic Messages API takes no audio input.';
export const FILE_NOT_SENT_NOTICE =
  'Tiller could not send the uploaded file: the Anthropic Messages API cannot read a file by its OpenAI Files id.';
export const IMAGE_FORMAT_NOT_SENT_NOTICE =
  'Tiller could not send the image: the Anthropic Messages API takes JPEG, PNG, GIF and WebP images only.';
/** What a call that has no recorded output answers (the API refuses a `tool_use` without its result). */
export const MISSING_OUTPUT = 'No output was recorded for this call.';

export function toConversation(input: readonly ResponseItem[]): Conversation {
  const system: TextBlock[] = [];
  const messages: AnthropicMessage[] = [];
  let leading = true;
  const push = (role: AnthropicMessage['role'], blocks: Block[]): void => {
    if (blocks.length === 0) return;
    const last = messages.at(-1);
    if (last?.role === role) last.content.push(...blocks);
    else messages.push({ role, content: blocks });
  };
  for (const item of input) {
    if (item.type === 'message' && (item.role === 'developer' || item.role === 'system')) {
      const blocks = item.content.flatMap(contentBlocks);
      // Only the leading ones are the system prompt: one later in the thread (a permissions change,
      // a media notice) stays where it was said, so the cached prefix never changes under it.
      if (leading) system.push(...blocks.filter((b): b is TextBlock => b.type === 'text'));
      else push('user', blocks);
      continue;
    }
    leading = false;
    switch (item.type) {
      case 'message':
        push(item.role === 'assistant' ? 'assistant' : 'user', item.content.flatMap(contentBlocks));
        break;
      case 'reasoning': {
        const block = thinkingOf(item);
        if (block) push('assistant', [block]);
        break;
      }
      case 'function_call':
        push('assistant', [{ type: 'tool_use', id: item.call_id, name: item.name, input: parseArguments(item.arguments) }]);
        break;
      case 'custom_tool_call':
        // A freeform tool is offered as a function taking its text as `input` (request.ts).
        push('assistant', [{ type: 'tool_use', id: item.call_id, name: item.name, input: { input: item.input } }]);
        break;
      case 'function_call_output':
      case 'custom_tool_call_output':
        push('user', [{ type: 'tool_result', tool_use_id: item.call_id, content: toolResultContent(item.output) }]);
        break;
      case 'web_search_call':
        // The hosted search is OpenAI's: there is nothing to send Anthropic for it.
        break;
    }
  }
  return { system, messages: pairToolResults(messages) };
}

/**
 * Every `tool_use` answered by one `tool_result`, first in the next user message; a result whose
 * call is not in the assistant message before it becomes text (the API refuses an unknown id).
 */
function pairToolResults(messages: AnthropicMessage[]): AnthropicMessage[] {
  const out: AnthropicMessage[] = [];
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i]!;
    if (message.role === 'assistant') {
      out.push(message);
      const calls = message.content.flatMap((b) => (b.type === 'tool_use' ? [b.id] : []));
      if (calls.length === 0) continue;
      const next = messages[i + 1];
      const user: AnthropicMessage = next?.role === 'user' ? next : { role: 'user', content: [] };
      if (next?.role === 'user') i++;
      const results = new Map<string, ToolResultBlock>();
      const rest: Block[] = [];
      for (const block of user.content) {
        if (block.type === 'tool_result' && calls.includes(block.tool_use_id) && !results.has(block.tool_use_id))
          results.set(block.tool_use_id, block);
        else rest.push(block.type === 'tool_result' ? orphanText(block) : block);
      }
      const answered = calls.map((id): ToolResultBlock => results.get(id) ?? missingResult(id));
      out.push({ role: 'user', content: [...answered, ...rest] });
      continue;
    }
    out.push({ role: 'user', content: message.content.map((b) => (b.type === 'tool_result' ? orphanText(b) : b)) });
  }
  return out;
}

function missingResult(id: string): ToolResultBlock {
  return { type: 'tool_result', tool_use_id: id, content: [{ type: 'text', text: MISSING_OUTPUT }], is_error: true };
}

function orphanText(block: ToolResultBlock): TextBlock {
  const text = block.content.map((b) => (b.type === 'text' ? b.text : '[image]')).join('\n');
  return { type: 'text', text: `Output of tool call ${block.tool_use_id}:\n${text}` };
}

/** A function call's arguments as the object `tool_use.input` must be (the model wrote JSON; what is not an object is kept as `{}`). */
function parseArguments(raw: string): unknown {
  try {
    const value: unknown = JSON.parse(raw);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : {};
  } catch {
    return {};
  }
}

function toolResultContent(output: string | readonly ToolOutputContent[]): Array<TextBlock | ImageBlock> {
  if (typeof output === 'string') return [{ type: 'text', text: output === '' ? '(no output)' : output }];
  const blocks = output.flatMap((part) => contentBlocks(part) as Array<TextBlock | ImageBlock>);
  return blocks.length > 0 ? blocks : [{ type: 'text', text: '(no output)' }];
}

function contentBlocks(part: ContentItem | ToolOutputContent): Block[] {
  switch (part.type) {
    case 'input_text':
    case 'output_text':
      // The API refuses an empty text block.
      return part.text === '' ? [] : [{ type: 'text', text: part.text }];
    case 'input_image':
      if (!('image_url' in part)) return [{ type: 'text', text: FILE_NOT_SENT_NOTICE }];
      return [imageBlock(part.image_url)];
    case 'input_audio':
      return [{ type: 'text', text: AUDIO_NOT_SENT_NOTICE }];
    case 'input_file':
      return [{ type: 'text', text: FILE_NOT_SENT_NOTICE }];
  }
}

function imageBlock(url: string): Block {
  const data = /^data:([^;,]+);base64,(.*)$/s.exec(url);
  if (data) {
    const mediaType = data[1]!.toLowerCase();
    if (!IMAGE_TYPES.has(mediaType)) return { type: 'text', text: IMAGE_FORMAT_NOT_SENT_NOTICE };
    return { type: 'image', source: { type: 'base64', media_type: mediaType, data: data[2]! } };
  }
  if (/^https?:\/\//i.test(url)) return { type: 'image', source: { type: 'url', url } };
  return { type: 'text', text: IMAGE_FORMAT_NOT_SENT_NOTICE };
}
