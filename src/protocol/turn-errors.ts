/**
 * The errors `turn/steer` and `turn/interrupt` answer with when they are not taken: Codex's code and
 * message, and what happened as data (Tiller's `tillerNotSubmitted` / `tillerInterrupt`), so a client
 * reads the reason instead of matching the words. Built by the app server, read by the TUI.
 */
import { JSONRPC_INVALID_REQUEST, JsonRpcError, type TurnError } from './api.js';
import { describeNotSubmittedReason, type NotSubmittedReason } from './turn-input.js';

export const NO_ACTIVE_TURN_TO_INTERRUPT = 'no active turn to interrupt';

/** What an interrupt that stopped nothing found. */
export type InterruptMiss = { type: 'noActiveTurn' } | { type: 'mismatch'; actual: string };

export function notSubmittedError(reason: NotSubmittedReason): JsonRpcError {
  const message = describeNotSubmittedReason(reason);
  if (reason.type === 'activeTurnNotSteerable') {
    // Codex's own data for this one.
    const data: TurnError = { message, codexErrorInfo: { activeTurnNotSteerable: { turnKind: reason.turnKind } }, additionalDetails: null };
    return new JsonRpcError(JSONRPC_INVALID_REQUEST, message, data);
  }
  return new JsonRpcError(JSONRPC_INVALID_REQUEST, message, { tillerNotSubmitted: reason });
}

export function interruptError(turnId: string, miss: InterruptMiss): JsonRpcError {
  const message = miss.type === 'noActiveTurn' ? NO_ACTIVE_TURN_TO_INTERRUPT : `expected active turn id ${turnId} but found ${miss.actual}`;
  return new JsonRpcError(JSONRPC_INVALID_REQUEST, message, { tillerInterrupt: miss });
}

/** Why a steer was not taken, from the error's data; null for any other error. */
export function notSubmittedReasonOf(error: unknown): NotSubmittedReason | null {
  if (!(error instanceof JsonRpcError)) return null;
  const data = error.data as { tillerNotSubmitted?: NotSubmittedReason } | null | undefined;
  return data?.tillerNotSubmitted ?? null;
}

/** What an interrupt that stopped nothing found, from the error's data; null for any other error. */
export function interruptMissOf(error: unknown): InterruptMiss | null {
  if (!(error instanceof JsonRpcError)) return null;
  const data = error.data as { tillerInterrupt?: InterruptMiss } | null | undefined;
  return data?.tillerInterrupt ?? null;
}
