/**
 * When the shell tool must ask before running a command (SPEC §7): `never` runs everything,
 * `on-request` asks every time, `untrusted` asks unless the command is known to be read-only.
 * A command accepted "for session" is not asked again when it starts with the same prefix.
 */
import type { ApprovalPolicy } from '../../protocol/api.js';

const READ_ONLY_PROGRAMS = new Set(['ls', 'cat', 'pwd', 'echo', 'rg', 'grep', 'head', 'tail', 'wc', 'true', 'which', 'stat', 'file']);
const READ_ONLY_GIT = new Set(['status', 'diff', 'log', 'show', 'branch']);
/** Shell syntax that can write, chain or substitute: such a command is never "read-only". */
const UNSAFE_SYNTAX = /[;&|<>`$()\n]/;

export function isReadOnlyCommand(command: string): boolean {
  const trimmed = command.trim();
  if (trimmed.length === 0 || UNSAFE_SYNTAX.test(trimmed)) return false;
  const words = trimmed.split(/\s+/);
  const program = words[0]!;
  if (program === 'git') return words[1] !== undefined && READ_ONLY_GIT.has(words[1]);
  if (program === 'rg' || program === 'grep') return !words.some((w) => w === '--pre' || w.startsWith('--pre='));
  return READ_ONLY_PROGRAMS.has(program);
}

/**
 * The part of a command an "accept for session" covers: the program and its first argument
 * (`git push`, `npm test`, `ls -la`), so `git push` approved does not approve `git reset`.
 */
export function commandPrefix(command: string): string {
  return command.trim().split(/\s+/).slice(0, 2).join(' ');
}

export function needsApproval(policy: ApprovalPolicy, command: string, sessionApprovedPrefixes: ReadonlySet<string>): boolean {
  if (policy === 'never') return false;
  if (sessionApprovedPrefixes.has(commandPrefix(command))) return false;
  if (policy === 'untrusted') return !isReadOnlyCommand(command);
  return true;
}
