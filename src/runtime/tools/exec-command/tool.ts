/**
 * The `exec_command` tool (Codex's unified exec): the command line runs with the given (or the
 * user's) shell, in a pseudo-terminal when `tty`, in the turn's sandbox, asking for approval as the
 * `shell` tool does (commands/command-gate.ts); `require_escalated` asks to run it outside the
 * sandbox with the model's justification as the reason. The call waits up to `yield_time_ms`: a
 * command that ended answers with its exit code, one still running is kept as a session that
 * `write_stdin` continues. One `commandExecution` item per call streams the output live.
 */
import { resolve } from 'node:path';
import { commandActionsOf } from '../../../protocol/api.js';
import { shlexJoin } from '../../../protocol/shell-command-line.js';
import { isKnownSafeCommand } from '../../commands/approval.js';
import { parseShellCommand } from '../../commands/parse.js';
import { userShell } from '../../commands/run.js';
import { SessionItem } from '../../commands/sessions/session-item.js';
import { turnSink } from '../../commands/sessions/turn-sink.js';
import { type FunctionCall, functionCallOutput, type ToolCallResult } from '../../core/function-call.js';
import { newId } from '../../core/ids.js';
import type { TurnServices } from '../../core/turn-services.js';
import type { ActiveTurn } from '../../core/turn-state.js';
import type { Tool } from '../tool.js';
import { gateExecCommand } from './gate.js';
import { runExecSession } from './run-session.js';
import { EXEC_COMMAND_SPEC, EXEC_COMMAND_TOOL_NAME, parseExecCommandArguments } from './spec.js';

export const execCommandTool: Tool = {
  name: EXEC_COMMAND_TOOL_NAME,
  confinement: 'sandbox',
  itemType: 'commandExecution',
  spec: () => EXEC_COMMAND_SPEC,
  // A known-safe command only reads, so it may run beside other read-only calls.
  readOnly: async (call) => {
    const args = parseExecCommandArguments(call.arguments);
    if ('error' in args || args.escalated || args.tty) return false;
    return isKnownSafeCommand(await parseShellCommand(args.cmd));
  },
  handle: ({ services, turn, call, shellPatch }) => {
    const args = parseExecCommandArguments(call.arguments);
    // `apply_patch <<'EOF' … EOF` is a patch, applied as the apply_patch tool applies it (as Codex does).
    const patched = 'error' in args ? null : (shellPatch?.(args.cmd, args.workdir) ?? null);
    return patched ?? handleExecCommand(services, turn, call);
  },
};

async function handleExecCommand(services: TurnServices, turn: ActiveTurn, call: FunctionCall): Promise<ToolCallResult> {
  const args = parseExecCommandArguments(call.arguments);
  const answer = (text: string, aborted = false): ToolCallResult => ({ output: functionCallOutput(call.call_id, text), aborted });
  if ('error' in args) return answer(args.error);
  const cwd = args.workdir === null ? turn.context.cwd : resolve(turn.context.cwd, args.workdir);
  const argv = [args.shell ?? userShell().file, args.login ? '-lc' : '-c', args.cmd];
  const item = new SessionItem(
    turnSink(services.events, turn),
    { id: newId(), command: shlexJoin(argv), commandActions: commandActionsOf(args.cmd), cwd },
    turn.id,
    services.now(),
  );
  item.start();
  // Cut off while waiting for an answer, the command never ran: as if declined.
  turn.openItems.set(item.id, item.view('declined'));
  const gate = await gateExecCommand(services, turn, item.id, args, cwd);
  if (gate.type === 'refused') {
    item.complete({ status: 'declined', exitCode: null });
    if (gate.decision === 'cancel') services.requestInterrupt();
    return answer(turn.signal.aborted ? 'aborted' : gate.output, turn.signal.aborted || gate.decision === 'cancel');
  }
  turn.openItems.set(item.id, item.view('failed'));
  return answer(...(await runExecSession(services, turn, { args, argv, cwd, item, placement: gate.placement })));
}
