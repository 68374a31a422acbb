import { describe, expect, it } from 'vitest';
import { execResponseText } from '../../src/runtime/commands/sessions/response-text.js';
import { ExecSessionStore, MAX_EXEC_SESSIONS } from '../../src/runtime/commands/sessions/session-store.js';
import { approxTokenCount, formattedTruncateText, lineCount } from '../../src/runtime/commands/sessions/truncate.js';
import { parseExecCommandArguments } from '../../src/runtime/tools/exec-command/spec.js';
import { parseWriteStdinArguments } from '../../src/runtime/tools/write-stdin/spec.js';

describe("Codex's token budget", () => {
  it('estimates 4 bytes a token, rounded up, and counts lines as Rust does', () => {
    expect(approxTokenCount('')).toBe(0);
    expect(approxTokenCount('abcde')).toBe(2);
    expect(approxTokenCount('é')).toBe(1);
    expect([lineCount(''), lineCount('a'), lineCount('a\n'), lineCount('a\nb')]).toEqual([0, 1, 1, 2]);
  });

  it('keeps text within budget as it is; over it, half the bytes from each end around the marker', () => {
    expect(formattedTruncateText('short', 10)).toBe('short');
    const text = 'x'.repeat(100);
    // 10 tokens = 40 bytes: 20 + 20 kept, (100 - 40) / 4 = 15 tokens truncated.
    expect(formattedTruncateText(text, 10)).toBe(
      `Warning: truncated output (original token count: 25)\nTotal output lines: 1\n\n${'x'.repeat(20)}…15 tokens truncated…${'x'.repeat(20)}`,
    );
  });

  it('never cuts a character in two', () => {
    const out = formattedTruncateText('é'.repeat(100), 5);
    expect(out).not.toContain('\ufffd');
    expect(out).toMatch(/\n\né{5}…45 tokens truncated…é{5}$/);
  });

  it('answers a running session and an exited command in Codex format', () => {
    const running = execResponseText(
      { wallTimeMs: 1234.5, exitCode: null, sessionId: 4321, output: 'hi\n', maxOutputTokens: null },
      'abc123',
    );
    expect(running).toBe(
      'Chunk ID: abc123\nWall time: 1.2345 seconds\nProcess running with session ID 4321\nOriginal token count: 1\nOutput:\nhi\n',
    );
    const done = execResponseText({ wallTimeMs: 5, exitCode: 2, sessionId: null, output: '', maxOutputTokens: null }, 'ffffff');
    expect(done).toBe('Chunk ID: ffffff\nWall time: 0.0050 seconds\nProcess exited with code 2\nOriginal token count: 0\nOutput:\n');
  });
});

describe('the arguments', () => {
  it('exec_command: Codex defaults, the yield clamped to 250–30000, bad input told clearly', () => {
    expect(parseExecCommandArguments('{"cmd":"ls"}')).toMatchObject({
      login: true,
      tty: false,
      yieldTimeMs: 10_000,
      maxOutputTokens: null,
      escalated: false,
    });
    expect(parseExecCommandArguments('{"cmd":"ls","yield_time_ms":5}')).toMatchObject({ yieldTimeMs: 250 });
    expect(parseExecCommandArguments('{"cmd":"ls","yield_time_ms":99999}')).toMatchObject({ yieldTimeMs: 30_000 });
    expect(parseExecCommandArguments('{"cmd":"ls","prefix_rule":["git","pull"],"sandbox_permissions":"require_escalated"}')).toMatchObject({
      escalated: true,
      prefixRule: ['git', 'pull'],
    });
    expect(parseExecCommandArguments('{"cmd":""}')).toEqual({
      error: 'failed to parse function arguments: `cmd` must be a non-empty string',
    });
    expect(parseExecCommandArguments('{"cmd":"ls","sandbox_permissions":"root"}')).toHaveProperty('error');
    expect(parseExecCommandArguments('{"cmd":"ls","shell":"/bin/bash"}')).toMatchObject({ shell: '/bin/bash' });
    expect(parseExecCommandArguments('{"cmd":"ls","shell":"/usr/bin/python3"}')).toEqual({
      error: 'failed to parse function arguments: `shell` must be a POSIX shell (bash, zsh, sh, dash or ksh)',
    });
    expect(parseExecCommandArguments('nope')).toEqual({ error: 'failed to parse function arguments: not JSON' });
  });

  it('write_stdin: a write waits 250 ms by default, a poll at least 5000', () => {
    expect(parseWriteStdinArguments('{"session_id":5,"chars":"x"}')).toEqual({
      sessionId: 5,
      chars: 'x',
      yieldTimeMs: 250,
      maxOutputTokens: null,
    });
    expect(parseWriteStdinArguments('{"session_id":5}')).toMatchObject({ chars: '', yieldTimeMs: 5000 });
    expect(parseWriteStdinArguments('{"session_id":"5"}')).toHaveProperty('error');
  });
});

describe('the session store', () => {
  const fakeSession = (store: ExecSessionStore, lastUsedMs: number, exited = false) => {
    const ended: string[] = [];
    const id = store.allocateId();
    const session = {
      id,
      command: 'x',
      startedAtMs: 0,
      lastUsedMs,
      process: { output: { exited, exitCode: exited ? 0 : null, listen: () => () => {} }, terminate: () => ended.push('killed') },
      item: { turnId: 't', output: '', complete: () => ended.push('completed') },
    } as never;
    store.store(session);
    return { id, ended };
  };

  it('past 64 sessions the least recently used one goes, an exited one first, never the 8 most recent', () => {
    let next = 1000;
    const store = new ExecSessionStore(() => next++);
    const sessions = Array.from({ length: MAX_EXEC_SESSIONS }, (_, i) => fakeSession(store, i + 1, i === 30));
    fakeSession(store, 1000);
    expect(store.size).toBe(MAX_EXEC_SESSIONS);
    expect(store.get(sessions[30]!.id)).toBeUndefined();
    expect(sessions[30]!.ended).toEqual(['killed', 'completed']);
    fakeSession(store, 1001);
    expect(store.get(sessions[0]!.id)).toBeUndefined();
    expect(store.get(sessions[1]!.id)).toBeDefined();
  });

  it('ids are never handed out twice while reserved', () => {
    const ids = [7, 7, 8];
    const store = new ExecSessionStore(() => ids.shift()!);
    expect([store.allocateId(), store.allocateId()]).toEqual([7, 8]);
  });
});
