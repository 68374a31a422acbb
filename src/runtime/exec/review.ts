/**
 * `tiller review [--uncommitted | --base BRANCH | --commit SHA [--title T] | --session ID] [PROMPT | -]`: one review
 * turn without a UI, through review/start. stdout is Codex's layout (the rendered review), so scripts
 * written for `codex review` keep working; `--json` prints the structured findings instead. The
 * model reads the change with git in a read-only sandbox, asking no one.
 */
import { parseArgs } from 'node:util';
import { errorMessage } from '../../error-message.js';
import { readStdin } from '../../process-io.js';
import type { AppServerClient, ReviewOutput, ReviewTarget, Turn } from '../../protocol/api.js';
import { redactSecrets } from '../../protocol/redact.js';
import { createInProcessAppServer } from '../app-server.js';
import { changeDirectory } from '../cli-args.js';
import { loadConfigOrReport } from '../config.js';
import { parseReviewOutput } from '../review/output.js';
import { checkOverrides } from './config-overrides.js';
import { EXIT_TURN_FAILED, EXIT_USAGE, failedTurnExitCode } from './main.js';
import { errorText } from './jsonl.js';

export const REVIEW_USAGE = `Usage: tiller review [OPTIONS] [PROMPT | -]

Reviews code changes without a UI, as codex review: the overall explanation, then each finding as
"- <title> — <path>:<start>-<end>" and its body indented, on stdout. PROMPT gives custom review
instructions ("-" reads them from stdin); with neither PROMPT nor a target, the uncommitted changes.

Options:
  --uncommitted           review staged, unstaged and untracked changes
  --base BRANCH           review the changes against BRANCH (from its merge base with HEAD)
  --commit SHA            review the changes a commit introduced
  --title T               the commit's title, shown with it (with --commit)
  --session ID            review what the agent changed in saved session ID (its checkpoints),
                          not the user's own edits around it
  --json                  print the structured review (findings, verdict) as one JSON object
  -m, --model MODEL       the model to use
  -p, --profile NAME      use [profiles.NAME] of config.toml
  -C, --cd DIR            review in DIR
  --base-url URL          a Responses API server
  -c, --config KEY=VALUE  override a config.toml key
  -h, --help              print this help

Exit codes: 0 reviewed (an answer that is not findings JSON is printed as it came), 1 the review
failed, 2 usage or config error.
`;

export interface ReviewArgs {
  target: ReviewTarget | null;
  prompt: string | null;
  json: boolean;
  model?: string;
  profile?: string;
  cd?: string;
  baseUrl?: string;
  config: string[];
}

/** The review's arguments, or what is wrong with them. */
export function parseReviewArgs(argv: readonly string[]): ReviewArgs | { help: true } | { error: string } {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        uncommitted: { type: 'boolean' },
        base: { type: 'string' },
        commit: { type: 'string' },
        title: { type: 'string' },
        session: { type: 'string' },
        json: { type: 'boolean' },
        model: { type: 'string', short: 'm' },
        profile: { type: 'string', short: 'p' },
        cd: { type: 'string', short: 'C' },
        'base-url': { type: 'string' },
        config: { type: 'string', short: 'c', multiple: true },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    return { error: errorMessage(error) };
  }
  const v = parsed.values;
  if (v.help) return { help: true };
  const targets: ReviewTarget[] = [];
  if (v.uncommitted) targets.push({ type: 'uncommittedChanges' });
  if (v.base !== undefined) targets.push({ type: 'baseBranch', branch: v.base });
  if (v.commit !== undefined) targets.push({ type: 'commit', sha: v.commit, ...(v.title !== undefined ? { title: v.title } : {}) });
  if (v.session !== undefined) targets.push({ type: 'tiller/sessionChanges', threadId: v.session });
  if (targets.length > 1) return { error: '--uncommitted, --base, --commit and --session exclude each other' };
  if (v.title !== undefined && v.commit === undefined) return { error: '--title goes with --commit' };
  const prompt = parsed.positionals.length > 0 ? parsed.positionals.join(' ') : null;
  if (prompt !== null && targets.length > 0)
    return { error: 'a PROMPT is custom instructions: give it without --uncommitted, --base, --commit or --session' };
  const args: ReviewArgs = { target: targets[0] ?? null, prompt, json: v.json === true, config: v.config ?? [] };
  if (v.model !== undefined) args.model = v.model;
  if (v.profile !== undefined) args.profile = v.profile;
  if (v.cd !== undefined) args.cd = v.cd;
  if (v['base-url'] !== undefined) args.baseUrl = v['base-url'];
  return args;
}

/** Runs one review on a fresh ephemeral thread; resolves with its turn, its rendered text and findings. */
async function runReview(
  server: AppServerClient,
  target: ReviewTarget,
): Promise<{ turn: Turn; text: string | null; output: ReviewOutput | null }> {
  let text: string | null = null;
  let output: ReviewOutput | null = null;
  let turnId: string | null = null;
  const ended = new Map<string, Turn>();
  let finish: ((turn: Turn) => void) | null = null;
  server.onNotification((n) => {
    if (n.method === 'tiller/reviewOutput') output = n.params.output;
    else if (n.method === 'item/completed' && n.params.item.type === 'exitedReviewMode') text = n.params.item.review;
    else if (n.method === 'warning') process.stderr.write(`warning: ${n.params.message}\n`);
    else if (n.method === 'item/started' && n.params.item.type === 'commandExecution') process.stderr.write(`$ ${n.params.item.command}\n`);
    else if (n.method === 'turn/completed') {
      if (finish && n.params.turn.id === turnId) finish(n.params.turn);
      else ended.set(n.params.turn.id, n.params.turn);
    }
  });
  await server.request('initialize', { clientInfo: { name: 'tiller-review', version: '0' }, capabilities: { tillerExtensions: true } });
  const { thread } = await server.request('thread/start', { ephemeral: true });
  const response = await server.request('review/start', { threadId: thread.id, target });
  turnId = response.turn.id;
  const id = turnId;
  const turn = await new Promise<Turn>((resolve) => {
    finish = resolve;
    const early = ended.get(id);
    if (early) resolve(early);
  });
  return { turn, text, output };
}

export async function main(argv: string[]): Promise<number> {
  const args = parseReviewArgs(argv);
  if ('help' in args) {
    process.stdout.write(REVIEW_USAGE);
    return 0;
  }
  if ('error' in args) {
    process.stderr.write(`tiller review: ${args.error}. Try 'tiller review --help'.\n`);
    return EXIT_USAGE;
  }
  const overrides = checkOverrides(args.config);
  if (overrides.error !== null) {
    process.stderr.write(`tiller review: ${overrides.error}\n`);
    return EXIT_USAGE;
  }
  if (args.cd !== undefined) {
    const problem = changeDirectory(args.cd);
    if (problem !== null) {
      process.stderr.write(`tiller review: -C: ${problem}\n`);
      return EXIT_USAGE;
    }
  }
  let target = args.target;
  if (target === null && args.prompt !== null) {
    const instructions = args.prompt === '-' ? await readStdin() : args.prompt;
    if (instructions.trim() === '') {
      process.stderr.write('tiller review: the review instructions are empty\n');
      return EXIT_USAGE;
    }
    target = { type: 'custom', instructions };
  }
  target ??= { type: 'uncommittedChanges' };
  const config = loadConfigOrReport({
    approvalPolicy: 'never',
    sandboxMode: 'read-only',
    ...(args.model !== undefined ? { model: args.model } : {}),
    ...(args.profile !== undefined ? { profile: args.profile } : {}),
    ...(args.baseUrl !== undefined ? { baseUrl: args.baseUrl } : overrides.baseUrl !== undefined ? { baseUrl: overrides.baseUrl } : {}),
    ...(Object.keys(overrides.table).length > 0 ? { config: overrides.table } : {}),
    ...(process.env.CODEX_API_KEY ? { apiKey: process.env.CODEX_API_KEY } : {}),
  });
  if (config === null) return EXIT_USAGE;
  const server = createInProcessAppServer({ config, cwd: process.cwd(), mcpAwaitStartup: true, source: 'exec' });
  try {
    const { turn, text, output } = await runReview(server, target);
    if (turn.status !== 'completed') {
      process.stderr.write(`tiller: review failed: ${turn.error ? errorText(turn.error) : turn.status}\n`);
      return turn.status === 'failed' ? failedTurnExitCode(turn.error) : EXIT_TURN_FAILED;
    }
    if (args.json) process.stdout.write(`${JSON.stringify(output ?? parseReviewOutput(text ?? ''))}\n`);
    else process.stdout.write(`${text ?? ''}\n`);
    return 0;
  } catch (error) {
    process.stderr.write(`tiller review: ${redactSecrets(errorMessage(error))}\n`);
    return EXIT_TURN_FAILED;
  } finally {
    await server.close();
  }
}
