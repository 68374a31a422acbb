import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import {
  ENABLE_SEQUENCE,
  RESTORE_SEQUENCE,
  enableTerminalModes,
  installExitGuards,
  type GuardedProcess,
} from '../../../src/tui/terminal/modes.js';
import { signalExitCode } from '../../../src/process-io.js';

function fakeStream() {
  const writes: string[] = [];
  return { writes, write: (s: string) => writes.push(s) };
}

class FakeProcess extends EventEmitter implements GuardedProcess {
  exits: number[] = [];
  exit(code?: number): void {
    this.exits.push(code ?? 0);
  }
}

describe('enableTerminalModes', () => {
  it('enables bracketed paste, kitty disambiguate flags, modifyOtherKeys and focus reporting', () => {
    const out = fakeStream();
    enableTerminalModes(out);
    expect(out.writes).toEqual([ENABLE_SEQUENCE]);
    expect(ENABLE_SEQUENCE).toBe('\x1b[?2004h\x1b[>1u\x1b[>4;2m\x1b[?1004h');
  });

  it('restores every mode (focus reporting off too) and shows the cursor, once', () => {
    const out = fakeStream();
    const restore = enableTerminalModes(out);
    restore();
    restore();
    expect(out.writes).toEqual([ENABLE_SEQUENCE, RESTORE_SEQUENCE]);
    expect(RESTORE_SEQUENCE).toBe('\x1b[?2004l\x1b[<u\x1b[>4;0m\x1b[?1004l\x1b[?25h');
  });

  it('leaves raw mode on the given stdin when restoring', () => {
    const calls: boolean[] = [];
    const stdin = { isTTY: true, isRaw: true, setRawMode: (m: boolean) => calls.push(m) };
    enableTerminalModes(fakeStream(), { stdin })();
    expect(calls).toEqual([false]);
  });

  it('survives a stream that throws', () => {
    const restore = enableTerminalModes({
      write: () => {
        throw new Error('closed');
      },
    });
    expect(() => restore()).not.toThrow();
  });
});

describe('installExitGuards', () => {
  function setup() {
    const proc = new FakeProcess();
    const stderr = fakeStream();
    let restores = 0;
    const uninstall = installExitGuards(() => restores++, { proc, stderr });
    return { proc, stderr, uninstall, restores: () => restores };
  }

  it('restores on process exit', () => {
    const s = setup();
    s.proc.emit('exit', 0);
    expect(s.restores()).toBe(1);
    expect(s.proc.exits).toEqual([]);
  });

  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ] as const)('restores on %s and exits with %i', (signal, code) => {
    const s = setup();
    s.proc.emit(signal);
    expect(s.restores()).toBe(1);
    expect(s.proc.exits).toEqual([code]);
    expect(signalExitCode(signal)).toBe(code);
  });

  it('restores, prints the error, and exits 1 on an uncaught exception', () => {
    const s = setup();
    s.proc.emit('uncaughtException', new Error('boom'));
    expect(s.restores()).toBe(1);
    expect(s.stderr.writes.join('')).toContain('boom');
    expect(s.proc.exits).toEqual([1]);
  });

  it('restores, prints the reason, and exits 1 on an unhandled rejection', () => {
    const s = setup();
    s.proc.emit('unhandledRejection', 'nope');
    expect(s.stderr.writes.join('')).toContain('nope');
    expect(s.proc.exits).toEqual([1]);
  });

  it('prints the error even when restore throws', () => {
    const proc = new FakeProcess();
    const stderr = fakeStream();
    installExitGuards(
      () => {
        throw new Error('restore failed');
      },
      { proc, stderr },
    );
    proc.emit('uncaughtException', new Error('first'));
    expect(stderr.writes.join('')).toContain('first');
    expect(proc.exits).toEqual([1]);
  });

  it('uninstall removes every listener', () => {
    const s = setup();
    s.uninstall();
    for (const ev of ['exit', 'SIGINT', 'SIGTERM', 'SIGHUP', 'uncaughtException', 'unhandledRejection']) {
      expect(s.proc.listenerCount(ev)).toBe(0);
    }
  });

  it('the restore written on exit turns the modes off in a real guarded sequence', () => {
    const out = fakeStream();
    const proc = new FakeProcess();
    installExitGuards(enableTerminalModes(out), { proc, stderr: fakeStream() });
    proc.emit('SIGTERM');
    proc.emit('exit', 143);
    expect(out.writes).toEqual([ENABLE_SEQUENCE, RESTORE_SEQUENCE]);
  });
});
