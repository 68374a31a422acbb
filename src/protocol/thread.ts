/**
 * The app-server v2 shapes of a thread (camelCase, docs/codex-parity.md#app-server): the thread, its
 * turns, their items and errors, and token usage. Results and notifications both carry them.
 */
import type { V2UserInput } from './v2-user-input.js';

export type TurnKind = 'review' | 'compact';

export type CodexErrorInfo =
  | 'contextWindowExceeded'
  | 'usageLimitExceeded'
  | 'serverOverloaded'
  | 'cyberPolicy'
  | 'internalServerError'
  | 'unauthorized'
  | 'badRequest'
  | 'threadRollbackFailed'
  | 'sandboxError'
  | 'other'
  | { httpConnectionFailed: { httpStatusCode: number | null } }
  | { responseStreamConnectionFailed: { httpStatusCode: number | null } }
  | { responseStreamDisconnected: { httpStatusCode: number | null } }
  | { responseTooManyFailedAttempts: { httpStatusCode: number | null } }
  | { activeTurnNotSteerable: { turnKind: TurnKind } };

export interface TurnError {
  message: string;
  codexErrorInfo: CodexErrorInfo | null;
  additionalDetails: string | null;
}

export type TurnStatus = 'completed' | 'interrupted' | 'failed' | 'inProgress';

export type CommandExecutionStatus = 'inProgress' | 'completed' | 'failed' | 'declined';

/**
 * Codex's parsed `commandActions` of a command. Tiller does not classify commands, so it sends one
 * `unknown` action with the whole command (docs/codex-parity.md#app-server).
 */
export type CommandAction =
  | { type: 'read'; command: string; name: string; path: string }
  | { type: 'listFiles'; command: string; path: string | null }
  | { type: 'search'; command: string; query: string | null; path: string | null }
  | { type: 'unknown'; command: string };

/** Tiller's `commandActions`: the whole command, unclassified. */
export function commandActionsOf(command: string): CommandAction[] {
  return [{ type: 'unknown', command }];
}

export type McpToolCallStatus = 'inProgress' | 'completed' | 'failed';
/** What an MCP tool gave back (Codex's v2 `McpToolCallResult`): its content blocks as sent (text capped, large binary data left out). */
export interface McpToolCallResult {
  content: unknown[];
  structuredContent: unknown | null;
}

export type PatchApplyStatus = 'inProgress' | 'completed' | 'failed' | 'declined';
/** Codex's v2 `PatchChangeKind`: `move_path` (snake_case on this wire, as Codex sends it) is the update's new path. */
export type PatchChangeKind = { type: 'add' } | { type: 'delete' } | { type: 'update'; move_path: string | null };
/** One file of a patch: its absolute path, and `diff`: an added or deleted file's text, or an update's unified diff. */
export interface FileUpdateChange {
  path: string;
  kind: PatchChangeKind;
  diff: string;
}

export type ThreadItem =
  | { type: 'userMessage'; id: string; content: V2UserInput[] }
  | { type: 'agentMessage'; id: string; text: string }
  | { type: 'reasoning'; id: string; summary: string[]; content: string[] }
  | {
      type: 'commandExecution';
      id: string;
      command: string;
      commandActions: CommandAction[];
      cwd: string;
      status: CommandExecutionStatus;
      aggregatedOutput: string | null;
      exitCode: number | null;
      durationMs: number | null;
    }
  | {
      /** A call of an MCP server's tool (Codex's v2 item). `isError` results are `failed` with `result` kept. */
      type: 'mcpToolCall';
      id: string;
      server: string;
      tool: string;
      status: McpToolCallStatus;
      arguments: unknown;
      result: McpToolCallResult | null;
      error: { message: string } | null;
      durationMs: number | null;
    }
  /** Codex's: the model looked at a local image (view_image); `path` as resolved against the cwd. */
  | { type: 'imageView'; id: string; path: string }
  /** Codex's: a hosted web search the server ran (a `web_search_call` output item). */
  | { type: 'webSearch'; id: string; query: string; action: WebSearchAction | null }
  /** An apply_patch call (Codex's v2 item): started before any approval, completed once written, failed or declined. */
  | { type: 'fileChange'; id: string; changes: FileUpdateChange[]; status: PatchApplyStatus }
  | { type: 'contextCompaction'; id: string }
  /** Codex's: a review turn began; `review` is what it reviews ("current changes", "commit abc1234: …"). */
  | { type: 'enteredReviewMode'; id: string; review: string }
  /** Codex's: a review turn ended; `review` is the rendered review (review/output.ts). */
  | { type: 'exitedReviewMode'; id: string; review: string };

/** Codex's v2 `WebSearchAction` (camelCase tags). */
export type WebSearchAction =
  | { type: 'search'; query: string | null; queries: string[] | null }
  | { type: 'openPage'; url: string | null }
  | { type: 'findInPage'; url: string | null; pattern: string | null }
  | { type: 'other' };

/** Codex's `TurnPlanStep` of `turn/plan/updated`. */
export type TurnPlanStepStatus = 'pending' | 'inProgress' | 'completed';
export interface TurnPlanStep {
  step: string;
  status: TurnPlanStepStatus;
}

export interface Turn {
  id: string;
  items: ThreadItem[];
  itemsView: 'notLoaded' | 'summary' | 'full';
  status: TurnStatus;
  error: TurnError | null;
  startedAt: number | null;
  completedAt: number | null;
  durationMs: number | null;
}

/** Codex's `ThreadStatus`: a thread loaded in this server is `idle` or `active`; one only on disk is `notLoaded`. */
export type ThreadStatus = { type: 'notLoaded' } | { type: 'idle' } | { type: 'active'; activeFlags: string[] } | { type: 'systemError' };

export interface Thread {
  id: string;
  /** Model in use and the provider label (`offline` for the embedded model). */
  model: string;
  modelProvider: string;
  cwd: string;
  /** Unix seconds. */
  createdAt: number;
  /** Unix seconds of the last recorded change. */
  updatedAt: number;
  /** The first user message (text, cut), `''` before there is one. */
  preview: string;
  /** Tiller's version that created the thread. */
  cliVersion: string;
  /** True for a thread that is never written to disk (thread/start or thread/fork with `ephemeral`). */
  ephemeral: boolean;
  status: ThreadStatus;
  /** Codex: threads of one session tree share it; Tiller: the thread's own id (or the id it was forked from). */
  sessionId: string;
  projectId: string | null;
  /** Codex's `SessionSource`: `cli` (the TUI), `exec`, `appServer`. */
  source: 'cli' | 'exec' | 'appServer' | 'vscode' | 'unknown';
  /** The rollout file, when there is one. */
  path: string | null;
  forkedFromId: string | null;
  name: string | null;
  /** Filled only by thread/read (`includeTurns`), thread/resume and thread/fork; `[]` elsewhere. */
  turns: Turn[];
  /** Tiller's extension: how many turns the thread has; null when a listing could not tell without reading the whole file. */
  tillerTurnCount?: number | null;
}

export interface TokenUsageBreakdown {
  inputTokens: number;
  cachedInputTokens: number;
  outputTokens: number;
  reasoningOutputTokens: number;
  /** Input plus output tokens, as the Responses API's `total_tokens`. */
  totalTokens: number;
  /** Input tokens written to the prompt cache; Codex's schema defaults it to 0 (absent in older rollouts). */
  cacheWriteInputTokens?: number;
}
