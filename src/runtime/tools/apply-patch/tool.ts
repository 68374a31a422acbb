/**
 * The `apply_patch` tool (Codex's): the freeform grammar form for the model families that take it,
 * the JSON `{input}` form for the rest. A patch inside the writable roots is applied without
 * asking; elsewhere it asks under the policy's rules (permissions.ts). A shell call that is an
 * `apply_patch` heredoc comes here too (shellPatchCall).
 */
import { resolve } from 'node:path';
import { callOutput, type FunctionCall, type ToolCallResult } from '../../core/function-call.js';
import type { TurnServices } from '../../core/turn-services.js';
import type { ActiveTurn } from '../../core/turn-state.js';
import type { Tool } from '../tool.js';
import { shellApplyPatch } from './heredoc.js';
import { runPatch } from './run.js';
import { APPLY_PATCH_FREEFORM_SPEC, APPLY_PATCH_FUNCTION_SPEC, APPLY_PATCH_TOOL_NAME, patchInput } from './spec.js';

export const applyPatchTool: Tool = {
  name: APPLY_PATCH_TOOL_NAME,
  confinement: 'sandbox',
  itemType: 'fileChange',
  spec: (family) => (family.applyPatch === 'freeform' ? APPLY_PATCH_FREEFORM_SPEC : APPLY_PATCH_FUNCTION_SPEC),
  handle: async ({ services, turn, call }) => {
    const patch = patchInput(call.arguments, call.kind);
    if (typeof patch !== 'string') return { output: callOutput(call, patch.error), aborted: false };
    return runPatch({ services, turn, call, patch, cwd: turn.context.cwd });
  },
};

/**
 * A shell command (the `shell` tool's, exec_command's `cmd`) that is `apply_patch <<'EOF' … EOF`,
 * optionally after `cd <dir> &&`: applied as apply_patch, answered in the call's own form. Null:
 * not a patch, run it as a command. `workdir`: the command's directory, when it names one.
 */
export function shellPatchCall(
  command: string,
  context: { services: TurnServices; turn: ActiveTurn; call: FunctionCall; workdir?: string | null },
): Promise<ToolCallResult> | null {
  const found = shellApplyPatch(command);
  if (found === null) return null;
  const base = context.workdir ? resolve(context.turn.context.cwd, context.workdir) : context.turn.context.cwd;
  const cwd = found.workdir === null ? base : resolve(base, found.workdir);
  return runPatch({ services: context.services, turn: context.turn, call: context.call, patch: found.patch, cwd });
}
