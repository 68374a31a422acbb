/**
 * The app-server v2 wire shapes (camelCase, docs/codex-parity.md#app-server): requests, results, notifications and
 * server requests. The in-process TUI, `tiller exec` and `tiller app-server` all speak these.
 */
import type {
  TillerDelivery,
  TillerPendingInputEditParams,
  TillerPendingInputEditResult,
  TillerPendingInputsReturned,
} from './pending-input.js';
import type { TillerInputReport } from './input-report.js';
import type { V2UserInput } from './v2-user-input.js';

export type * from './pending-input.js';
export type * from './input-report.js';
export type * from './v2-user-input.js';

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
  | { type: 'contextCompaction'; id: string };

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

export type ApprovalPolicy = 'on-request' | 'never' | 'untrusted';
export const APPROVAL_POLICIES: readonly ApprovalPolicy[] = ['untrusted', 'on-request', 'never'];

/** Where a shell command may write (Codex's `SandboxMode` names). */
export type SandboxMode = 'read-only' | 'workspace-write' | 'danger-full-access';
export const SANDBOX_MODES: readonly SandboxMode[] = ['read-only', 'workspace-write', 'danger-full-access'];

/**
 * Codex's v2 `SandboxPolicy` (tagged by `type`): what `thread/start` / `turn/start` may send as
 * `sandboxPolicy`; `sandbox` there is the bare mode.
 */
export type SandboxPolicy =
  | { type: 'dangerFullAccess' }
  | { type: 'readOnly'; networkAccess?: boolean }
  | { type: 'workspaceWrite'; writableRoots?: string[]; networkAccess?: boolean; excludeTmpdirEnvVar?: boolean; excludeSlashTmp?: boolean };

/** How hard a reasoning model thinks (`model_reasoning_effort`, turn/start `effort`), sent as `reasoning.effort`. */
export type ReasoningEffort = 'minimal' | 'low' | 'medium' | 'high' | 'xhigh';
export const REASONING_EFFORTS: readonly ReasoningEffort[] = ['minimal', 'low', 'medium', 'high', 'xhigh'];
/** What each effort means, for model/list's `supportedReasoningEfforts`. */
export const REASONING_EFFORT_DESCRIPTIONS: Readonly<Record<ReasoningEffort, string>> = {
  minimal: 'Fastest answers, almost no reasoning',
  low: 'Fast answers with light reasoning',
  medium: 'Balances speed and reasoning depth',
  high: 'Deeper reasoning for complex problems',
  xhigh: 'The deepest reasoning, slowest answers',
};
/** The effort the Responses API uses when a request sends none. */
export const PROVIDER_DEFAULT_EFFORT: ReasoningEffort = 'medium';

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

// ---- client → server requests -------------------------------------------------------------

export interface InitializeParams {
  clientInfo: { name: string; version: string; title?: string | null };
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

/** Where an MCP server is (Tiller's `status`): `disabled` servers are configured with `enabled = false`. */
export type McpServerState = 'starting' | 'ready' | 'failed' | 'disabled';
/** Codex's `McpAuthStatus`. */
export type McpAuthStatus = 'unsupported' | 'notLoggedIn' | 'bearerToken' | 'oAuth';
/** An MCP tool definition as the server listed it (MCP's `Tool`). */
export interface McpTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: Record<string, unknown>;
}
export interface McpResource {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
}
export interface McpResourceTemplate {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}
/**
 * One configured server (Codex's v2 `McpServerStatus`, with Tiller's `status` and `error`). `tools`
 * are the ones offered to the model (after `enabled_tools` / `disabled_tools`), by their MCP name.
 */
export interface McpServerStatus {
  name: string;
  status: McpServerState;
  /** Why it failed (one line); absent unless `failed`. */
  error?: string;
  tools: Record<string, McpTool>;
  resources: McpResource[];
  resourceTemplates: McpResourceTemplate[];
  authStatus: McpAuthStatus;
  /** Codex's name for `error`: null unless `failed`. */
  startupError: string | null;
}
export interface ListMcpServerStatusParams {
  cursor?: string | null;
  limit?: number | null;
}
export interface ListMcpServerStatusResult {
  data: McpServerStatus[];
  nextCursor: string | null;
}
/** Starts servers that failed (or were never started) again and lists the tools of ready ones again; `name` limits it to one. */
export interface McpServerRefreshParams {
  name?: string | null;
}
export type McpServerRefreshResult = Record<string, never>;

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
  'mcpServerStatus/list': { params: ListMcpServerStatusParams; result: ListMcpServerStatusResult };
  'mcpServer/refresh': { params: McpServerRefreshParams; result: McpServerRefreshResult };
  'tiller/pendingInput/edit': { params: TillerPendingInputEditParams; result: TillerPendingInputEditResult };
  'tiller/inspectInput': { params: TillerInspectInputParams; result: TillerInputReport };
}
export type ClientMethod = keyof ClientRequestMap;

// ---- server → client notifications --------------------------------------------------------

export interface ServerNotificationMap {
  'thread/started': { thread: Thread };
  'turn/started': { threadId: string; turn: Turn };
  'item/started': { item: ThreadItem; threadId: string; turnId: string; startedAtMs: number };
  'item/agentMessage/delta': { threadId: string; turnId: string; itemId: string; delta: string };
  'item/reasoning/textDelta': { threadId: string; turnId: string; itemId: string; delta: string };
  'item/commandExecution/outputDelta': { threadId: string; turnId: string; itemId: string; delta: string };
  /** `tillerDelivery`: Tiller's, on a `userMessage` recorded for a sampling request of this turn. */
  'item/completed': { item: ThreadItem; threadId: string; turnId: string; completedAtMs: number; tillerDelivery?: TillerDelivery };
  'turn/completed': { threadId: string; turn: Turn };
  error: { error: TurnError; willRetry: boolean; threadId: string; turnId: string };
  'thread/tokenUsage/updated': {
    threadId: string;
    turnId: string;
    tokenUsage: { total: TokenUsageBreakdown; last: TokenUsageBreakdown };
  };
  /** Tiller's: `mcp://server` mentions collected for a turn (structured items and text). */
  'tiller/requiredMcpServers': { threadId: string; turnId: string; servers: string[] };
  /**
   * Codex's: the UserPromptSubmit hooks ran (one summary for all of them); `run.status` is `blocked`
   * when one blocked the prompt, `run.statusMessage` its reason. Counts only, no prompt text.
   */
  'hook/completed': { threadId: string; turnId: string; run: HookRunSummary; tillerAdditionalContexts: number };
  /**
   * Something the user should see that does not fail the turn (e.g. an attachment that could not be
   * read). `turnId` is '' when no turn caused it (an MCP server that failed to start or crashed).
   */
  warning: { threadId: string; turnId: string; message: string };
  /** Tiller's: local media of a user input is being read and encoded (sent only when it takes over 100 ms). */
  'tiller/mediaPreparation': { threadId: string; turnId: string; state: 'started' | 'finished'; count: number };
  /** Tiller's: a skill file was injected into the turn. */
  'tiller/skillInjected': { threadId: string; turnId: string; name: string; path: string };
  /**
   * Codex's: an MCP server's start-up state changed (`starting`, then `ready` or `failed` with a
   * one-line `error`; `failed` also when a ready server exits). `threadId`: the thread that started it, if any.
   */
  'mcpServer/startupStatus/updated': {
    threadId: string | null;
    name: string;
    status: 'starting' | 'ready' | 'failed';
    error: string | null;
  };
  /** Tiller's: the turn waits for an MCP server it needs (a `mcp://NAME` or `@NAME:uri` mention) to start. */
  'tiller/mcpServerStarting': { threadId: string; turnId: string; server: string };
  /** Codex's: progress an MCP server reported for a running tool call. */
  'item/mcpToolCall/progress': { threadId: string; turnId: string; itemId: string; message: string };
  /** Tiller's: sent before turn/completed when the turn ends with held inputs; the client queues them again. */
  'tiller/pendingInputsReturned': TillerPendingInputsReturned;
}
export type ServerNotificationMethod = keyof ServerNotificationMap;

/** Codex's `HookRunSummary`, as Tiller fills it for its UserPromptSubmit hooks (`sourcePath`: the config file). */
export interface HookRunSummary {
  id: string;
  eventName: 'userPromptSubmit';
  handlerType: 'command';
  executionMode: 'sync';
  scope: 'turn';
  source: 'user';
  sourcePath: string;
  displayOrder: number;
  status: 'completed' | 'blocked';
  statusMessage: string | null;
  /** Unix seconds. */
  startedAt: number;
  completedAt: number | null;
  durationMs: number | null;
  /** Always empty: the hooks' output text stays out of the wire (counts only). */
  entries: [];
}
export type ServerNotification = {
  [M in ServerNotificationMethod]: { method: M; params: ServerNotificationMap[M] };
}[ServerNotificationMethod];

// ---- server → client requests (approvals) -------------------------------------------------

export type CommandApprovalDecision = 'accept' | 'acceptForSession' | 'decline' | 'cancel';

export interface ServerRequestMap {
  'item/commandExecution/requestApproval': {
    params: {
      threadId: string;
      turnId: string;
      itemId: string;
      /** Unix milliseconds when the request was made. */
      startedAtMs: number;
      command: string;
      commandActions: CommandAction[];
      cwd: string;
      reason: string | null;
      /** Tiller's: set when the approval is for an MCP tool call (`command` then reads `server.tool({…})`). */
      tillerMcpToolCall?: { server: string; tool: string; arguments: unknown };
    };
    result: { decision: CommandApprovalDecision };
  };
}
export type ServerRequestMethod = keyof ServerRequestMap;
export type ServerRequest = {
  [M in ServerRequestMethod]: { method: M; params: ServerRequestMap[M]['params'] };
}[ServerRequestMethod];

// ---- JSON-RPC errors ----------------------------------------------------------------------

export const JSONRPC_PARSE_ERROR = -32700;
export const JSONRPC_INVALID_REQUEST = -32600;
export const JSONRPC_METHOD_NOT_FOUND = -32601;
export const JSONRPC_INVALID_PARAMS = -32602;
export const JSONRPC_INTERNAL_ERROR = -32603;
export const JSONRPC_OVERLOADED = -32001;

export class JsonRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'JsonRpcError';
  }
}

/**
 * The app server as a client sees it, in process or over stdio. Requests reject with JsonRpcError.
 */
export interface AppServerClient {
  request<M extends ClientMethod>(method: M, params: ClientRequestMap[M]['params']): Promise<ClientRequestMap[M]['result']>;
  /** Subscribe to notifications; returns the unsubscribe function. */
  onNotification(listener: (n: ServerNotification) => void): () => void;
  /** The handler that answers server requests (approvals). One handler; a later call replaces it. */
  setServerRequestHandler(
    handler: <M extends ServerRequestMethod>(req: {
      method: M;
      params: ServerRequestMap[M]['params'];
    }) => Promise<ServerRequestMap[M]['result']>,
  ): void;
  close(): Promise<void>;
}
