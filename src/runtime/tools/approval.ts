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
/** Options that make a listed program write a file or run another program. */
const WRITING_OPTIONS = /^(--output|--ext-diff|--textconv|--pre\b|--pre=|-z$|--search-zip)/;
/** `git branch` only lists with no arguments or with these. */
const GIT_BRANCH_LISTING = new Set(['-a', '--all', '-r', '--remotes', '-v', '-vv', '--verbose', '--list', '--show-current']);

export function isReadOnlyCommand(command: string): boolean {
  const trimmed = command.trim();
  if (trimmed.length === 0 || UNSAFE_SYNTAX.test(trimmed)) return false;
  const words = trimmed.split(/\s+/);
  const program = words[0]!;
  if (words.some((w) => WRITING_OPTIONS.test(w))) return false;
  if (program === 'git') {
    const sub = words[1];
    if (sub === 'branch') return words.slice(2).every((w) => GIT_BRANCH_LISTING.has(w));
    return sub !== undefined && READ_ONLY_GIT.has(sub);
  }
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
