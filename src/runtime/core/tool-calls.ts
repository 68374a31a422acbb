/**
 * Dispatches the model's function calls. `shell` asks for approval per the turn's policy
 * (a server request to the client), runs, streams output deltas, and reports back to the model.
 */
import type { CommandApprovalDecision, ThreadItem } from '../../protocol/api.js';
import type { ResponseItem } from '../../protocol/response-items.js';
import { commandPrefix, needsApproval } from '../tools/approval.js';
import { OutputDeltaCoalescer } from '../tools/output-deltas.js';
import { formatShellOutputForModel, parseShellArguments, runShellCommand, SHELL_TOOL_NAME } from '../tools/shell.js';
import { newId } from './ids.js';
import type { Session } from './session.js';
import type { ActiveTurn } from './turn-state.js';

export const DECLINED_OUTPUT = 'The user declined to run this command. Do not retry it unless the user asks.';

export interface FunctionCall {
  call_id: string;
  name: string;
  arguments: string;
}

export interface ToolCallResult {
  output: ResponseItem;
  /** The turn was interrupted while the tool ran (or waited for approval). */
  aborted: boolean;
}

function outputItem(callId: string, output: string): ResponseItem {
  return { type: 'function_call_output', call_id: callId, output };
}

async function askApproval(session: Session, turn: ActiveTurn, itemId: string, command: string): Promise<CommandApprovalDecision> {
  try {
    return await session.requestApproval(
      { threadId: session.threadId, turnId: turn.id, itemId, command, cwd: turn.context.cwd, reason: null },
      turn.signal,
    );
  } catch {
    // No client to ask, or it failed: never run a command nobody approved.
    return 'decline';
  }
}

export async function handleFunctionCall(session: Session, turn: ActiveTurn, call: FunctionCall): Promise<ToolCallResult> {
  if (call.name !== SHELL_TOOL_NAME) return { output: outputItem(call.call_id, `unsupported call: ${call.name}`), aborted: false };
  const args = parseShellArguments(call.arguments);
  if ('error' in args) return { output: outputItem(call.call_id, args.error), aborted: false };
  const base = { threadId: session.threadId, turnId: turn.id };
  const itemId = newId();
  const cwd = turn.context.cwd;
  const item = (over: Partial<Extract<ThreadItem, { type: 'commandExecution' }>>): ThreadItem => ({
    type: 'commandExecution',
    id: itemId,
    command: args.command,
    cwd,
    status: 'inProgress',
    aggregatedOutput: null,
    exitCode: null,
    durationMs: null,
    ...over,
  });
  const complete = (done: ThreadItem): void => {
    turn.openItems.delete(itemId);
    session.emitFor(turn, { method: 'item/completed', params: { ...base, item: done, completedAtMs: session.now() } });
  };
  session.emitFor(turn, { method: 'item/started', params: { ...base, item: item({}), startedAtMs: session.now() } });

  if (needsApproval(turn.context.approvalPolicy, args.command, session.approvedPrefixes)) {
    turn.openItems.set(itemId, item({ status: 'declined' }));
    const decision = await askApproval(session, turn, itemId, args.command);
    if (turn.signal.aborted) {
      // Interrupted while waiting: the command never ran, as if declined.
      complete(item({ status: 'declined' }));
      return { output: outputItem(call.call_id, 'aborted'), aborted: true };
    }
    if (decision === 'acceptForSession') session.approvedPrefixes.add(commandPrefix(args.command));
    if (decision !== 'accept' && decision !== 'acceptForSession') {
      complete(item({ status: 'declined' }));
      if (decision === 'cancel') session.requestInterrupt(turn);
      return { output: outputItem(call.call_id, DECLINED_OUTPUT), aborted: decision === 'cancel' };
    }
  }
  turn.openItems.set(itemId, item({ status: 'failed' }));

  const deltas = new OutputDeltaCoalescer({
    send: (delta) => session.emitFor(turn, { method: 'item/commandExecution/outputDelta', params: { ...base, itemId, delta } }),
  });
  const result = await runShellCommand({
    command: args.command,
    cwd,
    timeoutMs: args.timeoutMs,
    signal: turn.signal,
    onOutput: (delta) => deltas.push(delta),
  });
  deltas.flush();
  const status = result.exitCode === 0 && !result.aborted && !result.timedOut ? 'completed' : 'failed';
  complete(item({ status, aggregatedOutput: result.output, exitCode: result.exitCode, durationMs: result.durationMs }));
  return { output: outputItem(call.call_id, formatShellOutputForModel(result)), aborted: result.aborted };
}
