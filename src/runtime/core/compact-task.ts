/**
 * The compact turn (`/compact`): asks the model to summarize the conversation and replaces the
 * history with that summary. It cannot be steered.
 */
import { userTextItem } from './history.js';
import { newId } from './ids.js';
import { runSamplingRequest, TurnAborted, TurnFailed } from './sampling.js';
import type { Session } from './session.js';
import type { ActiveTurn, TurnOutcome } from './turn-state.js';

export const COMPACT_PROMPT =
  'Summarize the conversation so far for a continuation of this session: the user\'s goals, decisions made, facts learned, commands run and their results, and what remains to do. Be concise; plain text.';
export const SUMMARY_PREFIX = 'Summary of the conversation so far:\n';

export async function runCompactTask(session: Session, turn: ActiveTurn): Promise<TurnOutcome> {
  const base = { threadId: session.threadId, turnId: turn.id };
  const itemId = newId();
  session.emitFor(turn, { method: 'item/started', params: { ...base, item: { type: 'contextCompaction', id: itemId }, startedAtMs: session.now() } });
  try {
    if (session.history.length === 0) {
      session.emitFor(turn, { method: 'item/completed', params: { ...base, item: { type: 'contextCompaction', id: itemId }, completedAtMs: session.now() } });
      return { status: 'completed' };
    }
    const result = await runSamplingRequest(session, turn, { tools: [], emitAgentItems: false, extraInput: [userTextItem(COMPACT_PROMPT)] });
    const summary = result.lastAgentMessage ?? '';
    session.replaceHistory(turn, [{ type: 'item', item: userTextItem(`${SUMMARY_PREFIX}${summary}`) }]);
    session.emitFor(turn, { method: 'item/completed', params: { ...base, item: { type: 'contextCompaction', id: itemId }, completedAtMs: session.now() } });
    return { status: 'completed' };
  } catch (error) {
    if (error instanceof TurnFailed) return { status: 'failed', error: error.error };
    if (error instanceof TurnAborted) return { status: 'completed' };
    throw error;
  }
}
