/**
 * The Messages request body for a ModelRequest (`POST /messages`, streamed): the conversation
 * (messages.ts), our tools in Anthropic's tool format, the reasoning effort as a thinking budget,
 * and prompt caching on the stable prefix: the system prompt, the tools and the last history block
 * each end a cached segment, so the next request reads all of it from the cache.
 */
import type { ReasoningEffort } from '../../../../protocol/settings.js';
import type { ModelRequest, ToolSpec } from '../../types.js';
import { type AnthropicMessage, type Block, type CacheControl, type TextBlock, toConversation } from './messages.js';

export interface AnthropicTool {
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
  cache_control?: CacheControl;
}

export interface MessagesBody {
  model: string;
  max_tokens: number;
  stream: true;
  system?: TextBlock[];
  messages: AnthropicMessage[];
  tools?: AnthropicTool[];
  tool_choice?: { type: 'auto'; disable_parallel_tool_use?: true };
  thinking?: { type: 'enabled'; budget_tokens: number };
}

const EPHEMERAL: CacheControl = { type: 'ephemeral' };

/** The thinking budget for each effort (the API's least is 1024). */
export const THINKING_BUDGET: Readonly<Record<ReasoningEffort, number>> = {
  minimal: 1024,
  low: 4096,
  medium: 10_000,
  high: 20_000,
  xhigh: 28_000,
};

/**
 * The `max_tokens` a model may be asked for (the API refuses more than its model's limit): Claude
 * 3 models take 4096, 3.5 ones 8192, later ones at least 32,000.
 */
export function maxOutputTokens(model: string): number {
  if (/^claude-3-(opus|sonnet|haiku)/i.test(model)) return 4096;
  if (/^claude-3-5-/i.test(model)) return 8192;
  return 32_000;
}

/** What a freeform tool (apply_patch's grammar) takes here: its text as the `input` string. */
function freeformSchema(description: string): Record<string, unknown> {
  return {
    type: 'object',
    properties: { input: { type: 'string', description } },
    required: ['input'],
    additionalProperties: false,
  };
}

function tool(spec: ToolSpec): AnthropicTool | null {
  switch (spec.type) {
    case 'function':
      return { name: spec.name, description: spec.description, input_schema: spec.parameters };
    case 'custom':
      return {
        name: spec.name,
        description: spec.description,
        input_schema: freeformSchema(`The whole input, in the tool's format (${spec.format.syntax} grammar given in the description).`),
      };
    case 'web_search':
      // OpenAI's hosted search: Anthropic runs no such tool for us.
      return null;
  }
}

/** The names of the freeform tools of a request: their `tool_use` input is the text (client.ts). */
export function customToolNames(request: ModelRequest): Set<string> {
  return new Set(request.tools.flatMap((spec) => (spec.type === 'custom' ? [spec.name] : [])));
}

export function messagesBody(request: ModelRequest): MessagesBody {
  const { system, messages } = toConversation(request.input);
  const tools = request.tools.map(tool).filter((t): t is AnthropicTool => t !== null);
  const maxTokens = maxOutputTokens(request.model);
  const effort = request.reasoning?.effort;
  // The budget must leave room for the answer inside max_tokens.
  const budget = effort === undefined ? null : Math.min(THINKING_BUDGET[effort], maxTokens - 1024);
  const lastSystem = system.at(-1);
  if (lastSystem) lastSystem.cache_control = EPHEMERAL;
  const lastTool = tools.at(-1);
  if (lastTool) lastTool.cache_control = EPHEMERAL;
  markLastBlock(messages);
  return {
    model: request.model,
    max_tokens: maxTokens,
    stream: true,
    ...(system.length > 0 ? { system } : {}),
    messages,
    ...(tools.length > 0
      ? { tools, tool_choice: request.parallel_tool_calls ? { type: 'auto' } : { type: 'auto', disable_parallel_tool_use: true } }
      : {}),
    ...(budget !== null && budget >= 1024 ? { thinking: { type: 'enabled', budget_tokens: budget } } : {}),
  };
}

/** The last block of the history that can carry a cache breakpoint (thinking blocks cannot). */
function markLastBlock(messages: AnthropicMessage[]): void {
  const content = messages.at(-1)?.content ?? [];
  for (let i = content.length - 1; i >= 0; i--) {
    const block = content[i] as Block;
    if (block.type === 'thinking' || block.type === 'redacted_thinking') continue;
    block.cache_control = EPHEMERAL;
    return;
  }
}
