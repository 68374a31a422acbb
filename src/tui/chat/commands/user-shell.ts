/**
 * A `!cmd` goes to the runtime (`tiller/shellCommand`): it runs in the thread's sandbox and the
 * model hears of it. What the cell shows adds a line where the sandbox stopped the command or
 * where none could be had.
 */
import type { AppServerClient, TillerShellCommandResult } from '../../../protocol/api.js';
import type { LocalShellResult } from './local-commands.js';

export const NO_THREAD_FOR_SHELL = 'The session is not ready yet; run the command again in a moment.';
export const SHELL_SANDBOX_DENIED = '(the sandbox stopped this command; Shift+Tab or /approvals changes where commands may write)';
export const SHELL_NO_SANDBOX = '(no sandbox can be had on this machine: the command ran without one)';

export function shellCellResult(result: TillerShellCommandResult): LocalShellResult {
  const note = result.sandboxDenied ? SHELL_SANDBOX_DENIED : result.sandbox === 'unavailable' ? SHELL_NO_SANDBOX : null;
  const output =
    note === null ? result.output : `${result.output}${result.output.length === 0 || result.output.endsWith('\n') ? '' : '\n'}${note}`;
  return { output, exitCode: result.exitCode };
}

export async function runUserShell(client: AppServerClient, threadId: string | null, command: string): Promise<LocalShellResult> {
  if (threadId === null) return { output: NO_THREAD_FOR_SHELL, exitCode: null };
  return shellCellResult(await client.request('tiller/shellCommand', { threadId, command }));
}
