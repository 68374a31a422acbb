/**
 * The `shell` tool: a command line runs in the turn's sandbox and asks for approval per the turn's
 * policy (a server request to the client); a command the sandbox stopped may be run outside it
 * once the user says so. Output streams as `commandExecution` deltas and goes back to the model.
 */
import { type CommandApprovalDecision, commandActionsOf, type ThreadItem } from '../../../protocol/api.js';
import { HARDENED_GIT_ENV } from '../../../protocol/git-safety.js';
import { isKnownSafeCommand, runsGit } from '../../commands/approval.js';
import {
  accepted,
  askApproval,
  DECLINED_OUTPUT,
  networkContext,
  placeCommand,
  placementNeedsApproval,
  remember,
  sandboxDeniedReason,
} from '../../commands/command-gate.js';
import { modelCommandEnvironment } from '../../commands/environment.js';
import { OutputDeltaCoalescer } from '../../commands/output-deltas.js';
import { parseShellCommand } from '../../commands/parse.js';
import { runShellCommand, type ShellRunResult, type ShellSandbox } from '../../commands/run.js';
import { type FunctionCall, functionCallOutput, type ToolCallResult } from '../../core/function-call.js';
import { newId } from '../../core/ids.js';
import type { TurnServices } from '../../core/turn-services.js';
import type { ActiveTurn } from '../../core/turn-state.js';
import { SANDBOX_DENIED_NOTE } from '../../sandbox/command-sandbox.js';
import { looksLikeSandboxDenial } from '../../sandbox/sandbox.js';
import type { Tool } from '../tool.js';
import { formatShellOutputForModel, parseShellArguments, SHELL_TOOL_NAME } from './spec.js';

export { DECLINED_OUTPUT, sandboxDeniedReason };

export const shellTool: Tool = {
  name: SHELL_TOOL_NAME,
  confinement: 'sandbox',
  itemType: 'commandExecution',
  // Every family is offered exec_command instead; `shell` still answers calls from older histories.
  spec: () => null,
  handle: ({ services, turn, call, shellPatch }) => {
    const args = parseShellArguments(call.arguments);
    // `apply_patch <<'EOF' … EOF` is a patch, applied as the apply_patch tool applies it.
    const patched = 'error' in args ? null : (shellPatch?.(args.command) ?? null);
    return patched ?? handleShellCall(services, turn, call);
  },
};

async function handleShellCall(services: TurnServices, turn: ActiveTurn, call: FunctionCall): Promise<ToolCallResult> {
  const args = parseShellArguments(call.arguments);
  if ('error' in args) return { output: functionCallOutput(call.call_id, args.error), aborted: false };
  const events = services.events;
  const itemId = newId();
  const cwd = turn.context.cwd;
  const item = (over: Partial<Extract<ThreadItem, { type: 'commandExecution' }>>): ThreadItem => ({
    type: 'commandExecution',
    id: itemId,
    command: args.command,
    commandActions: commandActionsOf(args.command),
    cwd,
    status: 'inProgress',
    aggregatedOutput: null,
    exitCode: null,
    durationMs: null,
    ...over,
  });
  const complete = (done: ThreadItem): void => {
    turn.openItems.delete(itemId);
    turn.toolItemCompleted(done);
    events.itemCompleted(done);
  };
  const declined = (decision: CommandApprovalDecision, output: string): ToolCallResult => {
    if (turn.signal.aborted) {
      // Interrupted while waiting: the command never ran, as if declined.
      complete(item({ status: 'declined' }));
      return { output: functionCallOutput(call.call_id, 'aborted'), aborted: true };
    }
    complete(item({ status: 'declined' }));
    if (decision === 'cancel') services.requestInterrupt();
    return { output: functionCallOutput(call.call_id, output), aborted: decision === 'cancel' };
  };
  events.itemStarted(item({}));

  const placement = await placeCommand(services, turn.context, args.command);
  const { confined, policy } = placement;
  if (await placementNeedsApproval(services, placement, args.command, cwd)) {
    turn.openItems.set(itemId, item({ status: 'declined' }));
    const decision = await askApproval(services, { itemId, command: args.command, cwd, reason: null });
    if (turn.signal.aborted || !accepted(decision)) return declined(decision, DECLINED_OUTPUT);
    if (decision === 'acceptForSession') await remember(services.approvals.commands, args.command);
  }
  turn.openItems.set(itemId, item({ status: 'failed' }));

  const deltas = new OutputDeltaCoalescer({
    send: (delta) => events.emit('item/commandExecution/outputDelta', { itemId, delta }),
  });
  // A read-only git runs neither an fsmonitor nor a hook, whatever the repository configured.
  const parsed = await parseShellCommand(args.command);
  const env = {
    ...modelCommandEnvironment(services.config),
    ...(isKnownSafeCommand(parsed) && runsGit(parsed) ? HARDENED_GIT_ENV : {}),
  };
  const run = (sandbox: ShellSandbox | undefined): Promise<ShellRunResult> =>
    runShellCommand({
      command: args.command,
      cwd,
      env,
      timeoutMs: args.timeoutMs,
      signal: turn.signal,
      onOutput: (delta) => deltas.push(delta),
      ...(sandbox ? { sandbox } : {}),
    });
  let result = await run(confined);
  let deniedNote = '';
  const network = networkContext(confined, args.command);
  if (looksLikeSandboxDenial(result, result.sandboxed, network) && !turn.signal.aborted) {
    deltas.flush();
    const reason = sandboxDeniedReason(result, network);
    // `never` means nobody is asked: the model hears what the sandbox did instead.
    const decision = policy === 'never' ? 'decline' : await askApproval(services, { itemId, command: args.command, cwd, reason });
    if (turn.signal.aborted) return declined(decision, 'aborted');
    if (accepted(decision)) {
      if (decision === 'acceptForSession') await remember(services.approvals.outsideSandbox, args.command);
      deltas.push('\n[running again outside the sandbox]\n');
      result = await run(undefined);
    } else deniedNote = `\n${SANDBOX_DENIED_NOTE}`;
    if (decision === 'cancel') services.requestInterrupt();
  }
  deltas.flush();
  const status = result.exitCode === 0 && !result.aborted && !result.timedOut ? 'completed' : 'failed';
  complete(item({ status, aggregatedOutput: result.output, exitCode: result.exitCode, durationMs: result.durationMs }));
  return {
    output: functionCallOutput(call.call_id, `${formatShellOutputForModel(result)}${deniedNote}`),
    aborted: result.aborted || turn.signal.aborted,
  };
}
