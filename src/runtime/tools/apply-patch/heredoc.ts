/**
 * A shell command that is an apply_patch invocation, as Codex recognises one: `apply_patch` (or
 * `applypatch`) fed a heredoc, optionally after `cd <dir> &&`, and nothing else in the script.
 * Such a command is applied by the apply_patch code, not run (tools/shell, exec_command).
 */

export interface ShellPatch {
  patch: string;
  /** The `cd` directory, as written (relative to the command's cwd). */
  workdir: string | null;
}

// `cd <dir> && ` (a bare word or a quoted path), then the command, then `<<DELIM` (quoted or not).
const INVOCATION =
  /^\s*(?:cd\s+(?:'([^']*)'|"([^"\\$`]*)"|([^\s'"`$;&|<>()\\]+))\s*&&\s*)?(?:apply_patch|applypatch)\s*<<-?\s*(?:'([A-Za-z_][\w-]*)'|"([A-Za-z_][\w-]*)"|([A-Za-z_][\w-]*))[ \t]*\n/;

/** The patch a shell command applies, or null when the command is anything else. */
export function shellApplyPatch(command: string): ShellPatch | null {
  const head = INVOCATION.exec(command);
  if (head === null) return null;
  const delimiter = head[4] ?? head[5] ?? head[6]!;
  const rest = command.slice(head[0].length);
  const lines = rest.split('\n');
  // The body ends at the delimiter's line; only blank space may follow it.
  const end = lines.findIndex((line) => line.replace(/^\t+/, '').trimEnd() === delimiter);
  if (end === -1) return null;
  if (lines.slice(end + 1).some((line) => line.trim() !== '')) return null;
  return { patch: lines.slice(0, end).join('\n'), workdir: head[1] ?? head[2] ?? head[3] ?? null };
}
