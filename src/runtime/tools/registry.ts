/**
 * The tools a request offers and which one answers a call: the built-in tools, one line each,
 * then the MCP tools of the servers ready as of the request. A new tool is a folder under
 * `tools/<name>/` exporting a `Tool`, plus its line in BUILTIN_TOOLS (docs/architecture.md,
 * "How to add a tool"); test/runtime/tool-registry.test.ts fails on a Tool left out.
 */
import type { McpManager } from '../mcp/manager.js';
import type { ToolSpec } from '../model/types.js';
import type { FunctionCall, ToolCallResult } from '../core/function-call.js';
import type { TurnServices } from '../core/turn-services.js';
import type { ActiveTurn } from '../core/turn-state.js';
import { applyPatchTool, shellPatchCall } from './apply-patch/tool.js';
import { mcpTool } from './mcp/tool.js';
import type { ModelFamily } from './model-family.js';
import { shellTool } from './shell/tool.js';
import type { Tool } from './tool.js';

export const BUILTIN_TOOLS: readonly Tool[] = [shellTool, applyPatchTool];

/** What one sampling request offers; its calls are resolved against the same table. */
export interface ToolTable {
  specs: ToolSpec[];
  byName: ReadonlyMap<string, Tool>;
}

/** A shell command that is an apply_patch heredoc, applied by apply_patch (ToolCallContext.shellPatch). */
export function shellPatch(
  command: string,
  context: { services: TurnServices; turn: ActiveTurn; call: FunctionCall; workdir?: string | null },
): Promise<ToolCallResult> | null {
  return shellPatchCall(command, context);
}

const BUILTIN_NAMES = BUILTIN_TOOLS.map((tool) => tool.name);

/**
 * A built-in tool answers its calls even where this family is not offered it: a model trained on
 * an older harness may still call `shell`, and a resumed history holds such calls.
 */
export function toolTable(family: ModelFamily, servers?: McpManager | null): ToolTable {
  const mcp = servers?.toolTable(BUILTIN_NAMES);
  const specs: ToolSpec[] = [];
  const byName = new Map<string, Tool>();
  for (const tool of BUILTIN_TOOLS) {
    byName.set(tool.name, tool);
    const spec = tool.spec(family);
    if (spec !== null) specs.push(spec);
  }
  for (const spec of mcp?.specs ?? []) {
    const entry = mcp!.byName.get(spec.name);
    // A server tool never shadows a built-in one (the manager names them apart).
    if (entry === undefined || byName.has(spec.name)) continue;
    specs.push(spec);
    byName.set(spec.name, mcpTool(spec.name, entry, spec));
  }
  return { specs, byName };
}
