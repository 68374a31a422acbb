/**
 * Runs a command line with the user's shell in the working directory (in the sandbox when given
 * one), streams its output, caps what is kept, and kills the whole process group on abort or
 * timeout. Shared by the model's `shell` tool and the user's `!` commands.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { signalExitCode } from '../../process-io.js';
import { setLongTimeout } from '../../protocol/long-timer.js';
import { HeadTailBuffer } from './output-cap.js';
import { killProcessGroup as killGroup, trackProcessGroup } from './process-groups.js';
import { withOnlyStdio } from '../sandbox/close-descriptors.js';
import { feedSeccomp, type ResolvedSandbox, type SandboxLauncher, type SpawnTarget, sandboxedSpawn } from '../sandbox/sandbox.js';

export function userShell(env: NodeJS.ProcessEnv = process.env): { file: string; args: (command: string) => string[] } {
  const shell = env.SHELL;
  if (shell && shell.length > 0 && existsSync(shell)) return { file: shell, args: (command) => ['-lc', command] };
  return { file: '/bin/sh', args: (command) => ['-c', command] };
}

/**
 * The sandbox a command runs in: the policy and the launcher `sandboxAvailability()` found (the
 * caller decides what to do when there is none).
 */
export interface ShellSandbox {
  policy: ResolvedSandbox;
  launcher: SandboxLauncher;
}

export interface ShellRunOptions {
  command: string;
  cwd: string;
  timeoutMs?: number | null;
  signal: AbortSignal;
  onOutput?: (chunk: string) => void;
  /** Called once the process exists, with its pid (the process group id too). */
  onSpawn?: (pid: number) => void;
  env?: NodeJS.ProcessEnv;
  headBytes?: number;
  tailBytes?: number;
  /** How long output may still arrive after the command exited; default OUTPUT_DRAIN_MS. */
  drainMs?: number;
  /** Absent (or danger-full-access): the command runs unsandboxed. */
  sandbox?: ShellSandbox;
}

/**
 * After the command exits, its output is read for at most this long (as Codex's IO drain
 * timeout): a process it started in the background may hold the pipes open for hours.
 */
export const OUTPUT_DRAIN_MS = 2000;

export interface ShellRunResult {
  exitCode: number | null;
  /** Output kept after capping (stdout and stderr interleaved as they arrived). */
  output: string;
  totalBytes: number;
  timedOut: boolean;
  aborted: boolean;
  durationMs: number;
  spawnError: string | null;
  /** Whether it ran inside the sandbox. */
  sandboxed: boolean;
}

export const DEFAULT_SHELL_TIMEOUT_MS = 10 * 60 * 1000;

export function runShellCommand(options: ShellRunOptions): Promise<ShellRunResult> {
  const started = Date.now();
  const shell = userShell(options.env);
  const env = options.env ?? process.env;
  const sandbox = options.sandbox?.policy.mode === 'danger-full-access' ? undefined : options.sandbox;
  const [file, ...args] = withOnlyStdio([shell.file, ...shell.args(options.command)]);
  const command = { file: file!, args };
  // The temp dir made writable is the one the command's tools will use: its own $TMPDIR.
  const target: SpawnTarget = sandbox
    ? sandboxedSpawn(sandbox.policy, { ...command, cwd: options.cwd, tmpdir: env.TMPDIR, launcher: sandbox.launcher })
    : command;
  const buffer = new HeadTailBuffer(options.headBytes, options.tailBytes);
  return new Promise((resolve) => {
    let timedOut = false;
    let aborted = false;
    let settled = false;
    // Detached: the command leads its own process group, so an abort kills its children too.
    const child = spawn(target.file, target.args, {
      cwd: options.cwd,
      env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe', ...(target.seccomp ? (['pipe'] as const) : [])],
    });
    feedSeccomp(child, target);
    const stdout = child.stdout!;
    const stderr = child.stderr!;
    const untrack = child.pid !== undefined ? trackProcessGroup(child.pid) : () => undefined;
    let drainTimer: NodeJS.Timeout | undefined;
    let leftovers = false;
    const finish = (exitCode: number | null, spawnError: string | null): void => {
      if (settled) return;
      settled = true;
      timer.clear();
      clearTimeout(drainTimer);
      options.signal.removeEventListener('abort', onAbort);
      resolve({
        exitCode,
        output: buffer.toString(),
        totalBytes: buffer.totalBytes,
        timedOut,
        aborted,
        durationMs: Date.now() - started,
        spawnError,
        sandboxed: sandbox !== undefined,
      });
    };
    const onAbort = (): void => {
      aborted = true;
      if (child.pid !== undefined) killGroup(child.pid);
    };
    const timeoutMs = options.timeoutMs ?? DEFAULT_SHELL_TIMEOUT_MS;
    const timer = setLongTimeout(() => {
      timedOut = true;
      if (child.pid !== undefined) killGroup(child.pid);
    }, timeoutMs);
    if (options.signal.aborted) onAbort();
    else options.signal.addEventListener('abort', onAbort, { once: true });
    if (child.pid !== undefined) options.onSpawn?.(child.pid);
    // One decoder per stream: a character split across two reads is delivered whole.
    const forward =
      (decoder: StringDecoder) =>
      (data: Buffer): void => {
        buffer.push(data);
        const text = decoder.write(data);
        if (text.length > 0) options.onOutput?.(text);
      };
    stdout.on('data', forward(new StringDecoder('utf8')));
    stderr.on('data', forward(new StringDecoder('utf8')));
    const exitCodeOf = (code: number | null, signal: NodeJS.Signals | null): number | null =>
      code ?? (signal ? (signalExitCode(signal) ?? 128) : null);
    child.on('error', (error) => {
      untrack();
      finish(null, error.message);
    });
    child.on('exit', (code, signal) => {
      drainTimer = setTimeout(() => {
        // Background processes still hold the pipes: stop reading. They stay tracked, so they
        // end with Tiller at the latest (or now, if the command was aborted).
        if ((aborted || timedOut) && child.pid !== undefined) killGroup(child.pid);
        leftovers = !aborted && !timedOut;
        stdout.destroy();
        stderr.destroy();
        finish(exitCodeOf(code, signal), null);
      }, options.drainMs ?? OUTPUT_DRAIN_MS);
    });
    child.on('close', (code, signal) => {
      // The group may still hold children that closed our pipes' copies; make sure they go too.
      if (aborted || timedOut) {
        if (child.pid !== undefined) killGroup(child.pid);
      }
      if (!leftovers) untrack();
      finish(exitCodeOf(code, signal), null);
    });
  });
}
