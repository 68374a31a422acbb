/**
 * What a running turn's task may use of its thread (run-turn.ts, compact-task.ts, sampling.ts,
 * a tool's handle, context/input-context.ts, mcp/turn.ts). The Session implements it bound to one turn, so
 * a task never holds the Session: it can neither reach another turn nor record or emit once its
 * own turn has ended.
 */
import type {
  CommandApprovalDecision,
  FileChangeApprovalResult,
  ServerRequestMap,
  ToolRequestUserInputResponse,
} from '../../protocol/api.js';
import type { ResponseItem } from '../../protocol/response-items.js';
import type { TurnInputRequest } from '../../protocol/turn-input.js';
import type { UserInput } from '../../protocol/user-input.js';
import type { TillerConfig } from '../config.js';
import type { ExecSessionStore } from '../commands/sessions/session-store.js';
import type { McpManager } from '../mcp/manager.js';
import type { ModelClient, TokenUsage } from '../model/types.js';
import type { HistoryEntry } from './history.js';
import type { TurnEvents } from './turn-events.js';

/** What the core asks; the app server adds the request's time and the command's actions. */
export type ApprovalParams = Omit<ServerRequestMap['item/commandExecution/requestApproval']['params'], 'startedAtMs' | 'commandActions'>;
/** A patch's approval, as the core asks it (apply_patch); the app server adds the request's time. */
export type FileChangeApprovalParams = Omit<ServerRequestMap['item/fileChange/requestApproval']['params'], 'startedAtMs'>;

/** What the core asks the user (request_user_input); the thread and turn are added by the session. */
export type UserInputParams = Omit<ServerRequestMap['item/tool/requestUserInput']['params'], 'threadId' | 'turnId'>;

/** What the user allowed for the rest of the thread, and what they were told once. */
export interface SessionApprovals {
  /** The argv of each command accepted "for session" (approval.ts). */
  readonly commands: string[][];
  /** The argv of each command let run outside the sandbox for the session. */
  readonly outsideSandbox: string[][];
  /** MCP tools (`server\0tool`) accepted "for session". */
  readonly mcpTools: Set<string>;
  /** Files whose patches the user accepted "for session" (resolved paths). */
  readonly patchPaths: Set<string>;
  /** The user has been told this machine has no sandbox. */
  sandboxUnavailableTold: boolean;
}

/** The model the turn context was last sent for; null: none sent in this session yet. */
export interface SentContext {
  model: string | null;
}

export interface TurnServices {
  readonly threadId: string;
  readonly config: TillerConfig;
  readonly now: () => number;
  /** This turn's notifications. */
  readonly events: TurnEvents;

  readonly modelClient: ModelClient;
  /** The model the turn context was last sent for (context/turn-context.ts). */
  readonly sentContext: SentContext;
  /** Sent before the history in every request, after the base brief (the AGENTS.md message). */
  readonly initialContext: readonly ResponseItem[];
  /** The model-visible history; every request is built from all of it. */
  readonly history: readonly HistoryEntry[];
  /** Retry delay for attempt n when the server gives none. */
  backoffMs(attempt: number): number;
  /** Adds a response's usage to the thread's total and reports both. */
  addUsage(usage: TokenUsage): void;

  record(entry: HistoryEntry): void;
  /** Replaces the whole history (compaction). */
  replaceHistory(entries: HistoryEntry[]): void;
  /** Takes the turn's deliverable steered input; an edit submitted before it applies first. */
  takePendingInput(): Promise<TurnInputRequest[]>;
  /** Converts user input to model items, reading local media. */
  prepareUserInput(content: UserInput[]): Promise<ResponseItem[]>;
  /** Local media preparation longer than this is announced (turn/mediaPreparation); 0 = always. */
  readonly mediaPreparationNoticeMs: number;

  /** Asks the client, for this turn; rejects when nobody can answer. */
  requestApproval(request: Omit<ApprovalParams, 'threadId' | 'turnId'>): Promise<CommandApprovalDecision>;
  /** Asks the client about the patch of the fileChange item `itemId`; rejects when nobody can answer. */
  requestFileChangeApproval(request: Omit<FileChangeApprovalParams, 'threadId' | 'turnId'>): Promise<FileChangeApprovalResult>;
  readonly approvals: SessionApprovals;
  /** The thread's exec sessions (exec_command / write_stdin); they outlive the turn. */
  readonly execSessions: ExecSessionStore;
  /** Asks the user the model's questions, for this turn; rejects when nobody can answer or the turn ends. */
  requestUserInput(request: UserInputParams): Promise<ToolRequestUserInputResponse>;
  /** Stops the turn as if the user interrupted it (an approval answered `cancel`). */
  requestInterrupt(): void;
  /** The app server's MCP servers; null: no MCP tools, every mention unavailable. */
  readonly mcp: McpManager | null;
  /** Wait for every MCP server still starting before sampling (`tiller exec`). */
  readonly mcpAwaitStartup: boolean;
}
