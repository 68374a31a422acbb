/**
 * The tools a request offers and which one answers a call: the built-in tools, one line each,
 * then the MCP tools of the servers ready as of the request. A new tool is a folder under
 * `tools/<name>/` exporting a `Tool`, plus its line in BUILTIN_TOOLS (docs/architecture.md,
 * "How to add a tool"); test/runtime/tool-registry.test.ts fails on a Tool left out.
 */
import { isOpenAiProvider, type TillerConfig } from '../config.js';
import type { McpManager } from '../mcp/manager.js';
import type { ToolSpec } from '../model/types.js';
import { execCommandTool } from './exec-command/tool.js';
import type { FunctionCall, ToolCallResult } from '../core/function-call.js';
import type { TurnServices } from '../core/turn-services.js';
import type { ActiveTurn } from '../core/turn-state.js';
import { applyPatchTool, shellPatchCall } from './apply-patch/tool.js';
import { mcpTool } from './mcp/tool.js';
import type { ModelFamily } from './model-family.js';
import { requestUserInputTool } from './request-user-input/tool.js';
import { shellTool } from './shell/tool.js';
import { updatePlanTool } from './update-plan/tool.js';
import { viewImageTool } from './view-image/tool.js';
import { webSearchTool } from './web-search/tool.js';
import { NO_HOSTED_TOOLS, type Tool, type ToolOffer } from './tool.js';
import { writeStdinTool } from './write-stdin/tool.js';

export const BUILTIN_TOOLS: readonly Tool[] = [
  execCommandTool,
  writeStdinTool,
  applyPatchTool,
  updatePlanTool,
  viewImageTool,
  requestUserInputTool,
  webSearchTool,
  shellTool,
];

/** The hosted tools this config and provider allow (Codex: only OpenAI's Responses API runs them). */
export function toolOffer(config: Pick<TillerConfig, 'apiKey' | 'baseUrl' | 'webSearch'>): ToolOffer {
  const mode = config.webSearch ?? 'cached';
  return { webSearch: mode !== 'disabled' && isOpenAiProvider(config) ? mode : null };
}

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
export function toolTable(family: ModelFamily, servers?: McpManager | null, offer: ToolOffer = NO_HOSTED_TOOLS): ToolTable {
  const mcp = servers?.toolTable(BUILTIN_NAMES);
  const specs: ToolSpec[] = [];
  const byName = new Map<string, Tool>();
  for (const tool of BUILTIN_TOOLS) {
    byName.set(tool.name, tool);
    const spec = tool.spec(family, offer);
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
