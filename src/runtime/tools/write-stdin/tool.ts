/**
 * The `write_stdin` tool: types into a running exec session (or, with empty `chars`, only waits),
 * then answers as exec_command does with what the process printed since the last call. Its output
 * streams to the session's item of this turn (a new one when the session was started in an earlier
 * turn). A session that ended is answered once with its exit code and forgotten; an unknown id, or
 * writing to a session without a terminal, is a clear error to the model, and the turn goes on.
 */
import { commandActionsOf } from '../../../protocol/api.js';
import { displayCommand } from '../../../protocol/shell-command-line.js';
import { collectOutput } from '../../commands/sessions/collect-output.js';
import { execResponseText } from '../../commands/sessions/response-text.js';
import { SessionItem } from '../../commands/sessions/session-item.js';
import type { ExecSession } from '../../commands/sessions/session-store.js';
import { turnSink } from '../../commands/sessions/turn-sink.js';
import { type FunctionCall, functionCallOutput, type ToolCallResult } from '../../core/function-call.js';
import { newId } from '../../core/ids.js';
import type { TurnServices } from '../../core/turn-services.js';
import type { ActiveTurn } from '../../core/turn-state.js';
import type { Tool } from '../tool.js';
import { parseWriteStdinArguments, WRITE_STDIN_SPEC, WRITE_STDIN_TOOL_NAME } from './spec.js';

/** After a write, the process gets this long to react before the wait starts (as Codex). */
const REACT_MS = 100;

export const STDIN_CLOSED = 'stdin is closed for this session; rerun exec_command with tty=true to keep stdin open';

export const writeStdinTool: Tool = {
  name: WRITE_STDIN_TOOL_NAME,
  confinement: 'sandbox',
  itemType: 'commandExecution',
  spec: () => WRITE_STDIN_SPEC,
  handle: ({ services, turn, call }) => handleWriteStdin(services, turn, call),
};

/** The session's item in this turn: its own, or a new one when it was opened in an earlier turn. */
function itemInTurn(session: ExecSession, services: TurnServices, turn: ActiveTurn): SessionItem {
  if (!session.item.isDone && session.item.turnId === turn.id) return session.item;
  const view = session.item.view('inProgress');
  if (view.type !== 'commandExecution') return session.item;
  const item = new SessionItem(
    turnSink(services.events, turn),
    { id: newId(), command: view.command, commandActions: commandActionsOf(displayCommand(view.command)), cwd: view.cwd },
    turn.id,
    services.now(),
  );
  item.start();
  session.item = item;
  return item;
}

async function handleWriteStdin(services: TurnServices, turn: ActiveTurn, call: FunctionCall): Promise<ToolCallResult> {
  const answer = (text: string, aborted = false): ToolCallResult => ({ output: functionCallOutput(call.call_id, text), aborted });
  const args = parseWriteStdinArguments(call.arguments);
  if ('error' in args) return answer(args.error);
  const store = services.execSessions;
  const session = store.get(args.sessionId);
  if (session === undefined) return answer(`write_stdin failed: Unknown process id ${args.sessionId}`);
  const process = session.process;
  if (args.chars !== '' && !process.tty) return answer(`write_stdin failed: ${STDIN_CLOSED}`);
  session.lastUsedMs = Date.now();
  const item = itemInTurn(session, services, turn);
  const startedAtMs = Date.now();
  if (args.chars !== '' && !process.output.exited) {
    process.write(args.chars);
    await new Promise((resolve) => setTimeout(resolve, REACT_MS));
  }
  const collected = await collectOutput(process.output, startedAtMs + args.yieldTimeMs, turn.signal);
  const wallTimeMs = Date.now() - startedAtMs;
  const response = { wallTimeMs, output: collected.toString('utf8'), maxOutputTokens: args.maxOutputTokens };
  if (turn.signal.aborted) return answer(`Wall time: ${(wallTimeMs / 1000).toFixed(1)} seconds\naborted by user`, true);
  if (!process.output.exited) {
    item.flush();
    return answer(execResponseText({ ...response, exitCode: null, sessionId: session.id }));
  }
  const exitCode = process.output.exitCode ?? -1;
  store.release(session.id);
  item.complete({ status: exitCode === 0 ? 'completed' : 'failed', exitCode });
  return answer(execResponseText({ ...response, exitCode, sessionId: null }));
}
