/**
 * MCP tools behind the tool seam: each tool a ready server lists (as of the sampling request) is
 * one `Tool` named `SERVER__TOOL`, whose calls go to that server (call.ts). They cannot be
 * sandboxed, so the approval policy alone decides (a `trusted` server's tools do not ask).
 */
import type { McpToolEntry } from '../../mcp/manager.js';
import type { Tool } from '../tool.js';
import { handleMcpToolCall } from './call.js';

export function mcpTool(name: string, entry: McpToolEntry, spec: NonNullable<ReturnType<Tool['spec']>>): Tool {
  return {
    name,
    confinement: 'unconfined',
    itemType: 'mcpToolCall',
    spec: () => spec,
    handle: ({ services, turn, call }) => handleMcpToolCall(services, turn, call, entry),
  };
}
