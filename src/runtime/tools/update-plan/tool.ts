/**
 * The `update_plan` tool: the plan goes to the clients as Codex's `turn/plan/updated` (whole, each
 * time), and the model reads back "Plan updated". It touches nothing, so it runs beside other
 * read-only calls.
 */
import { functionCallOutput, type ToolCallResult } from '../../core/function-call.js';
import type { Tool } from '../tool.js';
import { PLAN_UPDATED_OUTPUT, parseUpdatePlanArguments, UPDATE_PLAN_TOOL_NAME, UPDATE_PLAN_TOOL_SPEC } from './spec.js';

export const updatePlanTool: Tool = {
  name: UPDATE_PLAN_TOOL_NAME,
  confinement: 'unconfined',
  itemType: null,
  spec: () => UPDATE_PLAN_TOOL_SPEC,
  readOnly: () => true,
  handle: async ({ services, call }): Promise<ToolCallResult> => {
    const args = parseUpdatePlanArguments(call.arguments);
    if ('error' in args) return { output: functionCallOutput(call.call_id, args.error), aborted: false };
    services.events.emit('turn/plan/updated', { explanation: args.explanation, plan: args.plan });
    return { output: functionCallOutput(call.call_id, PLAN_UPDATED_OUTPUT), aborted: false };
  },
};
