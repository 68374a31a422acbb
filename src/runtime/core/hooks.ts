/**
 * UserPromptSubmit hooks (docs/codex-parity.md#userpromptsubmit-hooks): each configured shell command gets the request as JSON
 * on stdin and may answer JSON on stdout `{decision?: "block", reason?, additionalContext?}`.
 * Exit code 2 blocks too (the reason is stderr). Other failures are reported and ignored.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { HookRunSummary } from '../../protocol/api.js';
import { killProcessGroup, trackProcessGroup } from '../commands/process-groups.js';

export interface UserPromptSubmitRequest {
  session_id: string;
  turn_id: string;
  cwd: string;
  transcript_path: string | null;
  model: string;
  permission_mode: 'default' | 'bypassPermissions';
  prompt: string;
}

export interface HookOutcome {
  blocked: boolean;
  /** Why it blocked, or what went wrong running a hook; never the prompt. */
  message: string | null;
  additionalContexts: string[];
}

const HOOK_TIMEOUT_MS = 60_000;
const MAX_HOOK_OUTPUT = 1024 * 1024;

interface RawRun {
  code: number | null;
  stdout: string;
  stderr: string;
  error: string | null;
}

function runHookCommand(command: string, input: string, cwd: string, signal: AbortSignal): Promise<RawRun> {
  return new Promise((resolve) => {
    const child = spawn('/bin/sh', ['-c', command], { cwd, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    let stdout = '';
    let stderr = '';
    const untrack = child.pid !== undefined ? trackProcessGroup(child.pid) : () => undefined;
    const kill = (): void => {
      if (child.pid !== undefined) killProcessGroup(child.pid);
    };
    const timer = setTimeout(kill, HOOK_TIMEOUT_MS);
    signal.addEventListener('abort', kill, { once: true });
    child.stdout.on('data', (d: Buffer) => {
      if (stdout.length < MAX_HOOK_OUTPUT) stdout += d.toString('utf8');
    });
    child.stderr.on('data', (d: Buffer) => {
      if (stderr.length < MAX_HOOK_OUTPUT) stderr += d.toString('utf8');
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(input);
    const done = (run: RawRun): void => {
      untrack();
      clearTimeout(timer);
      signal.removeEventListener('abort', kill);
      resolve(run);
    };
    child.on('error', (error) => done({ code: null, stdout, stderr, error: error.message }));
    child.on('close', (code) => done({ code, stdout, stderr, error: null }));
  });
}

function contextsOf(value: unknown): string[] {
  if (typeof value === 'string') return value.length > 0 ? [value] : [];
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string' && v.length > 0);
  return [];
}

/** Interprets one hook run. Exported for unit tests. */
/**
 * The hooks' run as Codex's `HookRunSummary` (hook/completed): one summary for all of a turn's
 * UserPromptSubmit hooks, which come from the user's config file.
 */
export function userPromptSubmitSummary(
  outcome: HookOutcome,
  run: { turnId: string; home: string; startedAtMs: number; completedAtMs: number },
): HookRunSummary {
  return {
    id: `${run.turnId}:userPromptSubmit`,
    eventName: 'userPromptSubmit',
    handlerType: 'command',
    executionMode: 'sync',
    scope: 'turn',
    source: 'user',
    sourcePath: join(run.home, 'config.toml'),
    displayOrder: 0,
    status: outcome.blocked ? 'blocked' : 'completed',
    statusMessage: outcome.message,
    startedAt: Math.floor(run.startedAtMs / 1000),
    completedAt: Math.floor(run.completedAtMs / 1000),
    durationMs: run.completedAtMs - run.startedAtMs,
    entries: [],
  };
}

export function interpretHookRun(run: RawRun): HookOutcome {
  if (run.error !== null) return { blocked: false, message: `hook failed to start: ${run.error}`, additionalContexts: [] };
  if (run.code === 2) return { blocked: true, message: run.stderr.trim() || 'blocked by a UserPromptSubmit hook', additionalContexts: [] };
  const text = run.stdout.trim();
  let parsed: unknown = null;
  if (text.length > 0) {
    try {
      parsed = JSON.parse(text);
    } catch {
      // Plain text on stdout is context, like Codex's plain-output hooks.
      return {
        blocked: false,
        message: run.code === 0 ? null : `hook exited with code ${run.code}`,
        additionalContexts: run.code === 0 ? [text] : [],
      };
    }
  }
  if (run.code !== 0) return { blocked: false, message: `hook exited with code ${run.code}`, additionalContexts: [] };
  if (typeof parsed !== 'object' || parsed === null) return { blocked: false, message: null, additionalContexts: [] };
  const answer = parsed as { decision?: unknown; reason?: unknown; additionalContext?: unknown };
  const blocked = answer.decision === 'block';
  const reason = typeof answer.reason === 'string' && answer.reason.length > 0 ? answer.reason : null;
  return {
    blocked,
    message: blocked ? (reason ?? 'blocked by a UserPromptSubmit hook') : reason,
    additionalContexts: contextsOf(answer.additionalContext),
  };
}

/** Runs every hook in order; the first block stops the rest. Contexts accumulate. */
export async function runUserPromptSubmitHooks(
  commands: readonly string[],
  request: UserPromptSubmitRequest,
  signal: AbortSignal,
): Promise<HookOutcome> {
  const contexts: string[] = [];
  const messages: string[] = [];
  const input = JSON.stringify(request);
  for (const command of commands) {
    const outcome = interpretHookRun(await runHookCommand(command, input, request.cwd, signal));
    contexts.push(...outcome.additionalContexts);
    if (outcome.blocked) return { blocked: true, message: outcome.message, additionalContexts: contexts };
    if (outcome.message !== null) messages.push(outcome.message);
  }
  return { blocked: false, message: messages.length > 0 ? messages.join('; ') : null, additionalContexts: contexts };
}
