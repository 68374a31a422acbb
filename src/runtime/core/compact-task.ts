/**
 * The compact turn (`/compact`): asks the model to summarize the conversation and replaces the
 * history with that summary. It cannot be steered.
 */
import { userTextItem } from './history.js';
import { newId } from './ids.js';
import { runSamplingRequest } from './sampling.js';
import type { TurnServices } from './turn-services.js';
import { type ActiveTurn, TurnAborted, TurnFailed, type TurnOutcome } from './turn-state.js';

export const COMPACT_PROMPT =
  "Summarize the conversation so far for a continuation of this session: the user's goals, decisions made, facts learned, commands run and their results, and what remains to do. Be concise; plain text.";
export const SUMMARY_PREFIX = 'Summary of the conversation so far:\n';

export async function runCompactTask(services: TurnServices, turn: ActiveTurn): Promise<TurnOutcome> {
  const item = { type: 'contextCompaction' as const, id: newId() };
  services.events.itemStarted(item);
  try {
    if (services.history.length === 0) {
      services.events.itemCompleted(item);
      return { status: 'completed' };
    }
    const result = await runSamplingRequest(services, turn, {
      tools: [],
      emitAgentItems: false,
      extraInput: [userTextItem(COMPACT_PROMPT)],
    });
    const summary = result.lastAgentMessage ?? '';
    services.replaceHistory([{ type: 'item', item: userTextItem(`${SUMMARY_PREFIX}${summary}`) }]);
    services.events.itemCompleted(item);
    return { status: 'completed' };
  } catch (error) {
    if (error instanceof TurnFailed) return { status: 'failed', error: error.error };
    if (error instanceof TurnAborted) return { status: 'completed' };
    throw error;
  }
}
