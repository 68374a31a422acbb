/**
 * Terminal modes Tiller turns on for its session, and their restoration on every exit path.
 *
 * Raw mode belongs to whoever reads stdin; this module handles what is written to stdout: bracketed
 * paste, the kitty keyboard protocol (disambiguate only, so Shift+Enter and Ctrl+J are distinct
 * keys), xterm modifyOtherKeys for terminals without kitty's protocol, and focus reporting (the
 * terminal sends `CSI I` / `CSI O` as its window gains or loses focus: chat/attention.ts). Terminals
 * ignore the sequences they do not know, so they are sent unconditionally.
 */
import { writeSync } from 'node:fs';
import { signalExitCode } from '../../process-io.js';

export const BRACKETED_PASTE_ON = '\x1b[?2004h';
export const BRACKETED_PASTE_OFF = '\x1b[?2004l';
/** Push kitty keyboard flags: 1 = disambiguate escape codes. */
export const KITTY_KEYBOARD_PUSH = '\x1b[>1u';
/** Pop the flags pushed above (one entry of the terminal's stack). */
export const KITTY_KEYBOARD_POP = '\x1b[<u';
export const MODIFY_OTHER_KEYS_ON = '\x1b[>4;2m';
export const MODIFY_OTHER_KEYS_OFF = '\x1b[>4;0m';
export const SHOW_CURSOR = '\x1b[?25h';
export const FOCUS_REPORTING_ON = '\x1b[?1004h';
export const FOCUS_REPORTING_OFF = '\x1b[?1004l';

export const ENABLE_SEQUENCE = BRACKETED_PASTE_ON + KITTY_KEYBOARD_PUSH + MODIFY_OTHER_KEYS_ON + FOCUS_REPORTING_ON;
export const RESTORE_SEQUENCE = BRACKETED_PASTE_OFF + KITTY_KEYBOARD_POP + MODIFY_OTHER_KEYS_OFF + FOCUS_REPORTING_OFF + SHOW_CURSOR;

export interface TerminalOutput {
  write(data: string): unknown;
  fd?: number;
  isTTY?: boolean;
}

export interface RawModeInput {
  isTTY?: boolean;
  isRaw?: boolean;
  setRawMode?(mode: boolean): unknown;
}

export interface TerminalModeOptions {
  /** Also leave raw mode on this input when restoring (for exits that skip the owner's cleanup). */
  stdin?: RawModeInput;
}

/** Turns the modes on and returns an idempotent restore(). */
export function enableTerminalModes(stdout: TerminalOutput, opts: TerminalModeOptions = {}): () => void {
  writeOut(stdout, ENABLE_SEQUENCE);
  let restored = false;
  return () => {
    if (restored) return;
    restored = true;
    writeOut(stdout, RESTORE_SEQUENCE);
    const stdin = opts.stdin;
    if (stdin?.isTTY && stdin.isRaw && stdin.setRawMode) {
      try {
        stdin.setRawMode(false);
      } catch {
        // The tty may already be gone (SIGHUP); nothing left to restore.
      }
    }
  };
}

/**
 * Writes synchronously to a TTY so the restore reaches the terminal even from an 'exit' handler or
 * right before process.exit(); other streams (tests, pipes) get a plain write.
 */
function writeOut(out: TerminalOutput, data: string): void {
  if (out.isTTY && typeof out.fd === 'number') {
    try {
      writeSync(out.fd, data);
      return;
    } catch {
      // EAGAIN on a non-blocking tty or a closed fd: fall back to the stream.
    }
  }
  try {
    out.write(data);
  } catch {
    // A destroyed stream cannot be restored; exiting must still go on.
  }
}

export type GuardedSignal = 'SIGINT' | 'SIGTERM' | 'SIGHUP';
const GUARDED_SIGNALS: GuardedSignal[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/** The parts of `process` the guards use (injectable for tests). */
export interface GuardedProcess {
  on(event: string, listener: (arg: unknown) => void): unknown;
  off(event: string, listener: (arg: unknown) => void): unknown;
  exit(code?: number): never | void;
}

export interface ExitGuardOptions {
  proc?: GuardedProcess;
  stderr?: { write(data: string): unknown };
}

/**
 * Restores the terminal on process exit, on SIGINT / SIGTERM / SIGHUP (then exits 128 + signal), and
 * on an uncaught exception or unhandled rejection (prints it after restoring, exits 1). Returns a
 * function that removes the guards.
 */
export function installExitGuards(restore: () => void, opts: ExitGuardOptions = {}): () => void {
  const proc = opts.proc ?? (process as unknown as GuardedProcess);
  const stderr = opts.stderr ?? process.stderr;
  const safeRestore = (): void => {
    try {
      restore();
    } catch {
      // Restoring is best effort; the exit it guards must still happen.
    }
  };

  const onExit = (): void => safeRestore();
  const signalHandlers = GUARDED_SIGNALS.map((signal) => {
    const handler = (): void => {
      safeRestore();
      proc.exit(signalExitCode(signal)!);
    };
    return [signal, handler] as const;
  });
  const onFatal = (err: unknown): void => {
    safeRestore();
    stderr.write(`${formatError(err)}\n`);
    proc.exit(1);
  };

  proc.on('exit', onExit);
  for (const [signal, handler] of signalHandlers) proc.on(signal, handler);
  proc.on('uncaughtException', onFatal);
  proc.on('unhandledRejection', onFatal);

  return () => {
    proc.off('exit', onExit);
    for (const [signal, handler] of signalHandlers) proc.off(signal, handler);
    proc.off('uncaughtException', onFatal);
    proc.off('unhandledRejection', onFatal);
  };
}

function formatError(err: unknown): string {
  if (err instanceof Error) return err.stack ?? `${err.name}: ${err.message}`;
  return `Unhandled rejection: ${String(err)}`;
}
