import { describe, expect, it } from 'vitest';
import { commandPrefix, isReadOnlyCommand, needsApproval } from '../../src/runtime/tools/approval.js';
import { capText, HeadTailBuffer } from '../../src/runtime/tools/output-cap.js';
import { formatShellOutputForModel, parseShellArguments, runShellCommand, userShell } from '../../src/runtime/tools/shell.js';
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

  it('a chunk larger than both caps at once', () => {
    expect(capText('x'.repeat(100), 10, 5)).toBe(`${'x'.repeat(10)}\n[… 85 bytes omitted …]\n${'x'.repeat(5)}`);
  });
});

describe('approval policy', () => {
  it('read-only commands', () => {
    for (const c of ['ls -la', 'cat a.txt', 'pwd', 'git status', 'git diff HEAD', 'rg foo', 'wc -l x', 'head -n 3 f']) expect(isReadOnlyCommand(c)).toBe(true);
    for (const c of ['rm -rf x', 'git push', 'ls > out', 'cat a; rm b', 'echo $(rm x)', 'npm test', 'rg --pre=sh x', '']) expect(isReadOnlyCommand(c)).toBe(false);
  });

  it('needsApproval per policy and session prefixes', () => {
    const none = new Set<string>();
    expect(needsApproval('never', 'rm -rf /tmp/x', none)).toBe(false);
    expect(needsApproval('on-request', 'ls', none)).toBe(true);
    expect(needsApproval('untrusted', 'ls', none)).toBe(false);
    expect(needsApproval('untrusted', 'touch x', none)).toBe(true);
    expect(needsApproval('on-request', 'npm test -- --watch', new Set([commandPrefix('npm test')]))).toBe(false);
    expect(commandPrefix('  git   push origin main')).toBe('git push');
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
      headBytes: 64,
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
});
