/**
 * bubblewrap's arguments for a sandboxed command (as Codex's bwrap pipeline, less `--new-session`:
 * the command is spawned detached, so it already has a session and no terminal of its own).
 */
import type { SandboxLayout } from './layout.js';

export interface BwrapOptions {
  networkAccess: boolean;
  /** The descriptor bwrap reads a seccomp program from (seccomp.ts), or none. */
  seccompFd: number | null;
}

export function bwrapArgs(layout: SandboxLayout, options: BwrapOptions, command: string[]): string[] {
  return [
    '--die-with-parent',
    // Run as root (containers), bwrap would keep every capability: the command could unmount the
    // read-only `.git` binds. Dropping them costs nothing otherwise.
    '--cap-drop',
    'ALL',
    // Mount order matters: a later mount covers an earlier one, so `.git` comes after its root.
    '--ro-bind',
    '/',
    '/',
    '--dev',
    '/dev',
    ...layout.writableRoots.flatMap(({ root }) => ['--bind', root, root]),
    ...layout.writableRoots.flatMap(({ readOnly }) => readOnly.flatMap((path) => ['--ro-bind', path, path])),
    // A PID namespace: killing bwrap's process group kills its init, and the kernel then kills
    // everything the command started, daemons included.
    '--unshare-pid',
    ...(options.networkAccess ? [] : ['--unshare-net']),
    ...(options.seccompFd !== null ? ['--seccomp', String(options.seccompFd)] : []),
    '--proc',
    '/proc',
    '--',
    ...command,
  ];
}
