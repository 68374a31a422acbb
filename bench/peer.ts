/**
 * The peers the TUI is measured against (bench/peers/*): other terminal chat clients from the npm
 * registry, each installed on first use into a cache folder outside the project (they are not
 * dependencies) and pointed at a local fake server for its own wire protocol.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { ScreenMatcher, StartOptions } from '../test/support/pty.js';

export interface PeerClient {
  label: string;
  /** Its empty composer: the first frame a person can type into. */
  ready: ScreenMatcher;
  options: StartOptions;
  /** What it shows for a 1 MiB one-line paste (default Tiller's and Codex's `[Pasted Content 1048576 chars]`). */
  pastePlaceholder?: string;
  /** On screen while a turn runs (default `esc to interrupt`, as Tiller and Codex show). */
  busy?: ScreenMatcher;
  /** Processes it left running outside its own process tree (Codex 0.171 starts a detached app-server daemon). */
  helperPids?(): number[];
  /** Stops those processes and its fake server at the end of the run and waits for them to go. */
  shutdown?(): Promise<void>;
  /** The fake server for its wire protocol it is pointed at from the start (Tiller gets one per measure). */
  modelServer?: FakeModelServer;
  /**
   * The same client opening a recorded session of `turns` finished turns, written in its own format
   * (`Question number n` / `Answer number n: …`, as TILLER_BENCH_PREFILL puts on Tiller's screen).
   */
  withTranscript?(turns: number): Promise<PeerClient>;
}

/** A fake model API on 127.0.0.1 streaming scripted answers; unscripted requests get a short `ok`. */
export interface FakeModelServer {
  /** What the client is pointed at (its base-URL setting). */
  readonly baseUrl: string;
  /** The next answer, streamed as these text deltas. */
  enqueue(script: { deltas: string[] }): void;
  close(): Promise<void>;
}

/** A peer that could not be set up, and why (printed as '-' rows). */
export interface MissingPeer {
  label: string;
  reason: string;
}

/** The text of one prefilled turn, the same on every client's screen. */
export const transcriptTurn = (n: number): { question: string; answer: string } => ({
  question: `Question number ${n}`,
  answer: `Answer number ${n}: **done**, with \`code\` and a list:\n\n- one\n- two`,
});

/**
 * `packages` installed from the npm registry into the bench cache folder `name` (once; later runs
 * reuse it); resolves with that folder, or null when the install fails (no network, say).
 */
export async function installed(name: string, packages: string[], check: string): Promise<string | null> {
  const dir = join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'tiller-bench', name);
  if (existsSync(join(dir, check))) return dir;
  mkdirSync(dir, { recursive: true });
  try {
    await promisify(execFile)('npm', ['install', '--no-audit', '--no-fund', '--prefix', dir, ...packages], { timeout: 600_000 });
  } catch {
    return null;
  }
  return existsSync(join(dir, check)) ? dir : null;
}

/** Resolves with stdout, or null when the program fails (a native binary that cannot run here). */
export async function runs(
  file: string,
  args: string[],
  options: { env?: Record<string, string>; cwd?: string } = {},
): Promise<string | null> {
  try {
    const env = { ...process.env, ...options.env };
    return (await promisify(execFile)(file, args, { env, cwd: options.cwd, timeout: 120_000, maxBuffer: 64 << 20 })).stdout;
  } catch {
    return null;
  }
}

/**
 * The first of `paths` whose `--version` names `version`: a package whose postinstall copies its
 * platform's native binary over a stub bin (Claude Code, OpenCode) still works where npm runs no
 * scripts, through the platform package's own copy. `env` holds a throw-away HOME: even `--version`
 * makes folders there.
 */
export async function workingBinary(paths: string[], version: string, env: Record<string, string>): Promise<string | null> {
  for (const path of paths) if ((await runs(path, ['--version'], { env }))?.includes(version)) return path;
  return null;
}

/** Processes whose command line names `marker` (a throw-away home folder). */
export function processesNaming(marker: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(marker)) pids.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return pids;
}

/** SIGTERM to every process naming `marker`, SIGKILL to those left after 3 s. */
export async function stopProcessesNaming(marker: string): Promise<void> {
  const signal = (sig: NodeJS.Signals): void => {
    for (const pid of processesNaming(marker)) {
      try {
        process.kill(pid, sig);
      } catch {
        // Already gone.
      }
    }
  };
  signal('SIGTERM');
  for (let i = 0; i < 30 && processesNaming(marker).length > 0; i++) await new Promise((r) => setTimeout(r, 100));
  signal('SIGKILL');
}
