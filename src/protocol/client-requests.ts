/**
 * The client → server requests of app-server v2 (camelCase, docs/codex-parity.md#app-server): each
 * method's params and result, and `ClientRequestMap`, which ties them to the method's name.
 */
import type {
  TillerCheckpointsDiffParams,
  TillerCheckpointsDiffResult,
  TillerCheckpointsListParams,
  TillerCheckpointsListResult,
  TillerCheckpointsRestoreParams,
  TillerCheckpointsRedoParams,
  TillerCheckpointsRestoreResult,
} from './checkpoints.js';
import type { TillerInputReport } from './input-report.js';
import type {
  ListMcpServerStatusParams,
  ListMcpServerStatusResult,
  McpServerRefreshParams,
  McpServerRefreshResult,
} from './mcp-server-status.js';
import type { TillerPendingInputEditParams, TillerPendingInputEditResult } from './pending-input.js';
import type { ApprovalPolicy, ReasoningEffort, SandboxMode, SandboxPolicy } from './settings.js';
import type { Thread, TokenUsageBreakdown, Turn, TurnKind } from './thread.js';
import type { V2UserInput } from './v2-user-input.js';

export interface InitializeParams {
  clientInfo: { name: string; version: string; title?: string | null };
  /**
   * Codex's: `optOutNotificationMethods` are not sent to this client. Tiller's `tillerExtensions`:
   * send `tiller/*` notifications and `tiller*` fields too (without it a client sees Codex's shapes only).
   */
  capabilities?: {
    experimentalApi?: boolean | null;
    optOutNotificationMethods?: string[] | null;
    tillerExtensions?: boolean | null;
  } | null;
}
export interface InitializeResult {
  userAgent: string;
  /** Codex's `$CODEX_HOME`: Tiller's home (TILLER_HOME). */
  codexHome: string;
  /** `unix` or `windows`, as Codex. */
  platformFamily: 'unix' | 'windows';
  /** `linux`, `macos`, `windows`, … as Rust's `std::env::consts::OS`. */
  platformOs: string;
}

export interface ThreadStartParams {
  model?: string | null;
  cwd?: string | null;
  approvalPolicy?: ApprovalPolicy | null;
  sandbox?: SandboxMode | null;
  /** Keep the thread in memory only: no rollout, not resumable. */
  ephemeral?: boolean | null;
}
export interface ThreadStartResult {
  thread: Thread;
  model: string;
  /** The provider label (`offline` for the embedded model), as `thread.modelProvider`. */
  modelProvider: string;
  cwd: string;
  approvalPolicy: ApprovalPolicy;
  /** Codex's: who answers approval requests; in Tiller always the user. */
  approvalsReviewer: 'user';
  sandbox: SandboxPolicy;
  reasoningEffort: ReasoningEffort | null;
  /** Tiller's extension: the AGENTS.md files the thread's model was given, in the order sent. */
  tillerInstructions?: TillerInstructionFile[];
  /** Tiller's extension: what the user should know about them (a file cut to `project_doc_max_bytes`, one unreadable). */
  tillerWarnings?: string[];
}
/** An AGENTS.md read at thread/start: `bytes` were sent, of the file's `fileBytes` (fewer when the size cap cut it). */
export interface TillerInstructionFile {
  path: string;
  bytes: number;
  fileBytes: number;
}

export interface TurnStartParams {
  threadId: string;
  input: V2UserInput[];
  cwd?: string | null;
  approvalPolicy?: ApprovalPolicy | null;
  sandboxPolicy?: SandboxPolicy | null;
  model?: string | null;
  /** The reasoning effort for this turn and the ones after it (as Codex). Absent or null: the thread's stays. */
  effort?: ReasoningEffort | null;
  /** Tiller's extension: clear the thread's effort, so no `reasoning` is sent (wins over `effort`). */
  tillerClearEffort?: boolean | null;
  /** Start a non-steerable turn of this kind instead of a regular one (`/compact`). */
  kind?: TurnKind | 'regular' | null;
  /** A JSON Schema the turn's final message must follow: sent as the Responses request's `text.format` (as Codex). */
  outputSchema?: Record<string, unknown> | null;
  /** Tiller's: the input's id (its `userMessage` item id), for `tiller/pendingInput/edit`. */
  tillerClientId?: string | null;
  /** Tiller's: this turn and the ones after it go to this provider (an id model/list's `tillerProvider` gave). */
  tillerModelProvider?: string | null;
}
export interface TurnStartResult {
  turn: Turn;
}

export interface TurnSteerParams {
  threadId: string;
  input: V2UserInput[];
  expectedTurnId: string;
  /** Tiller's: as on turn/start. */
  tillerClientId?: string | null;
}
export interface TurnSteerResult {
  turnId: string;
}

export interface TurnInterruptParams {
  threadId: string;
  turnId: string;
}
export type TurnInterruptResult = Record<string, never>;

export interface ModelListParams {
  /** Where the previous page ended (its `nextCursor`). */
  cursor?: string | null;
  limit?: number | null;
  /** Tiller's: the models of every configured provider, each entry naming its `tillerProvider`. */
  tillerProviders?: boolean | null;
}
/** One of Codex's `ReasoningEffortOption`s of a model. */
export interface ReasoningEffortOption {
  reasoningEffort: ReasoningEffort;
  description: string;
}
/**
 * One model the provider serves (Codex's v2 `Model`). The Models API does not say which efforts a
 * model takes, so `supportedReasoningEfforts` lists every effort Tiller can send (docs/codex-parity.md#different-on-purpose).
 * Left out (optional in Codex's schema): `upgrade`, `inputModalities`, `serviceTiers`.
 */
export interface Model {
  id: string;
  /** The name turn/start takes as `model`. */
  model: string;
  displayName: string;
  description: string;
  /** Tiller lists no model it would hide. */
  hidden: boolean;
  supportedReasoningEfforts: ReasoningEffortOption[];
  /** The config's `model_reasoning_effort`; else `medium`, the Responses API's own when none is sent. */
  defaultReasoningEffort: ReasoningEffort;
  /** The model Tiller uses when none is asked for (the config's). */
  isDefault: boolean;
  /** Tiller's (model/list with `tillerProviders`): the provider id turn/start's `tillerModelProvider` takes, and its name. */
  tillerProvider?: string;
  tillerProviderName?: string;
}
export interface ModelListResult {
  data: Model[];
  nextCursor: string | null;
  /**
   * Tiller's extension: why this is not the provider's own list (its `GET /models` failed or was
   * empty, so this is the config's `models`, else the configured model); null when it is.
   */
  note: string | null;
}

/** `cwd`: one directory or several; a thread matches when its cwd is one of them. */
export interface ThreadListParams {
  cursor?: string | null;
  limit?: number | null;
  cwd?: string | string[] | null;
  /** A substring of the thread's preview (its first user message), case-insensitive. */
  searchTerm?: string | null;
  /** Only threads started by these clients; absent or empty: all of them (Codex defaults to the interactive ones). */
  sourceKinds?: Thread['source'][] | null;
}
export interface ThreadListResult {
  /** Newest first (by createdAt); `turns` is empty. */
  data: Thread[];
  nextCursor: string | null;
}

export interface ThreadReadParams {
  threadId: string;
  includeTurns?: boolean | null;
}
export interface ThreadReadResult {
  thread: Thread;
}

export interface ThreadResumeParams {
  threadId: string;
  model?: string | null;
  cwd?: string | null;
  approvalPolicy?: ApprovalPolicy | null;
  sandbox?: SandboxMode | null;
  /** Only metadata; `thread.turns` stays empty. */
  excludeTurns?: boolean | null;
  /** Tiller's extension: only the last this many turns come with their items; earlier ones are `itemsView: 'notLoaded'`. */
  tillerTurnsLimit?: number | null;
}
/** Shared by thread/resume and thread/fork: the loaded thread (with its turns) and its settings, as thread/start's. */
export interface ThreadResumeResult extends ThreadStartResult {
  /** Tiller's extension: the token usage recorded so far (null when none was). */
  tillerTokenUsage?: { total: TokenUsageBreakdown; last: TokenUsageBreakdown } | null;
  /** Tiller's extension: what the user should know about the file read (a torn last line skipped, …). */
  tillerRolloutWarnings?: string[];
}

export interface ThreadForkParams {
  threadId: string;
  /** Fork through this turn, inclusive; later turns are left out. Absent: the whole thread. */
  lastTurnId?: string | null;
  /** Tiller's extension: fork up to this turn, exclusive (editing the first message of a turn: it may be the thread's first). */
  tillerBeforeTurnId?: string | null;
  model?: string | null;
  cwd?: string | null;
  approvalPolicy?: ApprovalPolicy | null;
  sandbox?: SandboxMode | null;
  ephemeral?: boolean | null;
  excludeTurns?: boolean | null;
  tillerTurnsLimit?: number | null;
}
export type ThreadForkResult = ThreadResumeResult;

/** Drops `beforeTurnId` and every later turn from the loaded thread's history (the rollout records it). */
export interface ThreadRevertParams {
  threadId: string;
  beforeTurnId: string;
}
export interface ThreadRevertResult {
  /** `turns` is empty. */
  thread: Thread;
}

/** Codex's compact turn on the thread (Tiller's turn/start `kind: 'compact'`); answered once the turn is queued. */
export interface ThreadCompactStartParams {
  threadId: string;
}
export type ThreadCompactStartResult = Record<string, never>;

/** Codex's `ReviewTarget`: what a review looks at. */
export type CodexReviewTarget =
  | { type: 'uncommittedChanges' }
  | { type: 'baseBranch'; branch: string }
  | { type: 'commit'; sha: string; title?: string | null }
  | { type: 'custom'; instructions: string };

/**
 * Codex's targets, and Tiller's (clients with `tillerExtensions` only): `tiller/sessionChanges`, what
 * the agent changed in the thread (its checkpoints), or in the saved session `threadId`.
 */
export type ReviewTarget = CodexReviewTarget | { type: 'tiller/sessionChanges'; threadId?: string | null };

/** Codex's `review/start`: reviews run inline on the thread (`delivery` absent or `inline`). */
export interface ReviewStartParams {
  threadId: string;
  target: ReviewTarget;
  delivery?: 'inline' | null;
}
export interface ReviewStartResult {
  /** The review turn, its `items` the user message naming the review. */
  turn: Turn;
  /** The thread the review runs on: the same thread for an inline review. */
  reviewThreadId: string;
}

/**
 * Codex's `!cmd` method: runs as tiller/shellCommand does (in the thread's sandbox, unlike Codex) and
 * answers when the command has ended, with Tiller's result as `tillerShellCommand`.
 */
export interface ThreadShellCommandParams {
  threadId: string;
  command: string;
  /** Stop the command after this long; default one hour, as Codex. */
  timeoutMs?: number | null;
}
export interface ThreadShellCommandResult {
  tillerShellCommand: TillerShellCommandResult;
}

/** Tiller's extension: a `!cmd` the user typed, run in the thread's sandbox and recorded for the model. */
export interface TillerShellCommandParams {
  threadId: string;
  command: string;
}
export interface TillerShellCommandResult {
  exitCode: number | null;
  output: string;
  durationMs: number;
  /** `unavailable`: a sandbox was asked for, none can be had here, and the command ran without one. */
  sandbox: 'confined' | 'none' | 'unavailable';
  /** The sandbox stopped it (the output says how). */
  sandboxDenied: boolean;
}

/** Tiller's extension: what the next request would carry for this input (/inspect, `tiller inspect --report`). */
export interface TillerInspectInputParams {
  /** The thread whose conversion is used; absent or null (no thread yet): the runtime's own. */
  threadId?: string | null;
  input: V2UserInput[];
}

/** Codex's: names the session (shown in the resume picker; `tiller resume NAME`). */
export interface ThreadSetNameParams {
  threadId: string;
  name: string;
}
export type ThreadSetNameResult = Record<string, never>;

/** Tiller's extension (tillerExtensions clients only): one background exec_command session of the thread (/ps). */
export interface TillerCommandSession {
  /** The session id write_stdin names. */
  id: number;
  command: string;
  startedAtMs: number;
  runningMs: number;
  /** The last non-empty line it printed; '' before any output. */
  lastLine: string;
  /** It has exited but the model has not read its end yet. */
  exited: boolean;
  exitCode: number | null;
}
export interface TillerCommandSessionsListParams {
  threadId: string;
}
export interface TillerCommandSessionsListResult {
  /** In start order. */
  data: TillerCommandSession[];
}
export interface TillerCommandSessionsStopParams {
  threadId: string;
  /** The session to end; absent or null: every one. */
  id?: number | null;
}
export interface TillerCommandSessionsStopResult {
  /** The ids ended (empty: none had that id, or none was running). */
  stopped: number[];
}

export interface ClientRequestMap {
  initialize: { params: InitializeParams; result: InitializeResult };
  'thread/start': { params: ThreadStartParams; result: ThreadStartResult };
  'turn/start': { params: TurnStartParams; result: TurnStartResult };
  'turn/steer': { params: TurnSteerParams; result: TurnSteerResult };
  'turn/interrupt': { params: TurnInterruptParams; result: TurnInterruptResult };
  'model/list': { params: ModelListParams; result: ModelListResult };
  'thread/list': { params: ThreadListParams; result: ThreadListResult };
  'thread/read': { params: ThreadReadParams; result: ThreadReadResult };
  'thread/resume': { params: ThreadResumeParams; result: ThreadResumeResult };
  'thread/fork': { params: ThreadForkParams; result: ThreadForkResult };
  'thread/revert': { params: ThreadRevertParams; result: ThreadRevertResult };
  'tiller/shellCommand': { params: TillerShellCommandParams; result: TillerShellCommandResult };
  'thread/shellCommand': { params: ThreadShellCommandParams; result: ThreadShellCommandResult };
  'thread/compact/start': { params: ThreadCompactStartParams; result: ThreadCompactStartResult };
  'review/start': { params: ReviewStartParams; result: ReviewStartResult };
  'mcpServerStatus/list': { params: ListMcpServerStatusParams; result: ListMcpServerStatusResult };
  'mcpServer/refresh': { params: McpServerRefreshParams; result: McpServerRefreshResult };
  'tiller/pendingInput/edit': { params: TillerPendingInputEditParams; result: TillerPendingInputEditResult };
  'tiller/inspectInput': { params: TillerInspectInputParams; result: TillerInputReport };
  'thread/name/set': { params: ThreadSetNameParams; result: ThreadSetNameResult };
  'tiller/commandSessions/list': { params: TillerCommandSessionsListParams; result: TillerCommandSessionsListResult };
  'tiller/commandSessions/stop': { params: TillerCommandSessionsStopParams; result: TillerCommandSessionsStopResult };
  'tiller/checkpoints/list': { params: TillerCheckpointsListParams; result: TillerCheckpointsListResult };
  'tiller/checkpoints/restore': { params: TillerCheckpointsRestoreParams; result: TillerCheckpointsRestoreResult };
  'tiller/checkpoints/redo': { params: TillerCheckpointsRedoParams; result: TillerCheckpointsRestoreResult };
  'tiller/checkpoints/diff': { params: TillerCheckpointsDiffParams; result: TillerCheckpointsDiffResult };
}
export type ClientMethod = keyof ClientRequestMap;
