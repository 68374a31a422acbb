/**
 * A command's argv as one line, the way Codex shows an exec_command (`/bin/bash -lc 'ls -la'`):
 * each word quoted for a POSIX shell only when it needs it. The TUI shows the script itself, as
 * Codex's does: `displayCommand` takes the `<shell> -lc '<script>'` wrapper off again.
 */
const PLAIN_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/;

export function shellQuote(word: string): string {
  if (PLAIN_WORD.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

export function shlexJoin(argv: readonly string[]): string {
  return argv.map(shellQuote).join(' ');
}

const SHELLS = new Set(['bash', 'zsh', 'sh', 'dash', 'ksh', 'fish']);
const WRAPPED = /^(\S+) -l?c (?:'((?:[^']|'\\'')*)'|([A-Za-z0-9_@%+=:,./-]+))$/;

/** The script of a `<shell> -c|-lc '<script>'` line; any other line as it is. */
export function displayCommand(command: string): string {
  const match = WRAPPED.exec(command);
  if (match === null) return command;
  const shell = match[1]!.split('/').pop()!;
  if (!SHELLS.has(shell)) return command;
  return match[3] ?? match[2]!.replace(/'\\''/g, "'");
}
