/** What a Session is made with: its config, model client, context and the client it asks and tells. */
import type {
  CommandApprovalDecision,
  FileChangeApprovalResult,
  ServerNotification,
  ServerRequestMap,
  TokenUsageBreakdown,
  ToolRequestUserInputResponse,
} from '../../protocol/api.js';
import type { TillerTurnCheckpoint } from '../../protocol/checkpoints.js';
import type { ResponseItem } from '../../protocol/response-items.js';
import type { UserInput } from '../../protocol/user-input.js';
import type { TillerConfig } from '../config.js';
import type { McpManager } from '../mcp/manager.js';
import type { ModelClient } from '../model/types.js';
import type { HistorySink } from './history-sink.js';
import type { HistoryEntry } from './history.js';
import type { ApprovalParams, FileChangeApprovalParams } from './turn-services.js';
import type { TurnContext } from './turn-state.js';

export interface SessionOptions {
  config: TillerConfig;
  modelClient: ModelClient;
  context: TurnContext;
  emit: (notification: ServerNotification) => void;
  /** Asks the client; rejects or `cancel` → the command is not run. */
  requestApproval: (params: ApprovalParams, signal: AbortSignal) => Promise<CommandApprovalDecision>;
  /** Asks the client the model's questions; rejects when nobody answers. Absent: nobody can. */
  requestUserInput?: (
    params: ServerRequestMap['item/tool/requestUserInput']['params'],
    signal: AbortSignal,
  ) => Promise<ToolRequestUserInputResponse>;
  /** Asks the client about a patch; absent: nobody can be asked, so a patch that must ask is not written. */
  requestFileChangeApproval?: (params: FileChangeApprovalParams, signal: AbortSignal) => Promise<FileChangeApprovalResult>;
  threadId?: string;
  queueCapacity?: number;
  /** Retry delay for attempt n when the server gives none (tests make it short). */
  backoffMs?: (attempt: number) => number;
  /** Sent before the history in every request (after the base brief), kept through compaction (the AGENTS.md message). */
  initialContext?: ResponseItem[];
  now?: () => number;
  /** Local media preparation longer than this is announced (turn/mediaPreparation); 0 = always. */
  mediaPreparationNoticeMs?: number;
  /** Converts user input to model items, reading local media (tests inject a slow one). */
  prepareUserInput?: (content: UserInput[]) => Promise<ResponseItem[]>;
  /** The app server's MCP servers (shared by its threads); none: no MCP tools, every mention unavailable. */
  mcp?: McpManager;
  /** Turns wait for every MCP server still starting before they sample (`tiller exec`). */
  mcpAwaitStartup?: boolean;
  historySink?: HistorySink;
  /**
   * A resumed thread's history (kept as given, not copied entry by entry). A promise (never
   * rejected) while it is still being read: no submission runs before it is in.
   */
  initialHistory?: HistoryEntry[] | Promise<HistoryEntry[]>;
  /** A resumed thread's token usage so far. */
  initialUsage?: TokenUsageBreakdown;
  /** A resumed thread's checkpoints (its rollout's), so it can still rewind. */
  initialCheckpoints?: TillerTurnCheckpoint[];
}
