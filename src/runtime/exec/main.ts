/**
 * `tiller exec [--json] [OPTIONS] [PROMPT]`: one turn without a UI (docs/codex-parity.md#exec-json-events). Text
 * mode: progress on stderr, the final answer on stdout. `--json`: one event per line on stdout.
 * Exit 0 completed, 1 failed, 2 usage or config error, 3 the server refused the key (HTTP 401/403),
 * 4 the server could not be reached, 130 interrupted by SIGINT (SIGTERM and SIGHUP also interrupt
 * the turn, so a running command is killed, and exit 128 + the signal number).
 */
import { imageFileProblem } from '../../protocol/image-file-check.js';
import { existsSync, fstatSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { z } from 'zod';
import { changeDirectory } from '../cli-args.js';
import { errorMessage } from '../../error-message.js';
import { readStdin, signalExitCode } from '../../process-io.js';
import type { AppServerClient, ServerNotification, ThreadResumeParams, Turn, TurnError, V2UserInput } from '../../protocol/api.js';
import { showControlChars } from '../../protocol/control-chars.js';
import { TOO_DEEP_PROBLEM, tooDeepPath, tooDeepWhere } from '../../protocol/json-depth.js';
import { formatPath } from '../../protocol/schemas.js';
import { redactSecrets } from '../../protocol/redact.js';
import { createInProcessAppServer } from '../app-server.js';
import { type ConfigOverrides, loadConfigOrReport } from '../config.js';
import { type ExecArgs, EXEC_USAGE, execOverrides, parseExecArgs } from './args.js';
import { checkOverrides } from './config-overrides.js';
import { errorText, type ExecEvent, ExecJsonMapper } from './jsonl.js';

export const EXIT_TURN_FAILED = 1;
export const EXIT_USAGE = 2;
export const EXIT_AUTH = 3;
export const EXIT_UNREACHABLE = 4;

const EXIT_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
type ExitSignal = (typeof EXIT_SIGNALS)[number];

/**
 * stdin is a pipe (`cat log | tiller exec …`) or a file (`< log`): data someone means us to read.
 * Not a terminal, /dev/null, or a socket a parent process left open and never writes to (waiting
 * on it would hang the run).
 */
function stdinIsPipedOrFile(): boolean {
  try {
    const stat = fstatSync(0);
    return stat.isFIFO() || stat.isFile();
  } catch {
    return false;
  }
}

/** The prompt with piped text after it, as Codex exec sends both: one message, the text delimited. */
export function promptWithStdin(prompt: string, stdin: string): string {
  const text = stdin.replace(/\s+$/u, '');
  return text.trim().length === 0 ? prompt : `${prompt}\n\n<stdin>\n${text}\n</stdin>`;
}

/**
 * The exit code of a failed turn: 3 when the server refused the API key (401, or 403, which has no
 * CodexErrorInfo of its own and is reported as `other` with its status in the message), 4 when it
 * could not be reached at all (connection refused, DNS, TLS, connect timeout), else 1.
 */
export function failedTurnExitCode(error: TurnError | null): number {
  const info = error?.codexErrorInfo ?? null;
  if (info === 'unauthorized') return EXIT_AUTH;
  if (info !== null && typeof info === 'object' && 'httpConnectionFailed' in info) return EXIT_UNREACHABLE;
  return EXIT_TURN_FAILED;
}

/** The text-mode stderr line for a notification, if it gets one. */
export function progressLine(notification: ServerNotification): string | null {
  switch (notification.method) {
    case 'thread/started':
      return `tiller: model ${notification.params.thread.model} (${notification.params.thread.modelProvider})`;
    case 'item/started': {
      const item = notification.params.item;
      if (item.type === 'mcpToolCall') return `mcp: ${item.server}.${item.tool}`;
      return item.type === 'commandExecution' ? `$ ${item.command}` : null;
    }
    case 'item/completed': {
      const item = notification.params.item;
      if (item.type === 'mcpToolCall') return item.status === 'completed' ? '  ok' : `  failed: ${item.error?.message ?? 'failed'}`;
      if (item.type !== 'commandExecution') return null;
      return item.status === 'declined'
        ? '  (declined: no one to approve it; see --sandbox and --ask-for-approval)'
        : `  exit ${item.exitCode ?? '?'}`;
    }
    case 'error':
      // A retry is progress; the error that ends the turn is printed once, with the turn's end.
      return notification.params.willRetry ? `tiller: ${errorText(notification.params.error)}` : null;
    case 'warning':
      return `warning: ${notification.params.message}`;
    case 'hook/completed':
      const { status, statusMessage } = notification.params.run;
      return status === 'blocked' ? `tiller: blocked by hook${statusMessage ? `: ${statusMessage}` : ''}` : null;
    default:
      return null;
  }
}

/**
 * Codex's words when exec starts outside a Git repository (and a trusted project) without
 * `--skip-git-repo-check`, then how to go on; a usage error (exit 2), as the README lists.
 */
export const NOT_IN_GIT_REPO = 'Not inside a trusted directory and --skip-git-repo-check was not specified.';
export const NOT_IN_GIT_REPO_HINT =
  'tiller exec: run it inside a Git repository, pass --skip-git-repo-check, or trust this directory in config.toml: [projects."<path>"] trust_level = "trusted"';

/** Whether `dir` is a trusted project (`[projects."<path>"] trust_level = "trusted"`) or inside one. */
export function insideTrustedProject(dir: string, trusted: readonly string[]): boolean {
  return trusted.some((root) => {
    const rel = relative(resolve(root), dir);
    return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
  });
}

/** Inside a Git work tree: a `.git` (a directory, or a worktree's file) here or above. */
export function insideGitRepo(dir: string): boolean {
  for (let current = dir; ; current = dirname(current)) {
    if (existsSync(join(current, '.git'))) return true;
    if (dirname(current) === current) return false;
  }
}

/** `--output-schema FILE`: the schema, and a check of the final message when zod can read the schema. */
interface OutputSchema {
  schema: Record<string, unknown>;
  check: z.ZodType | null;
}

function readOutputSchema(path: string): OutputSchema | string {
  let schema: unknown;
  try {
    schema = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    return `--output-schema: cannot read ${path}: ${errorMessage(error)}`;
  }
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return `--output-schema: ${path} is not a JSON object`;
  const deep = tooDeepPath(schema);
  if (deep !== null) return `--output-schema: ${path}: ${tooDeepWhere(deep, formatPath)}: ${TOO_DEEP_PROBLEM}`;
  try {
    return { schema: schema as Record<string, unknown>, check: z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]) };
  } catch {
    // The server still holds the answer to the schema (strict json_schema); only the local check is lost.
    return { schema: schema as Record<string, unknown>, check: null };
  }
}

/** Why the final message does not follow the schema, or null when it does. */
export function outputSchemaProblem(check: z.ZodType, message: string | null): string | null {
  if (message === null) return 'the turn ended without a final message';
  let value: unknown;
  try {
    value = JSON.parse(message);
  } catch {
    return 'the final message is not JSON';
  }
  const result = check.safeParse(value);
  return result.success ? null : `the final message does not match the schema: ${z.prettifyError(result.error).replace(/\n\s*/g, ' ')}`;
}

/** Thrown when `exec resume` names no session it can load: said on stderr, exit 1. */
class NoSession extends Error {}

/**
 * The thread `exec resume` continues, loaded with the flags' settings over the recorded ones.
 * `--last`: the newest thread of the cwd, as Codex.
 */
async function resumeThread(server: AppServerClient, args: ExecArgs, resume: NonNullable<ExecArgs['resume']>) {
  let threadId: string;
  if ('last' in resume) {
    const [latest] = (await server.request('thread/list', { cwd: process.cwd(), limit: 1 })).data;
    if (latest === undefined) throw new NoSession(`no session to resume in ${process.cwd()}`);
    threadId = latest.id;
  } else threadId = resume.threadId;
  const params: ThreadResumeParams = {
    threadId,
    excludeTurns: true,
    ...(args.model ? { model: args.model } : {}),
    ...(args.approvalPolicy ? { approvalPolicy: args.approvalPolicy } : {}),
    ...(args.sandboxMode ? { sandbox: args.sandboxMode } : {}),
  };
  try {
    return await server.request('thread/resume', params);
  } catch (error) {
    // Unknown, unreadable, or open in another Tiller: the message says which.
    throw new NoSession(errorMessage(error));
  }
}

/** `-o FILE`: the last agent message, as Codex writes it (nothing to write: a warning, the file untouched). */
function writeLastMessage(path: string, message: string | null): void {
  if (message === null) {
    process.stderr.write(`tiller: no last agent message; ${path} not written\n`);
    return;
  }
  try {
    writeFileSync(path, message);
  } catch (error) {
    process.stderr.write(`tiller: cannot write ${path}: ${errorMessage(error)}\n`);
  }
}

export async function main(argv: string[]): Promise<number> {
  const args = parseExecArgs(argv);
  if ('help' in args) {
    process.stdout.write(EXEC_USAGE);
    return 0;
  }
  if ('error' in args) {
    process.stderr.write(`tiller exec: ${args.error}\n`);
    return EXIT_USAGE;
  }
  if (args.ignored) process.stderr.write(`tiller exec: ignoring ${args.ignored.join(', ')} (no meaning in Tiller)\n`);
  const overrides = checkOverrides(args.config ?? []);
  if (overrides.error !== null) {
    process.stderr.write(`tiller exec: ${overrides.error}\n`);
    return EXIT_USAGE;
  }
  for (const warning of overrides.warnings) process.stderr.write(`tiller exec: ${warning}\n`);
  const outputSchema = args.outputSchema === undefined ? null : readOutputSchema(args.outputSchema);
  if (typeof outputSchema === 'string') {
    process.stderr.write(`tiller exec: ${outputSchema}\n`);
    return EXIT_USAGE;
  }
  // Image paths are the caller's, relative to where exec was started, before -C.
  const images = args.images.map((path) => resolve(path));
  for (const path of images) {
    // As the TUI refuses the attachment: before any request, naming the path the caller gave.
    const problem = imageFileProblem(path);
    if (problem === null) continue;
    process.stderr.write(`tiller exec: --image: ${problem}: ${path}\n`);
    return EXIT_USAGE;
  }
  if (args.cd !== undefined) {
    const problem = changeDirectory(args.cd);
    if (problem !== null) {
      process.stderr.write(`tiller exec: -C: ${problem}\n`);
      return EXIT_USAGE;
    }
  }
  let prompt = args.prompt;
  if (prompt === '-' || (prompt === null && !process.stdin.isTTY)) prompt = await readStdin();
  else if (prompt !== null && stdinIsPipedOrFile()) prompt = promptWithStdin(prompt, await readStdin());
  if (prompt === null || prompt.trim().length === 0) {
    process.stderr.write('tiller exec: no prompt given (pass PROMPT, or "-" to read stdin)\n');
    return EXIT_USAGE;
  }
  const configOverrides: ConfigOverrides = {
    ...execOverrides(args),
    ...(Object.keys(overrides.table).length > 0 ? { config: overrides.table } : {}),
    ...(args.baseUrl === null && overrides.baseUrl !== undefined ? { baseUrl: overrides.baseUrl } : {}),
    // Codex exec's own key variable: the Codex SDK passes its `apiKey` option in it.
    ...(process.env.CODEX_API_KEY ? { apiKey: process.env.CODEX_API_KEY } : {}),
  };
  const oss = await (await import('../oss.js')).resolveOss(configOverrides);
  if ('error' in oss) {
    process.stderr.write(`tiller exec: ${oss.error}\n`);
    return EXIT_USAGE;
  }
  const config = loadConfigOrReport(oss.overrides);
  if (config === null) return EXIT_USAGE;
  // As Codex: an agent that edits files runs where Git can show and undo what it did (or in a
  // directory the user trusts), unless told otherwise.
  const cwd = process.cwd();
  if (args.skipGitRepoCheck !== true && !insideGitRepo(cwd) && !insideTrustedProject(cwd, config.trustedProjects ?? [])) {
    process.stderr.write(`${NOT_IN_GIT_REPO}\n${NOT_IN_GIT_REPO_HINT}\n`);
    return EXIT_USAGE;
  }
  // No one watches MCP servers start here: the turn waits for them before it samples.
  const server: AppServerClient = createInProcessAppServer({ config, cwd: process.cwd(), mcpAwaitStartup: true, source: 'exec' });
  // No request handler: no one is here to ask, so each tool follows the approval policy alone (a
  // command that needs approval does not run; an MCP call runs where the policy lets it).
  // A reader that stops early (`| head -1`) is not an error: the turn ends as it would, unheard.
  let stdoutClosed = false;
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    stdoutClosed = true;
  });
  const print = (text: string): void => {
    if (!stdoutClosed) process.stdout.write(text);
  };
  const mapper = new ExecJsonMapper();
  const write = (event: ExecEvent): void => print(`${JSON.stringify(event)}\n`);
  let turnId: string | null = null;
  let finished: ((turn: Turn) => void) | null = null;
  const early: Turn[] = [];
  server.onNotification((notification) => {
    if (args.json) for (const event of mapper.map(notification)) write(event);
    else {
      mapper.map(notification);
      const line = progressLine(notification);
      if (line !== null) process.stderr.write(`${showControlChars(line)}\n`);
    }
    if (notification.method === 'turn/completed') {
      const turn = notification.params.turn;
      if (finished && turn.id === turnId) finished(turn);
      else early.push(turn);
    }
  });
  let interruptedBy: ExitSignal | null = null;
  const interruptTurn = (): void => {
    if (threadId && turnId) void server.request('turn/interrupt', { threadId, turnId }).catch(() => undefined);
  };
  const onSignal = (signal: ExitSignal): void => {
    interruptedBy ??= signal;
    interruptTurn();
  };
  for (const signal of EXIT_SIGNALS) process.on(signal, onSignal);
  let threadId: string | null = null;
  try {
    const started = args.resume
      ? await resumeThread(server, args, args.resume)
      : { ...(await server.request('thread/start', args.ephemeral ? { ephemeral: true } : {})), tillerRolloutWarnings: [] };
    threadId = started.thread.id;
    for (const warning of [...config.warnings, ...(started.tillerWarnings ?? []), ...(started.tillerRolloutWarnings ?? [])]) {
      if (args.json) write(mapper.warning(warning));
      else process.stderr.write(`tiller: ${warning}\n`);
    }
    // Images first, then the prompt, as Codex exec orders them.
    const input: V2UserInput[] = [
      ...images.map((path) => ({ type: 'localImage' as const, path })),
      { type: 'text', text: prompt, text_elements: [] },
    ];
    const response = await server.request('turn/start', {
      threadId,
      input,
      ...(outputSchema ? { outputSchema: outputSchema.schema } : {}),
    });
    turnId = response.turn.id;
    const id = turnId;
    const turn = await new Promise<Turn>((resolve) => {
      finished = resolve;
      const already = early.find((t) => t.id === id);
      if (already) resolve(already);
      if (interruptedBy) interruptTurn();
    });
    if (!args.json && turn.status === 'completed' && mapper.lastAgentMessage !== null)
      print(`${showControlChars(mapper.lastAgentMessage)}\n`);
    if (!args.json && turn.status === 'failed')
      process.stderr.write(`tiller: turn failed: ${showControlChars(turn.error ? errorText(turn.error) : 'turn failed')}\n`);
    if (args.outputLastMessage !== undefined) writeLastMessage(args.outputLastMessage, mapper.lastAgentMessage);
    if (interruptedBy) return signalExitCode(interruptedBy)!;
    if (turn.status === 'interrupted') return 130;
    if (turn.status !== 'completed') return failedTurnExitCode(turn.error);
    const problem = outputSchema?.check ? outputSchemaProblem(outputSchema.check, mapper.lastAgentMessage) : null;
    if (problem === null) return 0;
    if (args.json) write({ type: 'error', message: `--output-schema: ${problem}` });
    process.stderr.write(`tiller: --output-schema: ${problem}\n`);
    return EXIT_TURN_FAILED;
  } catch (error) {
    const message = redactSecrets(errorMessage(error));
    if (args.json) write({ type: 'error', message });
    if (!args.json || error instanceof NoSession) process.stderr.write(`tiller: ${message}\n`);
    return 1;
  } finally {
    for (const signal of EXIT_SIGNALS) process.off(signal, onSignal);
    await server.close();
  }
}
