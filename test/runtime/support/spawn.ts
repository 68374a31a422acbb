/** Runs the real `bin/tiller` as a child process (the bundle is rebuilt by vitest globalSetup). */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { tempDir } from './harness.js';

export const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

export function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    SHELL: '/bin/sh',
    TILLER_HOME: tempDir('tiller-home-'),
    ...extra,
  };
  return env;
}

/** childEnv pointing the model client at the fake Responses server. */
export function fakeServerEnv(fake: { baseUrl: string }, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return childEnv({ OPENAI_BASE_URL: fake.baseUrl, OPENAI_API_KEY: 'dummy', ...extra });
}

/**
 * Runs a support script under tsx (`test/runtime/support/<name>.ts`) to its exit, which must be 0,
 * and resolves with the JSON it printed on stdout.
 */
export async function runSupportScript<T>(name: string, args: string[] = []): Promise<T> {
  const child = spawn(process.execPath, ['--import', 'tsx', `test/runtime/support/${name}.ts`, ...args], {
    cwd: ROOT,
    env: childEnv(),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  const code = await new Promise((resolve) => child.on('close', resolve));
  if (code !== 0) throw new Error(`${name}.ts exited with ${String(code)}`);
  return JSON.parse(out.trim()) as T;
}

/** The JSONL events `tiller exec --json` printed. */
export function jsonEvents(lines: string[]): Array<{ type: string; [k: string]: unknown }> {
  return lines.filter((l) => l.length > 0).map((l) => JSON.parse(l) as { type: string; [k: string]: unknown });
}

export interface Child {
  proc: ChildProcessWithoutNullStreams;
  lines: string[];
  stderr: () => string;
  /** Resolves with the first stdout line matching. */
  waitForLine(test: (line: string) => boolean, timeoutMs?: number): Promise<string>;
  exit: Promise<number | null>;
}

export function spawnTiller(args: string[], env: NodeJS.ProcessEnv, cwd: string = ROOT): Child {
  const proc = spawn(process.execPath, [`${ROOT}/bin/tiller`, ...args], { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
  const lines: string[] = [];
  let err = '';
  let partial = '';
  const waiters: Array<{ test: (l: string) => boolean; resolve: (l: string) => void }> = [];
  proc.stdout.setEncoding('utf8');
  proc.stdout.on('data', (chunk: string) => {
    partial += chunk;
    const parts = partial.split('\n');
    partial = parts.pop()!;
    for (const line of parts) {
      lines.push(line);
      for (const w of [...waiters]) {
        if (w.test(line)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(line);
        }
      }
    }
  });
  proc.stderr.setEncoding('utf8');
  proc.stderr.on('data', (c: string) => (err += c));
  const exit = new Promise<number | null>((resolve) => proc.on('close', (code) => resolve(code)));
  return {
    proc,
    lines,
    stderr: () => err,
    exit,
    waitForLine(test, timeoutMs = 10_000) {
      const seen = lines.find(test);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`no matching line; stdout so far:\n${lines.join('\n')}\nstderr:\n${err}`)),
          timeoutMs,
        );
        waiters.push({
          test,
          resolve: (l) => {
            clearTimeout(timer);
            resolve(l);
          },
        });
      });
    },
  };
}

/**
 * Runs `tiller exec --json --skip-git-repo-check ARGS` with descriptor 200 open (append) on `file`,
 * as a parent process could leave one; resolves with the exit code and the JSONL events.
 */
export async function execHoldingFd200(
  file: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; events: Array<{ type: string; [k: string]: unknown }> }> {
  const argv = ['-c', 'exec 200>>"$1"; shift; exec "$@"', 'bash', file, process.execPath, `${ROOT}/bin/tiller`];
  const child = spawn('/bin/bash', [...argv, 'exec', '--json', '--skip-git-repo-check', ...args], {
    cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { code, events: jsonEvents(out.split('\n')) };
}
