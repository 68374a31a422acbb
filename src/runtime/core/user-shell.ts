/**
 * A `!cmd` the user ran locally reaches the model as Codex's `<user_shell_command>` record: a
 * user message with the command, its exit code, duration and (capped) output, so the model knows
 * what the user just saw.
 */
import type { TillerShellCommandResult } from '../../protocol/api.js';
import type { ResponseItem } from '../../protocol/response-items.js';
import { looksLikeSandboxDenial } from '../sandbox/sandbox.js';
import { runShellCommand } from '../commands/run.js';
import { commandSandbox } from '../sandbox/command-sandbox.js';
import { userTextItem } from './history.js';
import type { Session } from './session.js';

export const USER_SHELL_COMMAND_OPEN = '<user_shell_command>';
export const USER_SHELL_COMMAND_CLOSE = '</user_shell_command>';

export interface UserShellOutcome {
  exitCode: number | null;
  durationMs: number;
  output: string;
}

export function userShellCommandText(command: string, outcome: UserShellOutcome): string {
  return [
    USER_SHELL_COMMAND_OPEN,
    '<command>',
    command,
    '</command>',
    '<result>',
    `Exit code: ${outcome.exitCode ?? 'unknown'}`,
    `Duration: ${(outcome.durationMs / 1000).toFixed(4)} seconds`,
    'Output:',
    outcome.output,
    '</result>',
    USER_SHELL_COMMAND_CLOSE,
  ].join('\n');
}

export function userShellCommandItem(command: string, outcome: UserShellOutcome): ResponseItem {
  return userTextItem(userShellCommandText(command, outcome));
}

/**
 * Runs the user's command in the thread's sandbox (where one can be had: the user typed it, so
 * with none it runs as is, and the result says so) and records it for the model.
 */
export async function runUserShellCommand(
  session: Session,
  command: string,
  signal = new AbortController().signal,
): Promise<TillerShellCommandResult> {
  const settings = session.currentSettings;
  const sandbox = await commandSandbox(settings.sandboxPolicy, session.config);
  const result = await runShellCommand({
    command,
    cwd: settings.cwd,
    signal,
    ...(sandbox.type === 'sandboxed' ? { sandbox: sandbox.shell } : {}),
  });
  const output = result.spawnError !== null ? `${result.output}${result.spawnError}` : result.output;
  session.recordOutOfTurn(userShellCommandItem(command, { exitCode: result.exitCode, durationMs: result.durationMs, output }));
  return {
    exitCode: result.exitCode,
    output,
    durationMs: result.durationMs,
    sandbox: sandbox.type === 'sandboxed' ? 'confined' : sandbox.type,
    sandboxDenied: looksLikeSandboxDenial(result, result.sandboxed, {
      blocked: sandbox.type === 'sandboxed' && !sandbox.shell.policy.networkAccess,
      command,
    }),
  };
}
