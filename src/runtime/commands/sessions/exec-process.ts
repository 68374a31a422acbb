/**
 * A session's process: the command line run with the given shell, in a pseudo-terminal when `tty`
 * (node-pty, loaded on first use: it is native), in pipes with no stdin otherwise (as Codex). Both
 * go through the same sandbox as every model command (bwrap or Seatbelt, the seccomp filter,
 * descriptors above 2 closed, the environment already filtered by the caller), lead their own
 * process group, and are tracked so they end with Tiller at the latest.
 */
import { spawn } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';
import { signalExitCode } from '../../../process-io.js';
import { withOnlyStdio } from '../../sandbox/close-descriptors.js';
import { feedSeccomp, type SpawnTarget, sandboxedSpawn } from '../../sandbox/sandbox.js';
import { killProcessGroup, trackProcessGroup } from '../process-groups.js';
import type { ShellSandbox } from '../run.js';
import { ProcessOutput } from './process-output.js';
import { spawnInPty } from './pty.js';

export interface ExecSpawnOptions {
  argv: readonly string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  tty: boolean;
  /** Absent (or danger-full-access): unsandboxed. */
  sandbox?: ShellSandbox | undefined;
}

export interface ExecProcess {
  readonly pid: number;
  readonly tty: boolean;
  readonly sandboxed: boolean;
  readonly output: ProcessOutput;
  /** Writes to the terminal (tty sessions only: a piped one has no stdin). */
  write(text: string): void;
  /** Kills the whole process group. */
  terminate(): void;
}

/** After a pty's exit: how long its output must be quiet before the exit is reported, and the most it waits. */
const PTY_QUIET_MS = 20;
const PTY_SETTLE_MAX_MS = 250;
/** How long output may still arrive after a piped command exited (a background child holds the pipes). */
const PIPE_DRAIN_MS = 2000;

/** Throws when the process cannot be started (a missing shell, no pty support). */
export async function spawnExecProcess(options: ExecSpawnOptions): Promise<ExecProcess> {
  const sandbox = options.sandbox?.policy.mode === 'danger-full-access' ? undefined : options.sandbox;
  const [file, ...args] = withOnlyStdio(options.argv);
  const command = { file: file!, args };
  const target: SpawnTarget = sandbox
    ? sandboxedSpawn(sandbox.policy, { ...command, cwd: options.cwd, tmpdir: options.env.TMPDIR, launcher: sandbox.launcher })
    : command;
  const output = new ProcessOutput();
  const base = { tty: options.tty, sandboxed: sandbox !== undefined, output };
  if (options.tty) {
    const pty = await spawnInPty(target, { cwd: options.cwd, env: options.env });
    const untrack = trackProcessGroup(pty.pid);
    let lastDataAt = Date.now();
    pty.onData((text) => {
      lastDataAt = Date.now();
      output.push(Buffer.from(text, 'utf8'), text);
    });
    // node-pty can report the exit before the terminal's last output is read (seen under load: an
    // `echo` just before exit went missing), so the exit waits until the output has been quiet a moment.
    pty.onExit(({ exitCode, signal }) => {
      untrack();
      const exitedAt = Date.now();
      const settle = (): void => {
        const now = Date.now();
        if (now - lastDataAt < PTY_QUIET_MS && now - exitedAt < PTY_SETTLE_MAX_MS) {
          setTimeout(settle, PTY_QUIET_MS).unref();
          return;
        }
        output.exit(signal ? 128 + signal : exitCode);
        output.close();
      };
      setTimeout(settle, PTY_QUIET_MS).unref();
    });
    return { ...base, pid: pty.pid, write: (text) => pty.write(text), terminate: () => killProcessGroup(pty.pid) };
  }
  return spawnPiped(target, options, output, base);
}

function spawnPiped(
  target: SpawnTarget,
  options: ExecSpawnOptions,
  output: ProcessOutput,
  base: { tty: boolean; sandboxed: boolean; output: ProcessOutput },
): Promise<ExecProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(target.file, target.args, {
      cwd: options.cwd,
      env: options.env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe', ...(target.seccomp ? (['pipe'] as const) : [])],
    });
    child.once('error', (error) => reject(error));
    child.once('spawn', () => {
      const pid = child.pid!;
      const untrack = trackProcessGroup(pid);
      feedSeccomp(child, target);
      for (const stream of [child.stdout!, child.stderr!]) {
        // One decoder per stream: a character split across two reads is delivered whole.
        const decoder = new StringDecoder('utf8');
        stream.on('data', (data: Buffer) => output.push(data, decoder.write(data)));
      }
      let drain: NodeJS.Timeout | undefined;
      child.on('exit', (code, signal) => {
        output.exit(code ?? (signal ? (signalExitCode(signal) ?? 128) : null));
        drain = setTimeout(() => {
          child.stdout?.destroy();
          child.stderr?.destroy();
          output.close();
        }, PIPE_DRAIN_MS);
      });
      child.on('close', () => {
        clearTimeout(drain);
        untrack();
        output.close();
      });
      resolve({ ...base, pid, write: () => undefined, terminate: () => killProcessGroup(pid) });
    });
  });
}
