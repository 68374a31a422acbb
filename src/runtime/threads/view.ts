/** The wire shapes of threads (Codex's `Thread`), and the errors the thread methods answer with. */
import { JSONRPC_INVALID_REQUEST, JsonRpcError, type Thread, type ThreadStatus, type Turn } from '../../protocol/api.js';
import type { RolloutSummary } from '../rollout/meta.js';

const seconds = (ms: number): number => Math.floor(ms / 1000);

export function threadView(
  summary: RolloutSummary,
  options: { status: ThreadStatus; path: string | null; ephemeral: boolean; turns?: Turn[] },
): Thread {
  const { header } = summary;
  return {
    id: header.threadId,
    model: summary.model,
    modelProvider: header.provider,
    cwd: summary.cwd,
    createdAt: seconds(header.createdAt),
    updatedAt: seconds(summary.updatedAt),
    preview: summary.preview,
    cliVersion: header.cliVersion,
    ephemeral: options.ephemeral,
    status: options.status,
    sessionId: header.sessionId,
    projectId: null,
    source: header.source,
    path: options.path,
    forkedFromId: header.forkedFromId,
    name: null,
    turns: options.turns ?? [],
    tillerTurnCount: summary.turnCount,
  };
}

export function noSessionError(threadId: string): JsonRpcError {
  // The data tells a client it is the id that is unknown (not a session it could not read).
  return new JsonRpcError(JSONRPC_INVALID_REQUEST, `no session with id ${threadId}`, { tillerNoSession: { threadId } });
}

export function sessionLockedError(threadId: string, pid: number): JsonRpcError {
  return new JsonRpcError(JSONRPC_INVALID_REQUEST, `session ${threadId} is open in another Tiller (pid ${pid})`, {
    tillerSessionLocked: { pid },
  });
}

export function threadRequestError(message: string): JsonRpcError {
  return new JsonRpcError(JSONRPC_INVALID_REQUEST, message);
}
