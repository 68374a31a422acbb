import { describe, expect, it } from 'vitest';
import { approvalRuleFor, commandNeedsApproval, isKnownSafeCommand } from '../../src/runtime/commands/approval.js';
import { parseShellCommand } from '../../src/runtime/commands/parse.js';
import { capText, HeadTailBuffer } from '../../src/runtime/commands/output-cap.js';
import { runShellCommand, userShell } from '../../src/runtime/commands/run.js';
import { formatShellOutputForModel, parseShellArguments } from '../../src/runtime/tools/shell/spec.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { killProcessGroup, trackedProcessGroups } from '../../src/runtime/commands/process-groups.js';
import { tempDir } from './support/harness.js';

describe('HeadTailBuffer', () => {
  it('keeps everything under the cap', () => {
    expect(capText('hello\nworld', 10, 10)).toBe('hello\nworld');
  });

  it('keeps head and tail with an omitted line between', () => {
    const buffer = new HeadTailBuffer(4, 4);
    for (const part of ['abcd', 'efgh', 'ijkl', 'mnop']) buffer.push(Buffer.from(part));
    expect(buffer.toString()).toBe('abcd\n[… 8 bytes omitted …]\nmnop');
    expect(buffer.totalBytes).toBe(16);
    expect(buffer.omittedBytes).toBe(8);
  });

  it('cuts at character boundaries: a character split by a seam is dropped whole and counted as omitted', () => {
    // 10 × '中' (3 bytes each); head 4 and tail 4 bytes each hold one whole character and a piece.
    expect(capText('中'.repeat(10), 4, 4)).toBe('中\n[… 24 bytes omitted …]\n中');
    expect(capText(`ab${'é'.repeat(5)}`, 3, 3)).toBe('ab\n[… 8 bytes omitted …]\né');
    expect(capText('😀😀😀', 5, 6)).toBe('😀\n[… 4 bytes omitted …]\n😀');
  });

  it('a chunk larger than both caps at once', () => {
    expect(capText('x'.repeat(100), 10, 5)).toBe(`${'x'.repeat(10)}\n[… 85 bytes omitted …]\n${'x'.repeat(5)}`);
  });
});

describe('approval policy', () => {
  const safe = async (command: string): Promise<boolean> => isKnownSafeCommand(await parseShellCommand(command));

  it('read-only commands', async () => {
    for (const c of ['ls -la', 'cat a.txt', 'pwd', 'git status', 'git diff HEAD', 'rg foo', 'wc -l x', 'head -n 3 f'])
      expect(await safe(c), c).toBe(true);
    for (const c of ['rm -rf x', 'git push', 'ls > out', 'cat a; rm b', 'echo $(rm x)', 'npm test', 'rg --pre=sh x', ''])
      expect(await safe(c), c).toBe(false);
  });

  it('needsApproval per policy and session approvals', async () => {
    const ask = (
      policy: 'never' | 'on-request' | 'untrusted',
      command: string,
      sessionApprovals: string[][] = [],
      sandboxed = false,
    ): Promise<boolean> => commandNeedsApproval({ policy, sandboxed, sessionApprovals, command });
    expect(await ask('never', 'rm -rf /tmp/x')).toBe(false);
    expect(await ask('on-request', 'ls')).toBe(true);
    expect(await ask('untrusted', 'ls')).toBe(false);
    expect(await ask('untrusted', 'touch x')).toBe(true);
    expect(await ask('on-request', 'npm test -- --watch', [['npm', 'test', '--', '--watch']])).toBe(false);
    expect(await ask('on-request', 'npm test -- --watch', [['npm', 'test']])).toBe(true);
    expect(await ask('on-request', 'ls', [], true)).toBe(false);
    expect(approvalRuleFor(await parseShellCommand('  git   push origin main'))).toEqual(['git', 'push', 'origin', 'main']);
  });
});

describe('shell tool', () => {
  it('parses arguments and reports bad ones as text for the model', () => {
    expect(parseShellArguments('{"command":"ls","timeout_ms":100}')).toEqual({ command: 'ls', timeoutMs: 100 });
    expect(parseShellArguments('nope')).toEqual({ error: expect.stringContaining('not JSON') });
    expect(parseShellArguments('{"command":""}')).toEqual({ error: expect.stringContaining('command') });
    expect(parseShellArguments('{"command":"ls","timeout_ms":-1}')).toEqual({ error: expect.stringContaining('timeout_ms') });
  });

  it('uses $SHELL -lc, falling back to /bin/sh -c', () => {
    expect(userShell({ SHELL: '/bin/sh' })).toMatchObject({ file: '/bin/sh' });
    expect(userShell({ SHELL: '/bin/sh' }).args('x')).toEqual(['-lc', 'x']);
    expect(userShell({ SHELL: '/no/such/shell' }).args('x')).toEqual(['-c', 'x']);
  });

  it('runs in the cwd, streams and caps output, reports the exit code', async () => {
    const cwd = tempDir();
    const chunks: string[] = [];
    const result = await runShellCommand({
      command: 'pwd; seq 1 5000; exit 4',
      cwd,
      signal: new AbortController().signal,
      onOutput: (c) => chunks.push(c),
      headBytes: Buffer.byteLength(cwd) + 16,
      tailBytes: 64,
    });
    expect(result.exitCode).toBe(4);
    expect(result.output.startsWith(cwd)).toBe(true);
    expect(result.output).toMatch(/\[… \d+ bytes omitted …\]\n/);
    expect(result.output.endsWith('4999\n5000\n')).toBe(true);
    expect(chunks.join('')).toContain('2500\n');
    expect(formatShellOutputForModel(result)).toMatch(/^exit code: 4\n/);
  });

  it('a timeout kills the command', async () => {
    const result = await runShellCommand({ command: 'sleep 20', cwd: tempDir(), timeoutMs: 100, signal: new AbortController().signal });
    expect(result.timedOut).toBe(true);
    expect(formatShellOutputForModel(result)).toMatch(/^command timed out/);
  });

  it("a timeout_ms beyond Node's timer range lets the command finish (Node alone would kill it after 1 ms)", async () => {
    const result = await runShellCommand({
      command: 'sleep 0.3; echo done',
      cwd: tempDir(),
      timeoutMs: 3e9,
      signal: new AbortController().signal,
    });
    expect(result).toMatchObject({ timedOut: false, exitCode: 0, output: 'done\n' });
  });
});

describe('runShellCommand with a background process holding the output pipes', () => {
  it('returns once the command exited and the output drained; the leftover stays tracked until Tiller exits', async () => {
    const dir = tempDir();
    let group = 0;
    const result = await runShellCommand({
      command: 'sleep 30 & echo $! > bg.pid; echo started',
      cwd: dir,
      signal: new AbortController().signal,
      drainMs: 50,
      onSpawn: (pid) => (group = pid),
    });
    try {
      expect(result).toMatchObject({ exitCode: 0, output: 'started\n', aborted: false, timedOut: false });
      const background = Number(readFileSync(join(dir, 'bg.pid'), 'utf8').trim());
      expect(() => process.kill(background, 0)).not.toThrow();
      // Still tracked once our ends of the pipes are closed.
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(trackedProcessGroups()).toContain(group);
    } finally {
      killProcessGroup(group);
    }
  });
});

describe('runShellCommand output deltas', () => {
  it('a character split across two reads arrives whole', async () => {
    const deltas: string[] = [];
    const result = await runShellCommand({
      command: "printf '\\344\\270'; sleep 0.2; printf '\\255\\n'",
      cwd: tempDir(),
      signal: new AbortController().signal,
      onOutput: (delta) => deltas.push(delta),
    });
    expect(deltas.join('')).toBe('中\n');
    expect(deltas.some((d) => d.includes('\uFFFD'))).toBe(false);
    expect(result.output).toBe('中\n');
  });
});
