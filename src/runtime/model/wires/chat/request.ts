/**
 * A Responses request (the core's one shape) as a Chat Completions request: the history of
 * Codex-shaped items becomes chat messages, our tools become function tools. Pure.
 */
import { type ContentItem, type ResponseItem, toolOutputText } from '../../../../protocol/response-items.js';
import type { ModelRequest, ToolSpec } from '../../types.js';
import { carriedReasoning } from '../../reasoning-origin.js';

type Json = Record<string, unknown>;

export type ChatContentPart = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } };

export interface ChatToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string | ChatContentPart[] }
  | { role: 'assistant'; content: string | null; tool_calls?: ChatToolCall[]; reasoning_content?: string }
  | { role: 'tool'; tool_call_id: string; content: string };

export interface ChatRequest {
  body: Json & { messages: ChatMessage[] };
  /** Tools offered as freeform (apply_patch) and sent as functions taking `{input}`: their calls come back as custom tool calls. */
  freeformTools: ReadonlySet<string>;
}

/** Path-free: what the chat wire cannot carry, and why (it never becomes a 400). */
export const AUDIO_NOT_SENT_NOTICE = 'Tiller did not send the audio: this provider’s Chat Completions API takes no audio input.';
export const FILE_NOT_SENT_NOTICE = 'Tiller did not send the uploaded file: this provider’s Chat Completions API takes no file ids.';

const FREEFORM_INPUT_DESCRIPTION = 'The whole input, written in the tool’s format as its description says.';

export function toChatRequest(request: ModelRequest, options: { withTools: boolean } = { withTools: true }): ChatRequest {
  const freeformTools = new Set<string>();
  const tools = options.withTools ? request.tools.flatMap((tool) => chatTool(tool, freeformTools)) : [];
  const body: ChatRequest['body'] = {
    model: request.model,
    messages: toChatMessages(request.input),
    stream: true,
    // Without it a chat server sends no usage at all; with it, a last chunk with `choices: []`.
    stream_options: { include_usage: true },
  };
  if (tools.length > 0) Object.assign(body, { tools, tool_choice: 'auto', parallel_tool_calls: request.parallel_tool_calls });
  if (request.reasoning?.effort) body.reasoning_effort = request.reasoning.effort;
  const format = request.text?.format;
  if (format) body.response_format = { type: 'json_schema', json_schema: { name: format.name, schema: format.schema, strict: true } };
  return { body, freeformTools };
}

function chatTool(tool: ToolSpec, freeform: Set<string>): Json[] {
  switch (tool.type) {
    case 'function':
      return [
        {
          type: 'function',
          function: {
            name: tool.name,
            description: tool.description,
            parameters: tool.parameters,
            ...(tool.strict ? { strict: true } : {}),
          },
        },
      ];
    case 'custom':
      // Chat servers take no freeform tools: the same text as a function's one string argument.
      freeform.add(tool.name);
      return [
        {
          type: 'function',
          function: {
            name: tool.name,
            description: tool.description,
            parameters: {
              type: 'object',
              properties: { input: { type: 'string', description: FREEFORM_INPUT_DESCRIPTION } },
              required: ['input'],
              additionalProperties: false,
            },
          },
        },
      ];
    case 'web_search':
      // Hosted by OpenAI's Responses API only.
      return [];
  }
}

/** The history as chat messages: an assistant's text, reasoning and tool calls become one message, each output a `tool` message. */
export function toChatMessages(input: readonly ResponseItem[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  let assistant: Extract<ChatMessage, { role: 'assistant' }> | null = null;
  let reasoning = '';
  // Images a tool answered with: a `tool` message carries text only, so they follow the outputs as a user message.
  let toolImages: ChatContentPart[] = [];
  const flushImages = (): void => {
    if (toolImages.length === 0) return;
    out.push({ role: 'user', content: [{ type: 'text', text: 'The images the tool calls above returned:' }, ...toolImages] });
    toolImages = [];
  };
  const openAssistant = (): Extract<ChatMessage, { role: 'assistant' }> => {
    if (assistant === null) {
      flushImages();
      assistant = { role: 'assistant', content: null };
      // DeepSeek's thinking mode requires the reasoning back on the message that made the tool calls.
      if (reasoning !== '') assistant.reasoning_content = reasoning;
      reasoning = '';
      out.push(assistant);
    }
    return assistant;
  };
  const addCall = (id: string, name: string, args: string): void => {
    const message = openAssistant();
    (message.tool_calls ??= []).push({ id, type: 'function', function: { name, arguments: args } });
  };
  // A chat server takes reasoning as text it wrote: another API's signed or sealed reasoning is not its own.
  for (const item of carriedReasoning(input, ['chat', 'plain'])) {
    switch (item.type) {
      case 'message': {
        if (item.role === 'assistant') {
          const text = item.content.map((c) => ('text' in c ? c.text : '')).join('');
          const message = openAssistant();
          message.content = (message.content ?? '') + text;
          break;
        }
        assistant = null;
        flushImages();
        if (item.role === 'user') out.push({ role: 'user', content: userContent(item.content) });
        else out.push({ role: 'system', content: plainText(item.content) });
        break;
      }
      case 'reasoning': {
        // A reasoning item comes before the answer it led to: it opens the next assistant message.
        assistant = null;
        reasoning += (item.content ?? []).map((c) => c.text).join('') || item.summary.map((s) => s.text).join('\n');
        break;
      }
      case 'function_call':
        addCall(item.call_id, item.name, item.arguments);
        break;
      case 'custom_tool_call':
        addCall(item.call_id, item.name, JSON.stringify({ input: item.input }));
        break;
      case 'function_call_output':
      case 'custom_tool_call_output': {
        assistant = null;
        const output = item.output;
        out.push({ role: 'tool', tool_call_id: item.call_id, content: toolOutputText(output) });
        if (typeof output !== 'string') {
          for (const part of output) if (part.type === 'input_image') toolImages.push(imagePart(part.image_url));
        }
        break;
      }
      case 'web_search_call':
        break;
    }
  }
  flushImages();
  return out;
}

function imagePart(url: string): ChatContentPart {
  return { type: 'image_url', image_url: { url } };
}

function userContent(content: readonly ContentItem[]): string | ChatContentPart[] {
  const parts: ChatContentPart[] = content.map((c): ChatContentPart => {
    switch (c.type) {
      case 'input_text':
      case 'output_text':
        return { type: 'text', text: c.text };
      case 'input_image':
        return 'image_url' in c ? imagePart(c.image_url) : { type: 'text', text: FILE_NOT_SENT_NOTICE };
      case 'input_audio':
        return { type: 'text', text: AUDIO_NOT_SENT_NOTICE };
      case 'input_file':
        return { type: 'text', text: FILE_NOT_SENT_NOTICE };
    }
  });
  // Plain text as a string: some local servers read no content arrays.
  return parts.every((p) => p.type === 'text') ? parts.map((p) => (p as { text: string }).text).join('\n') : parts;
}

function plainText(content: readonly ContentItem[]): string {
  return content.map((c) => ('text' in c ? c.text : '')).join('\n');
}
