import { describe, expect, it } from 'vitest';
import {
  NO_THREAD_FOR_SHELL,
  runUserShell,
  SHELL_NO_SANDBOX,
  SHELL_SANDBOX_DENIED,
  shellCellResult,
} from '../../../../src/tui/chat/commands/user-shell.js';
import { FakeAppServerClient } from '../fake-client.js';

describe('a `!cmd` from the TUI', () => {
  it('goes to the runtime as tiller/shellCommand with the thread id', async () => {
    const client = new FakeAppServerClient();
    expect(await runUserShell(client, 'thread-1', 'ls -la')).toEqual({ output: 'ran ls -la\n', exitCode: 0 });
    expect(client.requestsOf('tiller/shellCommand')).toEqual([{ threadId: 'thread-1', command: 'ls -la' }]);
  });

  it('before the thread exists: a message, nothing run', async () => {
    const client = new FakeAppServerClient();
    expect(await runUserShell(client, null, 'ls')).toEqual({ output: NO_THREAD_FOR_SHELL, exitCode: null });
    expect(client.requestsOf('tiller/shellCommand')).toEqual([]);
  });

  it('says when the sandbox stopped it, or when there was none to be had', () => {
    const base = { exitCode: 1, durationMs: 3, sandboxDenied: false, sandbox: 'confined' as const };
    expect(shellCellResult({ ...base, output: 'touch: x: Read-only file system', sandboxDenied: true }).output).toBe(
      `touch: x: Read-only file system\n${SHELL_SANDBOX_DENIED}`,
    );
    expect(shellCellResult({ ...base, output: 'ok\n', sandbox: 'unavailable' }).output).toBe(`ok\n${SHELL_NO_SANDBOX}`);
    expect(shellCellResult({ ...base, output: 'plain\n' })).toEqual({ output: 'plain\n', exitCode: 1 });
  });
});
