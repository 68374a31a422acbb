/**
 * When the shell tool must ask before running a command (docs/codex-parity.md#approval-policies), decided on the parsed script
 * (parse.ts), never on its text:
 * - `never` never asks;
 * - `untrusted` asks unless every command is known to be read-only;
 * - `on-request` runs without asking when a sandbox is in force for the command, and otherwise
 *   asks before every command.
 * In `untrusted` and `on-request` a command the user accepted "for this session" is not asked
 * again, and anything the parser cannot classify asks. A read-only git command counts as read-only
 * only where the repository's config names no program for it to run (protocol/git-safety.ts), and
 * not after a `cd` (whose repository was not looked at).
 */
import type { ApprovalPolicy } from '../../protocol/api.js';
import { type GitConfigEntry, repositoryProgramKeys } from '../../protocol/git-safety.js';
import { parseShellCommand, type Connector, type ParsedScript, type RedirectKind, type SimpleCommand } from './parse.js';

/** The argv of each command accepted "for this session"; the same command, word for word, is approved. */
export type SessionApprovals = readonly (readonly string[])[];

/**
 * Whether `args` hold one of these options: a long one also as a GNU-style abbreviation (`--out`
 * for `--output`), a short one also inside a cluster (`-nC`). Erring towards "yes" only asks more.
 */
function hasOption(args: readonly string[], long: readonly string[], short = ''): boolean {
  return args.some((arg) => {
    if (arg.startsWith('--')) {
      const name = arg.split('=', 1)[0]!;
      return name.length > 2 && long.some((option) => option.startsWith(name));
    }
    return arg.startsWith('-') && [...arg.slice(1)].some((letter) => short.includes(letter));
  });
}

/** Operands (not options, nor the values of `takesValue` options) in `args`. */
function operandCount(args: readonly string[], takesValue: ReadonlySet<string>): number {
  let count = 0;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') return count + args.length - i - 1;
    if (arg === '-' || !arg.startsWith('-')) count++;
    else if (takesValue.has(arg)) i++;
  }
  return count;
}

type ArgsCheck = (args: readonly string[]) => boolean;
const anyArgs: ArgsCheck = () => true;

/** `find` primaries that run programs, delete, or write files. */
const FIND_UNSAFE = new Set(['-exec', '-execdir', '-ok', '-okdir', '-delete', '-fls', '-fprint', '-fprint0', '-fprintf']);
const GIT_READ_ONLY = new Set(['status', 'log', 'diff', 'show', 'rev-parse', 'ls-files', 'blame', 'grep']);
/** `git branch` only lists with no arguments or with these. */
const GIT_BRANCH_LISTING = new Set(['-a', '--all', '-r', '--remotes', '-v', '-vv', '--verbose', '--list', '--show-current']);
const UNIQ_VALUE_OPTIONS = new Set(['-f', '-s', '-w', '--skip-fields', '--skip-chars', '--check-chars']);
/** `sed -n 5p` / `sed -n 1,20p`: prints lines, cannot write (no `w`, no `-i`). */
const SED_PRINT_RANGE = /^(\d+,)?\d+p$/;

function isReadOnlyGit(args: readonly string[]): boolean {
  // Options before the subcommand (`-c`, `-C`, `--git-dir`, `--exec-path`, …) can run programs
  // or point git elsewhere; `--no-pager` only turns the pager off.
  const [sub, ...rest] = args[0] === '--no-pager' ? args.slice(1) : args;
  if (sub === 'branch') return rest.every((arg) => GIT_BRANCH_LISTING.has(arg));
  if (sub === undefined || !GIT_READ_ONLY.has(sub)) return false;
  // These write a file or run a configured program; `git grep -O` runs a pager on the matches.
  return !hasOption(rest, ['--output', '--ext-diff', '--textconv', '--open-files-in-pager'], sub === 'grep' ? 'O' : '');
}

/** Programs that only read, each with a check of its arguments (after the program name). */
const READ_ONLY: ReadonlyMap<string, ArgsCheck> = new Map<string, ArgsCheck>([
  ...['ls', 'cat', 'head', 'tail', 'wc', 'pwd', 'echo', 'true', 'false', 'which', 'stat', 'cut', 'tr', 'nl'].map(
    (p) => [p, anyArgs] as const,
  ),
  ...['basename', 'dirname', 'realpath', 'printenv', 'id', 'whoami', 'uname', 'diff', 'du', 'df', 'grep', 'cd'].map(
    (p) => [p, anyArgs] as const,
  ),
  ['file', (args) => !hasOption(args, ['--compile'], 'C')], // -C writes a compiled magic file
  ['rg', (args) => !hasOption(args, ['--pre', '--pre-glob', '--hostname-bin', '--search-zip'], 'z')], // these run programs
  ['find', (args) => !args.some((arg) => FIND_UNSAFE.has(arg))],
  ['sed', (args) => args[0] === '-n' && SED_PRINT_RANGE.test(args[1] ?? '') && args.slice(2).every((arg) => !arg.startsWith('-'))],
  ['sort', (args) => !hasOption(args, ['--output', '--compress-program'], 'o')],
  ['uniq', (args) => operandCount(args, UNIQ_VALUE_OPTIONS) <= 1], // a second operand is the output file
  ['date', (args) => !hasOption(args, ['--set'], 's')],
  ['tree', (args) => !hasOption(args, ['--output'], 'oR')], // -o writes the listing; -R writes one per directory
  ['env', (args) => args.length === 0], // `env CMD` runs CMD
  ['git', isReadOnlyGit],
]);

/** Joins that only sequence or pipe commands (`&` is refused by the parser as a background job). */
const SAFE_CONNECTORS: ReadonlySet<Connector> = new Set(['&&', '||', ';', '|', '|&', '\n']);
/** No file is opened by name; `< file` is refused too: bash opens /dev/tcp/… names as network connections. */
const READ_ONLY_REDIRECTS: ReadonlySet<RedirectKind> = new Set(['fd', 'discard', 'heredoc', 'herestring']);
const GLOB_CHAR = /[*?[]/;

/**
 * Whether every name a glob (or `~`) word may become keeps the meaning it has as written: its
 * literal start is not itself a pattern, nor an option (`-*` may become `-ofile`), unless a
 * `--name=` fixes which option it is. A file called `-delete` must not turn into an option.
 */
function keepsItsMeaning(word: string): boolean {
  const firstGlob = word.search(GLOB_CHAR);
  const literal = firstGlob === -1 ? word : word.slice(0, firstGlob);
  if (literal.length === 0) return false;
  return !literal.startsWith('-') || (literal.startsWith('--') && literal.includes('='));
}

function isReadOnlySimpleCommand(cmd: SimpleCommand): boolean {
  const [program, ...args] = cmd.argv;
  const check = program === undefined ? undefined : READ_ONLY.get(program);
  if (check === undefined) return false;
  // Environment variables change what programs do (PATH, LD_PRELOAD, GIT_EXTERNAL_DIFF, PAGER…).
  if (cmd.envAssignments.length > 0) return false;
  if (!cmd.redirects.every((r) => READ_ONLY_REDIRECTS.has(r.kind))) return false;
  if (!cmd.expands.every((i) => keepsItsMeaning(cmd.argv[i]!))) return false;
  return check(args);
}

/**
 * Codex's "known safe": the script is one or more commands, joined only by `&&`, `||`, `;`, `|`
 * or line breaks, each a read-only program with read-only arguments, writing no file.
 */
export function isKnownSafeCommand(parsed: ParsedScript): boolean {
  if (parsed.kind !== 'commands' || parsed.commands.length === 0) return false;
  return parsed.connectors.every((c) => SAFE_CONNECTORS.has(c)) && parsed.commands.every(isReadOnlySimpleCommand);
}

/**
 * The script as one plain command: no connectors or pipes, no environment assignments, no
 * redirection other than descriptor duplication or /dev/null. Substitutions and expansions (in
 * the program name or anywhere) were already turned into `unknown` by the parser.
 */
function plainCommand(parsed: ParsedScript): SimpleCommand | null {
  if (parsed.kind !== 'commands' || parsed.commands.length !== 1) return null;
  const cmd = parsed.commands[0]!;
  if (cmd.envAssignments.length > 0) return null;
  return cmd.redirects.every((r) => r.kind === 'fd' || r.kind === 'discard') ? cmd : null;
}

/**
 * What an "accept for this session" stores: the exact argv of the command. Null when the script
 * is not one plain command (or has globs or `~`, whose words depend on the files): then the
 * acceptance covers only this one run.
 */
export function approvalRuleFor(parsed: ParsedScript): string[] | null {
  const cmd = plainCommand(parsed);
  return cmd !== null && cmd.expands.length === 0 ? [...cmd.argv] : null;
}

/**
 * One plain command whose argv is an accepted argv, word for word (no glob or `~` in it). Exact,
 * not a prefix: accepting `rm -rf build` must not accept `rm -rf build /`.
 */
export function isSessionApproved(parsed: ParsedScript, approvals: SessionApprovals): boolean {
  const cmd = plainCommand(parsed);
  if (cmd === null || cmd.expands.length > 0) return false;
  return approvals.some((rule) => rule.length === cmd.argv.length && rule.every((word, i) => cmd.argv[i] === word));
}

export interface ApprovalContext {
  policy: ApprovalPolicy;
  /** A sandbox is in force for this command. */
  sandboxed: boolean;
  sessionApprovals: SessionApprovals;
}

/** Whether the answer depends on the command at all (else it need not be parsed). */
function judgesCommand({ policy, sandboxed }: ApprovalContext): boolean {
  return policy === 'untrusted' || (policy === 'on-request' && !sandboxed);
}

export function needsApproval(context: ApprovalContext & { parsed: ParsedScript }): boolean {
  if (!judgesCommand(context)) return false;
  if (isSessionApproved(context.parsed, context.sessionApprovals)) return false;
  return context.policy === 'on-request' || !isKnownSafeCommand(context.parsed);
}

/** Whether a known-safe script runs git (so its repository's config decides). */
export function runsGit(parsed: ParsedScript): boolean {
  return parsed.kind === 'commands' && parsed.commands.some((cmd) => cmd.argv[0] === 'git');
}

/**
 * needsApproval on a command line; parses (loading the parser) only when the policy looks at the
 * command. With `cwd`, a script that runs git is read-only only where the repository's config
 * (read by `readGitConfig`) names no program and no `cd` moved it elsewhere.
 */
export async function commandNeedsApproval(
  context: ApprovalContext & {
    command: string;
    cwd?: string;
    readGitConfig?: (cwd: string) => Promise<readonly GitConfigEntry[] | null>;
  },
): Promise<boolean> {
  if (!judgesCommand(context)) return false;
  const parsed = await parseShellCommand(context.command);
  if (needsApproval({ ...context, parsed })) return true;
  if (context.cwd === undefined || context.readGitConfig === undefined || !runsGit(parsed) || context.policy !== 'untrusted') return false;
  if (isSessionApproved(parsed, context.sessionApprovals)) return false;
  if (parsed.kind === 'commands' && parsed.commands.some((cmd) => cmd.argv[0] === 'cd')) return true;
  const entries = await context.readGitConfig(context.cwd);
  return entries === null || repositoryProgramKeys(entries).length > 0;
}
