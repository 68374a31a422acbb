/**
 * Tiller's command line, parsed in one place (`node:util` parseArgs) for the entry point, the TUI
 * and `tiller exec`. Light on purpose: cli.ts loads it before any command's chunk, so `--help`, a
 * usage error or a bad `-C` never pay for Ink, sharp or openai. It sits in the runtime, beside the
 * config whose overrides it fills, so `tiller exec` takes it from its own layer and the TUI from the
 * layer below, never from the entry point above both.
 *
 * Flags are read in order, so a later one wins (`--full-auto -a untrusted`); `--flag=value` and
 * `--flag value` both work, as do `-mVALUE` and `-m VALUE`; `--` ends the options. Path arguments
 * (`--add-dir`, `-i`, `--output-schema`, `-o`) are relative to the directory tiller was started in, before any `-C`.
 */
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { APPROVAL_POLICIES, type ApprovalPolicy, SANDBOX_MODES, type SandboxMode } from '../protocol/api.js';
import type { ConfigOverrides } from './config.js';
import { TILLER_VERSION } from '../version.js';

/** The words that name a command when they come first; any other first word is the TUI's prompt. */
export const COMMANDS = ['exec', 'resume', 'review', 'app-server', 'inspect', 'diff', 'help'] as const;

export const TILLER_USAGE = `Tiller ${TILLER_VERSION} — a terminal chat client for developers

Usage:
  tiller [OPTIONS] [PROMPT]               the interactive terminal UI; PROMPT is sent as the first message
  tiller resume [OPTIONS] [ID] [PROMPT]   resume a saved session in the UI: ID (or a /rename NAME), else choose one in a picker
  tiller resume --last [OPTIONS] [PROMPT] resume the latest session of this directory
  tiller exec [--json] [OPTIONS] [PROMPT] one turn without a UI (no PROMPT or "-": read stdin; PROMPT and
                                          piped stdin: the prompt, then stdin as context)
  tiller review [--uncommitted | --base BRANCH | --commit SHA] [--title T] [--json] [PROMPT|-]
                                          review changes without a UI: findings on stdout, as codex review
  tiller app-server                       the runtime over stdio (JSON-RPC 2.0, one message per line)
  tiller inspect [--report] [FILE]        print the Responses input for UserInput[] JSON (stdin or FILE)
  tiller diff --turn N [--session ID]     print the patch of one turn (for git apply)
  tiller help | --help | --version

Options (the UI and exec):
  -c, --continue                          (the UI) resume the latest session of this directory
  --config KEY=VALUE                      override a config.toml key (exec: also -c): --config model_provider=ollama
  -m, --model MODEL                       the model to use
  -p, --profile NAME                      use [profiles.NAME] of config.toml
  -C, --cd DIR                            work in DIR (as if started there)
  -i, --image PATH[,PATH...]              attach images to the first message (repeatable)
  -s, --sandbox MODE                      read-only | workspace-write (default) | danger-full-access
  -a, --ask-for-approval POLICY           untrusted | on-request (default) | never
  --full-auto                             workspace-write + on-request
  --dangerously-bypass-approvals-and-sandbox
                                          no sandbox and no approvals
  --add-dir DIR                           another writable directory for workspace-write (repeatable)
  --base-url URL                          a Responses API server (default: OPENAI_BASE_URL, else OpenAI or offline)
  --oss                                   the local Ollama or LM Studio server (whichever is running)

Exit codes: 0 done, 1 the turn failed, 2 usage or config error, 3 the server refused the API key
(HTTP 401/403), 4 the server could not be reached, 130 interrupted.

Environment:
  OPENAI_API_KEY, OPENAI_BASE_URL         a Responses API server; with neither, the embedded offline model
  TILLER_HOME                             config, history and the global AGENTS.md (default ~/.tiller)
`;

/** What the entry point runs: a command by its first word, else the TUI with every argument. */
export type Route =
  | { command: 'version' }
  | { command: 'help' }
  | { command: 'exec' | 'resume' | 'review' | 'app-server' | 'inspect' | 'diff'; argv: string[] }
  | { command: 'tui'; argv: string[] };

export function routeCommand(argv: readonly string[]): Route {
  const [first, ...rest] = argv;
  switch (first) {
    case '--version':
    case '-V':
      return { command: 'version' };
    case '--help':
    case '-h':
    case 'help':
      return { command: 'help' };
    case 'exec':
    case 'resume':
    case 'review':
    case 'app-server':
    case 'inspect':
    case 'diff':
      return { command: first, argv: rest };
    default:
      return { command: 'tui', argv: [...argv] };
  }
}

type OptionSpec = { type: 'string' | 'boolean'; short?: string };

/** The options both the TUI and exec take. */
const SHARED_OPTIONS = {
  model: { type: 'string', short: 'm' },
  'base-url': { type: 'string' },
  profile: { type: 'string', short: 'p' },
  cd: { type: 'string', short: 'C' },
  image: { type: 'string', short: 'i' },
  sandbox: { type: 'string', short: 's' },
  'ask-for-approval': { type: 'string', short: 'a' },
  'full-auto': { type: 'boolean' },
  'dangerously-bypass-approvals-and-sandbox': { type: 'boolean' },
  yolo: { type: 'boolean' },
  'add-dir': { type: 'string' },
  // Codex's: the local Ollama or LM Studio server (oss.ts finds the one running).
  oss: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies Record<string, OptionSpec>;

/**
 * Codex exec's flags that mean nothing here (docs/codex-parity.md#exec-command-line): accepted, so a
 * command line written for Codex (or the Codex SDK's) runs, and named once on stderr as ignored.
 */
const EXEC_IGNORED_OPTIONS = {
  color: { type: 'string' },
  enable: { type: 'string' },
  disable: { type: 'string' },
  'local-provider': { type: 'string' },
  'thread-source': { type: 'string' },
  'cyber-access-program': { type: 'string' },
  'strict-config': { type: 'boolean' },
  'approve-for-me': { type: 'boolean' },
  'dangerously-bypass-hook-trust': { type: 'boolean' },
  trust: { type: 'boolean' },
  'ignore-user-config': { type: 'boolean' },
  'ignore-rules': { type: 'boolean' },
  all: { type: 'boolean' },
} as const satisfies Record<string, OptionSpec>;

// The UI's `-c` is --continue (Codex's is --config), so the UI takes --config in its long form only.
const TUI_OPTIONS = {
  ...SHARED_OPTIONS,
  version: { type: 'boolean', short: 'V' },
  continue: { type: 'boolean', short: 'c' },
  config: { type: 'string' },
} as const;

const OPTIONS = {
  tui: TUI_OPTIONS,
  resume: { ...TUI_OPTIONS, last: { type: 'boolean' } },
  exec: {
    ...SHARED_OPTIONS,
    json: { type: 'boolean' },
    // The Codex SDK's name for --json.
    'experimental-json': { type: 'boolean' },
    last: { type: 'boolean' },
    config: { type: 'string', short: 'c' },
    'skip-git-repo-check': { type: 'boolean' },
    'output-schema': { type: 'string' },
    'output-last-message': { type: 'string', short: 'o' },
    ephemeral: { type: 'boolean' },
    ...EXEC_IGNORED_OPTIONS,
  },
} as const satisfies Record<string, Record<string, OptionSpec>>;

export type ArgsCommand = keyof typeof OPTIONS;

/** Why the arguments cannot be used; each command words it in its own style. */
export type ArgError =
  | { kind: 'unknown'; option: string }
  /** `option` as written (`-m`), `long` its long name (`--model`). */
  | { kind: 'missingValue'; option: string; long: string }
  | { kind: 'noValue'; option: string; long: string }
  | { kind: 'choice'; option: string; long: string; value: string; allowed: readonly string[] }
  /** `-c` without `=`. */
  | { kind: 'keyValue'; option: string; long: string; value: string };

export interface ParsedArgs {
  overrides: ConfigOverrides;
  /** `-i/--image`, as written (comma-separated lists split), in order. */
  images: string[];
  /** `-C/--cd DIR` as written; the last one wins. */
  cd: string | null;
  /** Positional words (after `--` too), in order. */
  words: string[];
  help: boolean;
  version: boolean;
  json: boolean;
  /** `-c/--continue` (the UI). */
  continue: boolean;
  /** `--last` (`tiller resume`). */
  last: boolean;
  /** exec `-c/--config`, the UI's `--config`: `key=value`, as written, in order. */
  config: string[];
  /** exec: the ignored flags given, as `--name`, each once. */
  ignored: string[];
  outputSchema: string | null;
  outputLastMessage: string | null;
  skipGitRepoCheck: boolean;
  ephemeral: boolean;
}

function isOneOf<T extends string>(value: string, allowed: readonly T[]): value is T {
  return (allowed as readonly string[]).includes(value);
}

/** One pass over the arguments with parseArgs' tokens, so flags apply in the order given. */
export function parseCommandArgs(command: ArgsCommand, argv: readonly string[]): ParsedArgs | ArgError {
  const options: Record<string, OptionSpec> = OPTIONS[command];
  const { tokens } = parseArgs({ args: [...argv], options, strict: false, allowPositionals: true, tokens: true });
  const out: ParsedArgs = {
    overrides: {},
    images: [],
    cd: null,
    words: [],
    help: false,
    version: false,
    json: false,
    continue: false,
    last: false,
    config: [],
    ignored: [],
    outputSchema: null,
    outputLastMessage: null,
    skipGitRepoCheck: false,
    ephemeral: false,
  };
  // `--help` anywhere before `--` asks for the usage, whatever else is wrong.
  if (tokens.some((token) => token.kind === 'option' && token.name === 'help')) return { ...out, help: true };
  const overrides = out.overrides;
  for (const token of tokens) {
    if (token.kind === 'positional') {
      out.words.push(token.value);
      continue;
    }
    if (token.kind === 'option-terminator') continue;
    const spec = Object.hasOwn(options, token.name) ? options[token.name] : undefined;
    if (spec === undefined) return { kind: 'unknown', option: token.rawName };
    const long = `--${token.name}`;
    if (Object.hasOwn(EXEC_IGNORED_OPTIONS, token.name)) {
      if (spec.type === 'string' && (token.value === undefined || token.value === ''))
        return { kind: 'missingValue', option: token.rawName, long };
      if (!out.ignored.includes(long)) out.ignored.push(long);
      continue;
    }
    if (spec.type === 'boolean') {
      if (token.inlineValue) return { kind: 'noValue', option: token.rawName, long };
      switch (token.name) {
        case 'help':
          out.help = true;
          break;
        case 'version':
          out.version = true;
          break;
        case 'json':
        case 'experimental-json':
          out.json = true;
          break;
        case 'skip-git-repo-check':
          out.skipGitRepoCheck = true;
          break;
        case 'ephemeral':
          out.ephemeral = true;
          break;
        case 'continue':
          out.continue = true;
          break;
        case 'last':
          out.last = true;
          break;
        case 'oss':
          overrides.oss = true;
          break;
        case 'full-auto':
          // As Codex: commands run in the workspace sandbox and ask before leaving it.
          overrides.approvalPolicy = 'on-request';
          overrides.sandboxMode = 'workspace-write';
          break;
        case 'dangerously-bypass-approvals-and-sandbox':
        case 'yolo':
          overrides.approvalPolicy = 'never';
          overrides.sandboxMode = 'danger-full-access';
      }
      continue;
    }
    const value = token.value;
    if (value === undefined || value === '') return { kind: 'missingValue', option: token.rawName, long };
    switch (token.name) {
      case 'model':
        overrides.model = value;
        break;
      case 'base-url':
        overrides.baseUrl = value;
        break;
      case 'profile':
        overrides.profile = value;
        break;
      case 'cd':
        out.cd = value;
        break;
      case 'image':
        out.images.push(...value.split(',').filter((path) => path.length > 0));
        break;
      case 'add-dir':
        overrides.addDirs = [...(overrides.addDirs ?? []), resolve(value)];
        break;
      case 'sandbox':
        if (!isOneOf(value, SANDBOX_MODES)) return { kind: 'choice', option: token.rawName, long, value, allowed: SANDBOX_MODES };
        overrides.sandboxMode = value;
        break;
      case 'ask-for-approval':
        if (!isOneOf(value, APPROVAL_POLICIES)) return { kind: 'choice', option: token.rawName, long, value, allowed: APPROVAL_POLICIES };
        overrides.approvalPolicy = value;
        break;
      case 'config':
        if (!value.includes('=')) return { kind: 'keyValue', option: token.rawName, long, value };
        out.config.push(value);
        break;
      case 'output-schema':
        out.outputSchema = resolve(value);
        break;
      case 'output-last-message':
        out.outputLastMessage = resolve(value);
        break;
    }
  }
  return out;
}

function isArgError(value: ParsedArgs | ArgError): value is ArgError {
  return 'kind' in value;
}

// ---- the TUI --------------------------------------------------------------------------------

/** Which saved thread the UI opens: chosen in a picker, the latest of the directory, or by id. */
export type TuiSession = { kind: 'pick' } | { kind: 'latest' } | { kind: 'resume'; threadId: string };

/** `tiller [OPTIONS] [PROMPT]` and `tiller resume …`; fields other than `overrides` are present only when given. */
export interface TuiArgs {
  overrides: ConfigOverrides;
  /** `tiller resume`, `-c`: a saved thread instead of a new one. */
  session?: TuiSession;
  /** Sent as the first message (the words joined by spaces). */
  prompt?: string;
  /** Attached to that message, or waiting in the composer when there is no prompt. */
  images?: string[];
  cd?: string;
  /** `--config key=value`, as written, in order (exec/config-overrides.ts reads them). */
  config?: string[];
  help?: true;
  version?: true;
}

function tuiError(error: ArgError): string {
  switch (error.kind) {
    case 'unknown':
      return `unknown option '${error.option}'`;
    case 'missingValue':
      return `option '${error.option}' needs a value`;
    case 'noValue':
      return `option '${error.option}' takes no value`;
    case 'choice':
      return `option '${error.option}' takes one of ${error.allowed.join(', ')} (not '${error.value}')`;
    case 'keyValue':
      return `option '${error.option}' takes key=value (not '${error.value}')`;
  }
}

/**
 * The TUI's arguments, or what is wrong with them (cli.ts adds "tiller: … Try 'tiller --help'.").
 * `resume`: the words after `tiller resume`, whose first word is the thread id (none: the picker;
 * with `--last` every word is the prompt).
 */
export function parseTuiArgs(argv: readonly string[], options: { resume?: boolean } = {}): TuiArgs | string {
  const parsed = parseCommandArgs(options.resume === true ? 'resume' : 'tui', argv);
  if (isArgError(parsed)) return tuiError(parsed);
  const args: TuiArgs = { overrides: parsed.overrides };
  let words = parsed.words;
  if (parsed.last || parsed.continue) args.session = { kind: 'latest' };
  else if (options.resume === true) {
    const [threadId, ...rest] = words;
    args.session = threadId === undefined ? { kind: 'pick' } : { kind: 'resume', threadId };
    words = rest;
  }
  if (words.length > 0) args.prompt = words.join(' ');
  if (parsed.images.length > 0) args.images = parsed.images;
  if (parsed.cd !== null) args.cd = parsed.cd;
  if (parsed.config.length > 0) args.config = parsed.config;
  if (parsed.help) args.help = true;
  if (parsed.version) args.version = true;
  return args;
}

// ---- exec -----------------------------------------------------------------------------------

export interface ExecArgs {
  json: boolean;
  model: string | null;
  baseUrl: string | null;
  approvalPolicy: ApprovalPolicy | null;
  sandboxMode: SandboxMode | null;
  addDirs: string[];
  /** `--image/-i PATH` (repeatable, or comma-separated as Codex): local images sent before the prompt. */
  images: string[];
  /** `-` means stdin; null means none was given. */
  prompt: string | null;
  /** `-p/--profile NAME`, when given. */
  profile?: string;
  /** `--oss`: the local Ollama or LM Studio server. */
  oss?: true;
  /** `-C/--cd DIR`, when given. */
  cd?: string;
  /** `tiller exec resume ID|--last`: continue that thread (the newest of the cwd) instead of starting one. */
  resume?: { threadId: string } | { last: true };
  /** `-c/--config key=value`, as written, in order (exec/config-overrides.ts reads them). */
  config?: string[];
  /** `--output-schema FILE`, absolute. */
  outputSchema?: string;
  /** `-o/--output-last-message FILE`, absolute. */
  outputLastMessage?: string;
  skipGitRepoCheck?: true;
  /** `--ephemeral`: the thread is never written to disk. */
  ephemeral?: true;
  /** Codex's flags that were given but mean nothing here, each once (`--color`). */
  ignored?: string[];
}

function execError(error: ArgError): string {
  switch (error.kind) {
    case 'unknown':
      return `unknown option '${error.option}'. Try 'tiller exec --help'.`;
    case 'missingValue':
      return `missing value for ${error.long}`;
    case 'noValue':
      return `${error.long} takes no value`;
    case 'choice':
      return `${error.long} takes one of ${error.allowed.join(', ')}`;
    case 'keyValue':
      return `${error.long} takes key=value, not '${error.value}'`;
  }
}

export function parseExecArgs(argv: readonly string[]): ExecArgs | { error: string } | { help: true } {
  const parsed = parseCommandArgs('exec', argv);
  if (isArgError(parsed)) return { error: execError(parsed) };
  if (parsed.help) return { help: true };
  // `resume` first is the subcommand, unless it comes after `--` (then it is the prompt).
  const terminator = argv.indexOf('--');
  const resuming = parsed.words[0] === 'resume' && (terminator === -1 || argv.indexOf('resume') < terminator);
  const words = resuming ? parsed.words.slice(1) : parsed.words;
  let resume: ExecArgs['resume'];
  if (resuming && parsed.last) resume = { last: true };
  else if (resuming) {
    const threadId = words.shift();
    if (threadId === undefined) return { error: "resume needs a session id or --last. Try 'tiller exec --help'." };
    resume = { threadId };
  } else if (parsed.last) return { error: "--last goes with 'tiller exec resume'. Try 'tiller exec --help'." };
  const o = parsed.overrides;
  const args: ExecArgs = {
    json: parsed.json,
    model: o.model ?? null,
    baseUrl: o.baseUrl ?? null,
    approvalPolicy: o.approvalPolicy ?? null,
    sandboxMode: o.sandboxMode ?? null,
    addDirs: o.addDirs ?? [],
    images: parsed.images,
    prompt: words.length > 0 ? words.join(' ') : null,
  };
  if (o.profile !== undefined) args.profile = o.profile;
  if (o.oss) args.oss = true;
  if (parsed.cd !== null) args.cd = parsed.cd;
  if (resume !== undefined) args.resume = resume;
  if (parsed.config.length > 0) args.config = parsed.config;
  if (parsed.outputSchema !== null) args.outputSchema = parsed.outputSchema;
  if (parsed.outputLastMessage !== null) args.outputLastMessage = parsed.outputLastMessage;
  if (parsed.skipGitRepoCheck) args.skipGitRepoCheck = true;
  if (parsed.ephemeral) args.ephemeral = true;
  if (parsed.ignored.length > 0) args.ignored = parsed.ignored;
  return args;
}

/** The config overrides exec's flags ask for. */
export function execOverrides(args: ExecArgs): ConfigOverrides {
  return {
    ...(args.profile !== undefined ? { profile: args.profile } : {}),
    ...(args.oss ? { oss: true as const } : {}),
    ...(args.model ? { model: args.model } : {}),
    ...(args.baseUrl ? { baseUrl: args.baseUrl } : {}),
    ...(args.approvalPolicy ? { approvalPolicy: args.approvalPolicy } : {}),
    ...(args.sandboxMode ? { sandboxMode: args.sandboxMode } : {}),
    ...(args.addDirs.length > 0 ? { addDirs: args.addDirs } : {}),
  };
}

// ---- -C -------------------------------------------------------------------------------------

/** `-C DIR`: makes DIR the working directory; the reason it cannot be, for a usage error. */
export function changeDirectory(dir: string): string | null {
  const target = resolve(dir);
  if (!existsSync(target)) return `no such directory: ${dir}`;
  if (!statSync(target).isDirectory()) return `not a directory: ${dir}`;
  try {
    process.chdir(target);
  } catch (error) {
    return `cannot work in ${dir}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`;
  }
  return null;
}
