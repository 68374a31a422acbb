/**
 * The `shell` tool: a command line runs in the turn's sandbox and asks for approval per the turn's
 * policy (a server request to the client); a command the sandbox stopped may be run outside it
 * once the user says so. Output streams as `commandExecution` deltas and goes back to the model.
 */
import { type ApprovalPolicy, type CommandApprovalDecision, commandActionsOf, type ThreadItem } from '../../../protocol/api.js';
import { HARDENED_GIT_ENV } from '../../../protocol/git-safety.js';
import { approvalRuleFor, commandNeedsApproval, isKnownSafeCommand, isSessionApproved, runsGit } from '../../commands/approval.js';
import { modelCommandEnvironment } from '../../commands/environment.js';
import { readGitConfig } from '../../commands/git-config.js';
import { OutputDeltaCoalescer } from '../../commands/output-deltas.js';
import { parseShellCommand } from '../../commands/parse.js';
import { runShellCommand, type ShellRunResult, type ShellSandbox } from '../../commands/run.js';
import { type FunctionCall, functionCallOutput, type ToolCallResult } from '../../core/function-call.js';
import { newId } from '../../core/ids.js';
import type { TurnServices } from '../../core/turn-services.js';
import type { ActiveTurn } from '../../core/turn-state.js';
import { commandSandbox, SANDBOX_DENIED_NOTE, sandboxUnavailableWarning } from '../../sandbox/command-sandbox.js';
import { looksLikeSandboxDenial } from '../../sandbox/sandbox.js';
import type { Tool } from '../tool.js';
import { formatShellOutputForModel, parseShellArguments, SHELL_TOOL_NAME, SHELL_TOOL_SPEC } from './spec.js';

export const DECLINED_OUTPUT = 'The user declined to run this command. Do not retry it unless the user asks.';

/** The reason shown with the second prompt, after the sandbox stopped the command. */
export function sandboxDeniedReason(output: string): string {
  const sign = output
    .split('\n')
    .find((line) => looksLikeSandboxDenial({ exitCode: 1, output: line }, true))
    ?.trim();
  return `The sandbox blocked this command${sign ? ` (${sign.slice(0, 160)})` : ''}. Run it again without the sandbox?`;
}

async function askApproval(
  services: TurnServices,
  turn: ActiveTurn,
  itemId: string,
  command: string,
  reason: string | null,
): Promise<CommandApprovalDecision> {
  try {
    return await services.requestApproval({ itemId, command, cwd: turn.context.cwd, reason });
  } catch {
    // No client to ask, or it failed: never run a command nobody approved.
    return 'decline';
  }
}

const accepted = (decision: CommandApprovalDecision): boolean => decision === 'accept' || decision === 'acceptForSession';

async function remember(rules: string[][], command: string): Promise<void> {
  const rule = approvalRuleFor(await parseShellCommand(command));
  if (rule !== null) rules.push(rule);
}

/**
 * Where the command runs: confined by the sandbox, or outside it when none was asked for or the
 * user let this command out for the session. With no sandbox to be had, `never` still asks.
 */
async function placeCommand(
  services: TurnServices,
  turn: ActiveTurn,
  command: string,
): Promise<{ confined: ShellSandbox | undefined; policy: ApprovalPolicy; letOut: boolean }> {
  const sandbox = await commandSandbox(turn.context.sandboxPolicy, services.config);
  const policy = turn.context.approvalPolicy;
  const approvals = services.approvals;
  if (sandbox.type === 'unavailable') {
    if (!approvals.sandboxUnavailableTold) {
      approvals.sandboxUnavailableTold = true;
      services.events.warning(sandboxUnavailableWarning(sandbox.reason));
    }
    return { confined: undefined, policy: policy === 'never' ? 'on-request' : policy, letOut: false };
  }
  if (sandbox.type === 'none') return { confined: undefined, policy, letOut: false };
  const letOut = approvals.outsideSandbox.length > 0 && isSessionApproved(await parseShellCommand(command), approvals.outsideSandbox);
  return { confined: letOut ? undefined : sandbox.shell, policy, letOut };
}

export const shellTool: Tool = {
  name: SHELL_TOOL_NAME,
  confinement: 'sandbox',
  itemType: 'commandExecution',
  spec: () => SHELL_TOOL_SPEC,
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

  const { confined, policy, letOut } = await placeCommand(services, turn, args.command);
  const sessionApprovals = services.approvals.commands;
  const approvalContext = { policy, sandboxed: confined !== undefined, sessionApprovals, command: args.command, cwd, readGitConfig };
  if (!letOut && (await commandNeedsApproval(approvalContext))) {
    turn.openItems.set(itemId, item({ status: 'declined' }));
    const decision = await askApproval(services, turn, itemId, args.command, null);
    if (turn.signal.aborted || !accepted(decision)) return declined(decision, DECLINED_OUTPUT);
    if (decision === 'acceptForSession') await remember(sessionApprovals, args.command);
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
  if (looksLikeSandboxDenial(result, result.sandboxed) && !turn.signal.aborted) {
    deltas.flush();
    // `never` means nobody is asked: the model hears what the sandbox did instead.
    const decision =
      policy === 'never' ? 'decline' : await askApproval(services, turn, itemId, args.command, sandboxDeniedReason(result.output));
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
