/**
 * The tool seam. Every tool the model can call is one `Tool`, in a folder of its own under
 * `src/runtime/tools/<name>/`, registered in `tools/registry.ts`: the registry decides what a
 * request offers (per model family) and which tool answers a call. A tool owns its schema, how
 * it is confined (the turn's sandbox, or nothing, so the approval policy alone decides), the
 * thread item its calls produce (for the TUI, exec JSONL and the app server), running the call
 * with its streamed output, and what the model reads back.
 */
import type { ThreadItem } from '../../protocol/api.js';
import type { FunctionCall, ToolCallResult } from '../core/function-call.js';
import type { TurnServices } from '../core/turn-services.js';
import type { ActiveTurn } from '../core/turn-state.js';
import type { ToolSpec } from '../model/types.js';
import type { ModelFamily } from './model-family.js';

/** What besides the model family decides a tool's offer: the provider and config (the hosted web search). */
export interface ToolOffer {
  /** The web search mode when the provider runs it and config enables it; null: not offered. */
  readonly webSearch: 'live' | 'cached' | null;
}

export const NO_HOSTED_TOOLS: ToolOffer = { webSearch: null };

export interface ToolCallContext {
  services: TurnServices;
  turn: ActiveTurn;
  call: FunctionCall;
  /**
   * A shell command that is `apply_patch <<'EOF' … EOF` is applied by apply_patch, as Codex routes
   * it: the answer to this call, or null when the command is not a patch (run it). `workdir`: the
   * command's directory, relative to the turn's cwd. Given by the registry (tools never import each other).
   */
  shellPatch?(command: string, workdir?: string | null): Promise<ToolCallResult> | null;
}

export interface Tool {
  /** The name the model calls it by. */
  readonly name: string;
  /**
   * `sandbox`: runs in the turn's sandbox, asking to leave it under the policy's rules;
   * `unconfined`: cannot be sandboxed (an MCP server), so the approval policy alone decides.
   */
  readonly confinement: 'sandbox' | 'unconfined';
  /** The type of the thread item a call produces; null: none (update_plan's plan is a notification). */
  readonly itemType: ThreadItem['type'] | null;
  /** The schema offered to a model of this family; null: not offered to it. */
  spec(family: ModelFamily, offer: ToolOffer): ToolSpec | null;
  /**
   * Whether this call only reads, so it may run at the same time as the read-only calls beside it
   * (`parallel_tool_calls`); absent: never.
   */
  readOnly?(call: FunctionCall, context: ToolCallContext): boolean | Promise<boolean>;
  /** Parses the arguments, asks where the policy says, runs, streams, and answers the model. */
  handle(context: ToolCallContext): Promise<ToolCallResult>;
}
