/** The server → client requests of app-server v2: the approvals a turn waits for, in `ServerRequestMap`. */
import type { CommandAction } from './thread.js';

export type CommandApprovalDecision = 'accept' | 'acceptForSession' | 'decline' | 'cancel';

/** Codex's `FileChangeApprovalDecision`. */
export type FileChangeApprovalDecision = CommandApprovalDecision;

/**
 * Tiller's (a client with `tillerExtensions` only): the user's choice for one file of an accepted
 * patch. `path` is the file's path in the `fileChange` item; `content`, the file as the user edited
 * the proposed content (applied instead of the patch's). A file the list does not name is accepted.
 */
export interface TillerFileDecision {
  path: string;
  decision: 'accept' | 'decline';
  content?: string;
}

/** The answer to a patch's approval: Codex's `decision`, and Tiller's per-file choices. */
export interface FileChangeApprovalResult {
  decision: FileChangeApprovalDecision;
  tillerFiles?: TillerFileDecision[];
}

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
  /** A patch asks to be applied: its diff is in the `fileChange` item `itemId`, started just before. */
  'item/fileChange/requestApproval': {
    params: {
      threadId: string;
      turnId: string;
      itemId: string;
      startedAtMs: number;
      reason: string | null;
      /** Asks to write under this root for the rest of the session; Tiller sends null. */
      grantRoot: string | null;
    };
    result: FileChangeApprovalResult;
  };
  /** Codex's: the model's request_user_input questions; the answers map each question id to the labels picked. */
  'item/tool/requestUserInput': {
    params: {
      threadId: string;
      turnId: string;
      itemId: string;
      questions: ToolRequestUserInputQuestion[];
      /** Codex 0.171's: the turn waits for the answer (always, in Tiller). */
      isBlocking: boolean;
      /** Codex's deprecated auto-answer delay; Tiller sends null. */
      autoResolutionMs: number | null;
    };
    result: ToolRequestUserInputResponse;
  };
}

export interface ToolRequestUserInputOption {
  label: string;
  description: string;
}

export interface ToolRequestUserInputQuestion {
  id: string;
  header: string;
  question: string;
  /** Codex sets it on every question: the client may offer a free-form answer. */
  isOther: boolean;
  isSecret: boolean;
  options: ToolRequestUserInputOption[] | null;
}

export interface ToolRequestUserInputResponse {
  answers: Record<string, { answers: string[] }>;
}
export type ServerRequestMethod = keyof ServerRequestMap;
export type ServerRequest = {
  [M in ServerRequestMethod]: { method: M; params: ServerRequestMap[M]['params'] };
}[ServerRequestMethod];
