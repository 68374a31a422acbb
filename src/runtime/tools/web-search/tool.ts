/**
 * The hosted `web_search` tool: OpenAI's server runs the search, so the request only offers it
 * (Codex's `{type:"web_search", external_web_access}`: `live` searches the web, `cached` the
 * server's index) when the provider is OpenAI's and `web_search` is not `disabled`. Its calls come
 * back as `web_search_call` output items (core/web-search-items.ts), never as function calls.
 */
import { functionCallOutput, type ToolCallResult } from '../../core/function-call.js';
import type { Tool } from '../tool.js';

export const WEB_SEARCH_TOOL_NAME = 'web_search';
export const NOT_A_FUNCTION_OUTPUT = 'web_search is run by the server; it cannot be called as a function';

export const webSearchTool: Tool = {
  name: WEB_SEARCH_TOOL_NAME,
  confinement: 'unconfined',
  itemType: 'webSearch',
  spec: (_family, offer) => (offer.webSearch === null ? null : { type: 'web_search', external_web_access: offer.webSearch === 'live' }),
  handle: async ({ call }): Promise<ToolCallResult> => ({
    output: functionCallOutput(call.call_id, NOT_A_FUNCTION_OUTPUT),
    aborted: false,
  }),
};
