/**
 * A command starts with only stdin, stdout and stderr. Descriptors Tiller inherited without
 * close-on-exec (a shell's `exec 200>file`, a parent's socket) would otherwise reach every command
 * it runs, sandboxed or not, and let it write where the sandbox forbids. As Codex closes every
 * descriptor above 2 before exec, a short bash prelude closes them, then execs the command.
 */
import { accessSync, constants } from 'node:fs';

const PRELUDE =
  'for p in /dev/fd/*; do n=${p##*/}; case $n in *[!0-9]*) continue ;; esac; [ "$n" -gt 2 ] && eval "exec $n>&-"; done; exec "$@"';

let bash: string | null | undefined;

function findBash(): string | null {
  for (const candidate of ['/bin/bash', '/usr/bin/bash']) {
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Next.
    }
  }
  return null;
}

/**
 * `command` run through the prelude. Without a bash (dash cannot name descriptors past 9) the
 * command is returned as it is.
 */
export function withOnlyStdio(command: readonly string[]): string[] {
  bash ??= findBash();
  return bash === null ? [...command] : [bash, '-c', PRELUDE, 'tiller-exec', ...command];
}
