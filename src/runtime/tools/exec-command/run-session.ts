/**
 * Runs an approved exec_command: spawns its process (commands/sessions/exec-process.ts), streams
 * what it prints to the call's item, and waits for the yield. A process still running is stored as
 * a session (the answer names its id); one that ended answers with its exit code. A sandboxed run
 * that the sandbox seems to have stopped asks, as the shell tool does, to run again outside it.
 */
import { errorMessage } from '../../../error-message.js';
import { HARDENED_GIT_ENV } from '../../../protocol/git-safety.js';
import { shlexJoin } from '../../../protocol/shell-command-line.js';
import { isKnownSafeCommand, runsGit } from '../../commands/approval.js';
import { accepted, askApproval, networkContext, type Placement, remember, sandboxDeniedReason } from '../../commands/command-gate.js';
import { modelCommandEnvironment } from '../../commands/environment.js';
import { parseShellCommand } from '../../commands/parse.js';
import { collectOutput } from '../../commands/sessions/collect-output.js';
import { type ExecProcess, spawnExecProcess } from '../../commands/sessions/exec-process.js';
import { execResponseText } from '../../commands/sessions/response-text.js';
import { EXEC_SESSION_ENV } from '../../commands/sessions/session-env.js';
import type { SessionItem } from '../../commands/sessions/session-item.js';
import { type ExecSession, WARN_EXEC_SESSIONS } from '../../commands/sessions/session-store.js';
import type { TurnServices } from '../../core/turn-services.js';
import type { ActiveTurn } from '../../core/turn-state.js';
import { SANDBOX_DENIED_NOTE } from '../../sandbox/command-sandbox.js';
import { looksLikeSandboxDenial } from '../../sandbox/sandbox.js';
import type { ExecCommandArguments } from './spec.js';

export interface ExecRun {
  args: ExecCommandArguments;
  argv: string[];
  cwd: string;
  item: SessionItem;
  placement: Placement;
}

/** Codex's answer to a call cut off by an interrupt. */
export const abortedText = (wallTimeMs: number): string => `Wall time: ${(wallTimeMs / 1000).toFixed(1)} seconds\naborted by user`;

/** [what the model reads, whether the turn was interrupted]. */
export async function runExecSession(services: TurnServices, turn: ActiveTurn, run: ExecRun): Promise<[string, boolean]> {
  const { args, argv, cwd, item } = run;
  const store = services.execSessions;
  const parsed = await parseShellCommand(args.cmd);
  // A read-only git runs neither an fsmonitor nor a hook, whatever the repository configured.
  const env = {
    ...modelCommandEnvironment(services.config),
    ...(isKnownSafeCommand(parsed) && runsGit(parsed) ? HARDENED_GIT_ENV : {}),
    ...EXEC_SESSION_ENV,
  };
  let confined = run.placement.confined;
  for (;;) {
    const id = store.allocateId();
    let process: ExecProcess;
    try {
      process = await spawnExecProcess({ argv, cwd, env, tty: args.tty, sandbox: confined });
    } catch (error) {
      store.release(id);
      item.complete({ status: 'failed', exitCode: null });
      return [`exec_command failed for \`${shlexJoin(argv)}\`: Failed to create unified exec process: ${errorMessage(error)}`, false];
    }
    const startedAtMs = Date.now();
    const session: ExecSession = { id, process, command: shlexJoin(argv), startedAtMs, lastUsedMs: startedAtMs, item };
    const stopListening = process.output.listen((text) => session.item.push(text));
    const collected = await collectOutput(process.output, startedAtMs + args.yieldTimeMs, turn.signal);
    const wallTimeMs = Date.now() - startedAtMs;
    const output = collected.toString('utf8');
    const response = { wallTimeMs, output, maxOutputTokens: args.maxOutputTokens };
    if (turn.signal.aborted) {
      process.terminate();
      store.release(id);
      item.complete({ status: 'failed', exitCode: null });
      return [abortedText(wallTimeMs), true];
    }
    const ended = process.output;
    if (!ended.exited) {
      const open = store.store(session);
      ended.onExit((code) => session.item.complete({ status: code === 0 ? 'completed' : 'failed', exitCode: code }));
      if (open >= WARN_EXEC_SESSIONS) {
        services.events.warning(`${open} exec sessions are open (at most 64 are kept): the oldest are ended first.`);
      }
      item.flush();
      // The session owns the item now: an interrupt or the turn's end completes it.
      turn.openItems.delete(item.id);
      return [execResponseText({ ...response, exitCode: null, sessionId: id }), false];
    }
    stopListening();
    store.release(id);
    const exitCode = ended.exitCode ?? -1;
    const network = networkContext(confined, args.cmd);
    if (looksLikeSandboxDenial({ exitCode, output }, process.sandboxed, network)) {
      item.flush();
      const reason = sandboxDeniedReason({ output, exitCode }, network);
      const decision =
        run.placement.policy === 'never' ? 'decline' : await askApproval(services, { itemId: item.id, command: args.cmd, cwd, reason });
      if (turn.signal.aborted) {
        item.complete({ status: 'failed', exitCode });
        return [abortedText(wallTimeMs), true];
      }
      if (accepted(decision)) {
        if (decision === 'acceptForSession') await remember(services.approvals.outsideSandbox, args.cmd);
        item.push('\n[running again outside the sandbox]\n');
        confined = undefined;
        continue;
      }
      if (decision === 'cancel') services.requestInterrupt();
      item.complete({ status: 'failed', exitCode });
      return [`${execResponseText({ ...response, exitCode, sessionId: null })}\n${SANDBOX_DENIED_NOTE}`, decision === 'cancel'];
    }
    item.complete({ status: exitCode === 0 ? 'completed' : 'failed', exitCode });
    return [execResponseText({ ...response, exitCode, sessionId: null }), false];
  }
}
