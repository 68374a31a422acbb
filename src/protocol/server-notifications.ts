/** The server → client notifications of app-server v2: each method's params, in `ServerNotificationMap`. */
import type { TillerTurnCheckpointNotification } from './checkpoints.js';
import type { TillerDelivery, TillerPendingInputsReturned } from './pending-input.js';
import type { TillerReviewOutput } from './review.js';
import type { Thread, ThreadItem, TokenUsageBreakdown, Turn, TurnError, TurnPlanStep } from './thread.js';

export interface ServerNotificationMap {
  'thread/started': { thread: Thread };
  /** Codex's: thread/name/set named it. */
  'thread/name/updated': { threadId: string; threadName?: string | null };
  'turn/started': { threadId: string; turn: Turn };
  'item/started': { item: ThreadItem; threadId: string; turnId: string; startedAtMs: number };
  'item/agentMessage/delta': { threadId: string; turnId: string; itemId: string; delta: string };
  'item/reasoning/textDelta': { threadId: string; turnId: string; itemId: string; delta: string };
  'item/commandExecution/outputDelta': { threadId: string; turnId: string; itemId: string; delta: string };
  /** `tillerDelivery`: Tiller's, on a `userMessage` recorded for a sampling request of this turn. */
  'item/completed': { item: ThreadItem; threadId: string; turnId: string; completedAtMs: number; tillerDelivery?: TillerDelivery };
  'turn/completed': { threadId: string; turn: Turn };
  /** Codex's: the model's plan (update_plan), whole, each time it changes. */
  'turn/plan/updated': { threadId: string; turnId: string; explanation: string | null; plan: TurnPlanStep[] };
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
  /** Tiller's: the structured findings of a review turn, sent just before its `exitedReviewMode` item. */
  'tiller/reviewOutput': TillerReviewOutput;
  /** Tiller's: the turn's checkpoint, at its start and again at its end with the files commands changed. */
  'tiller/turn/checkpoint': TillerTurnCheckpointNotification;
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
