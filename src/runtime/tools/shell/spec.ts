/** The `shell` tool's arguments and what the model reads back (offered to no family: it answers older histories' calls). */
import type { ShellRunResult } from '../../commands/run.js';

export const SHELL_TOOL_NAME = 'shell';

export interface ShellArguments {
  command: string;
  timeoutMs: number | null;
}

/** Parses the model's arguments; a string error is told back to the model as the tool output. */
export function parseShellArguments(raw: string): ShellArguments | { error: string } {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return { error: 'failed to parse function arguments: not JSON' };
  }
  if (typeof value !== 'object' || value === null) return { error: 'failed to parse function arguments: expected an object' };
  const { command, timeout_ms: timeout } = value as { command?: unknown; timeout_ms?: unknown };
  if (typeof command !== 'string' || command.trim().length === 0)
    return { error: 'failed to parse function arguments: `command` must be a non-empty string' };
  if (timeout !== undefined && timeout !== null && (typeof timeout !== 'number' || !(timeout > 0))) {
    return { error: 'failed to parse function arguments: `timeout_ms` must be a positive number' };
  }
  return { command, timeoutMs: typeof timeout === 'number' ? timeout : null };
}

/** What the model reads back: exit code, then the capped output. */
export function formatShellOutputForModel(result: ShellRunResult): string {
  if (result.spawnError !== null) return `failed to start the command: ${result.spawnError}`;
  const status = result.timedOut
    ? `command timed out after ${result.durationMs} ms`
    : result.aborted
      ? 'command was aborted'
      : `exit code: ${result.exitCode ?? 'unknown'}`;
  return `${status}\nduration: ${(result.durationMs / 1000).toFixed(1)}s\noutput:\n${result.output}`;
}
