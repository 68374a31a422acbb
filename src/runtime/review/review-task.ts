/**
 * The review turn (`/review`, `tiller review`, `review/start`): a conversation of its own (the review
 * brief, then the target's prompt) in which the model inspects the change with the usual tools and
 * answers with findings JSON. Its tool items stream as any turn's, between `enteredReviewMode` and
 * `exitedReviewMode` (the rendered review), followed by an agentMessage of the same text, as Codex.
 * It cannot be steered. The thread's history keeps the request and the rendered review, so a later
 * turn ("fix this") knows what was found.
 */
import type { TillerTurnCheckpoint } from '../../protocol/checkpoints.js';
import type { ReviewTarget } from '../../protocol/client-requests.js';
import type { ThreadCheckpoints } from '../checkpoints/thread-checkpoints.js';
import type { ResponseItem } from '../../protocol/response-items.js';
import { toolCallsOf } from '../core/function-call.js';
import { userTextItem } from '../core/history.js';
import { newId } from '../core/ids.js';
import { runSamplingRequest } from '../core/sampling.js';
import { callBatches, handleFunctionCall } from '../core/tool-calls.js';
import type { TurnServices } from '../core/turn-services.js';
import { type ActiveTurn, TurnAborted, TurnFailed, type TurnOutcome } from '../core/turn-state.js';
import { modelFamily } from '../tools/model-family.js';
import { toolOffer, toolTable } from '../tools/registry.js';
import { REVIEW_BRIEF } from './brief.js';
import { parseReviewOutput, renderReviewOutput } from './output.js';
import { NO_SESSION_CHANGES, savedSessionCheckpoints, sessionChangesPatch, sessionChangesPrompt } from './session-changes.js';
import { resolveReviewPrompt, reviewHint } from './target.js';

export interface ReviewRequest {
  target: ReviewTarget;
  /** The thread's checkpoints, for `tiller/sessionChanges` without a `threadId` (null: checkpoints are off). */
  checkpoints: ThreadCheckpoints | null;
}

/** The thread's checkpoints once the records still running (the last turn's after) have settled. */
async function ownCheckpoints(checkpoints: ThreadCheckpoints | null): Promise<readonly TillerTurnCheckpoint[]> {
  await checkpoints?.idle();
  return checkpoints?.list() ?? [];
}

/** The target's prompt; a session with no changes of the agent's fails the turn, saying so. */
async function targetPrompt(services: TurnServices, turn: ActiveTurn, request: ReviewRequest): Promise<string> {
  const target = request.target;
  if (target.type !== 'tiller/sessionChanges') return resolveReviewPrompt(target, turn.context.cwd);
  const home = services.config.home;
  const checkpoints = target.threadId ? await savedSessionCheckpoints(home, target.threadId) : await ownCheckpoints(request.checkpoints);
  const fail = (message: string): never => {
    throw new TurnFailed({ message, codexErrorInfo: null, additionalDetails: null });
  };
  if (checkpoints === null) return fail(`no session ${target.threadId}`);
  const patch = await sessionChangesPatch(home, checkpoints);
  return patch === '' ? fail(NO_SESSION_CHANGES) : sessionChangesPrompt(patch);
}

function assistantTextItem(text: string): ResponseItem {
  return { type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] } as ResponseItem;
}

/** Samples the review conversation until the model stops calling tools; its last message is the answer. */
async function runReviewConversation(services: TurnServices, turn: ActiveTurn, prompt: string): Promise<string> {
  const conversation: ResponseItem[] = [userTextItem(prompt)];
  let answer = '';
  for (;;) {
    if (turn.signal.aborted) throw new TurnAborted();
    const tools = toolTable(modelFamily(turn.context.model), services.mcp, toolOffer(services.config));
    const result = await runSamplingRequest(services, turn, {
      tools: tools.specs,
      emitAgentItems: false,
      brief: REVIEW_BRIEF,
      input: conversation,
      subagent: 'review',
    });
    conversation.push(...result.items);
    if (result.lastAgentMessage !== null) answer = result.lastAgentMessage;
    const calls = toolCallsOf(result.items);
    for (const batch of await callBatches(services, turn, calls, tools)) {
      const outcomes = await Promise.all(batch.map((call) => handleFunctionCall(services, turn, call, tools)));
      for (const outcome of outcomes) conversation.push(outcome.output);
      if (outcomes.some((outcome) => outcome.aborted) || turn.signal.aborted) throw new TurnAborted();
    }
    if (calls.length === 0 && result.endTurn !== false) return answer;
  }
}

export async function runReviewTask(services: TurnServices, turn: ActiveTurn, request: ReviewRequest): Promise<TurnOutcome> {
  const hint = reviewHint(request.target);
  const entered = { type: 'enteredReviewMode' as const, id: newId(), review: hint };
  services.events.itemStarted(entered);
  services.events.itemCompleted(entered);
  try {
    const prompt = await targetPrompt(services, turn, request);
    const answer = await runReviewConversation(services, turn, prompt);
    const output = parseReviewOutput(answer);
    const text = renderReviewOutput(output);
    const exited = { type: 'exitedReviewMode' as const, id: newId(), review: text };
    services.events.emit('tiller/reviewOutput', { itemId: exited.id, output });
    services.events.itemStarted(exited);
    services.events.itemCompleted(exited);
    const message = { type: 'agentMessage' as const, id: newId(), text };
    services.events.itemStarted(message);
    services.events.itemCompleted(message);
    services.record({ type: 'item', item: userTextItem(`Review ${hint}: ${prompt}`) });
    services.record({ type: 'item', item: assistantTextItem(text) });
    turn.lastAgentMessage = text;
    return { status: 'completed' };
  } catch (error) {
    if (error instanceof TurnFailed) return { status: 'failed', error: error.error };
    if (error instanceof TurnAborted) return { status: 'completed' };
    throw error;
  }
}
