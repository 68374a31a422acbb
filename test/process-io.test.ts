/** The exit code of a signal, one convention for the TUI, exec and the shell tool. */
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { signalExitCode } from '../src/process-io.js';
import { runShellCommand } from '../src/runtime/commands/run.js';

describe('signalExitCode', () => {
  it('is 128 + the signal number for every signal, not only the few once listed', () => {
    expect(signalExitCode('SIGHUP')).toBe(129);
    expect(signalExitCode('SIGINT')).toBe(130);
    expect(signalExitCode('SIGKILL')).toBe(137);
    expect(signalExitCode('SIGSEGV')).toBe(139);
    expect(signalExitCode('SIGTERM')).toBe(143);
  });

  it('is the exit code the shell tool reports for a command a signal ended', async () => {
    const result = await runShellCommand({ command: 'kill -SEGV $$', cwd: tmpdir(), signal: new AbortController().signal });
    expect(result.exitCode).toBe(139);
  });
});
