/**
 * `!cmd` through the runtime (`tiller/shellCommand`): it runs in the thread's sandbox, and the
 * model's next request carries it as Codex's `<user_shell_command>` record.
 */
import { existsSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { userShellCommandText } from '../../src/runtime/core/user-shell.js';
import { sandboxAvailability } from '../../src/runtime/sandbox/sandbox.js';
import { type Harness, inputTexts, startHarness, tempDir, text } from './support/harness.js';

const sandboxed = (await sandboxAvailability()).available;

let h: Harness;
afterEach(async () => {
  await h?.close();
});

describe('a user shell command', () => {
  it('is formatted as Codex records it', () => {
    expect(userShellCommandText('ls', { exitCode: 0, durationMs: 1234, output: 'a\nb\n' })).toBe(
      '<user_shell_command>\n<command>\nls\n</command>\n<result>\nExit code: 0\nDuration: 1.2340 seconds\nOutput:\na\nb\n\n</result>\n</user_shell_command>',
    );
  });

  it('reaches the model with the next turn, after it ran', async () => {
    h = await startHarness({ config: { sandboxMode: 'danger-full-access' } });
    const result = await h.server.request('tiller/shellCommand', { threadId: h.threadId, command: 'echo from-the-user' });
    expect(result).toMatchObject({ exitCode: 0, output: 'from-the-user\n', sandbox: 'none', sandboxDenied: false });
    h.fake.enqueue({ text: 'seen' });
    await h.server.request('turn/start', { threadId: h.threadId, input: [text('what did I run?')] });
    await h.log.waitFor('turn/completed');
    const texts = inputTexts(h.fake.requests[0]!.body);
    const record = texts.find((t) => t.startsWith('<user_shell_command>'));
    expect(record).toContain('<command>\necho from-the-user\n</command>');
    expect(record).toContain('Exit code: 0');
    expect(record).toContain('from-the-user');
    expect(texts.indexOf(record!)).toBeLessThan(texts.indexOf('what did I run?'));
  });

  it('an empty command is refused as invalid params', async () => {
    h = await startHarness();
    await expect(h.server.request('tiller/shellCommand', { threadId: h.threadId, command: '  ' })).rejects.toMatchObject({ code: -32602 });
  });

  it.skipIf(!sandboxed)('runs in the sandbox (SKIPPED where this machine has none): read-only writes nothing', async () => {
    const ws = realpathSync(tempDir());
    h = await startHarness({ config: { sandboxMode: 'read-only' }, cwd: ws });
    const result = await h.server.request('tiller/shellCommand', { threadId: h.threadId, command: 'touch made-here' });
    expect(result).toMatchObject({ sandbox: 'confined', sandboxDenied: true });
    expect(result.exitCode).not.toBe(0);
    expect(existsSync(join(ws, 'made-here'))).toBe(false);
  });
});
