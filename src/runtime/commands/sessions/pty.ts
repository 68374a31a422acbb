/**
 * Starts a spawn target in a pseudo-terminal of 80×24 (Codex's size). node-pty is native, so it is
 * loaded only when a command first asks for a tty, and never bundled (scripts/build.mjs). node-pty
 * cannot hand the child an extra descriptor, so bwrap's seccomp program goes through a file in a
 * private directory, opened as descriptor 3 by a bash prelude that removes it before bwrap runs.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IPty } from '@lydell/node-pty';
import { SECCOMP_FD, type SpawnTarget } from '../../sandbox/sandbox.js';

export const PTY_COLS = 80;
export const PTY_ROWS = 24;

type NodePty = typeof import('@lydell/node-pty');
let loaded: Promise<NodePty> | undefined;

function nodePty(): Promise<NodePty> {
  loaded ??= import('@lydell/node-pty');
  return loaded;
}

const SECCOMP_PRELUDE = `exec ${SECCOMP_FD}<"$1" && rm -rf -- "\${1%/*}" && shift && exec "$@"`;

export async function spawnInPty(target: SpawnTarget, options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<IPty> {
  const pty = await nodePty();
  let file = target.file;
  let args = target.args;
  let dir: string | null = null;
  if (target.seccomp !== undefined) {
    dir = mkdtempSync(join(tmpdir(), 'tiller-seccomp-'));
    const program = join(dir, 'filter.bpf');
    writeFileSync(program, target.seccomp, { mode: 0o600 });
    args = ['-c', SECCOMP_PRELUDE, 'tiller-seccomp', program, file, ...args];
    file = '/bin/bash';
  }
  // The prelude removes the file once open; should it never run, the exit (or a failed start) does.
  const cleanup = (): void => {
    if (dir !== null) rmSync(dir, { recursive: true, force: true });
  };
  try {
    const child = pty.spawn(file, args, {
      name: options.env.TERM ?? 'dumb',
      cols: PTY_COLS,
      rows: PTY_ROWS,
      cwd: options.cwd,
      env: options.env,
    });
    child.onExit(cleanup);
    return child;
  } catch (error) {
    cleanup();
    throw error;
  }
}
