/**
 * RegularTask and `run_turn` (docs/codex-parity.md#the-sampling-loop). The initial input is recorded (after the
 * UserPromptSubmit hooks) and sampled first; steered input is taken only after a sampling request
 * finishes and always forces another one; tool calls and `end_turn: false` continue the loop.
 */
import { toV2 } from '../../protocol/schemas.js';
import type { TurnInputRequest } from '../../protocol/turn-input.js';
import type { UserInput } from '../../protocol/user-input.js';
import { recordInputContext } from '../context/input-context.js';
import { recordTurnContext } from '../context/turn-context.js';
import { modelFamily } from '../tools/model-family.js';
import { toolOffer, toolTable } from '../tools/registry.js';
import type { ResponseItem } from '../../protocol/response-items.js';
import { toolCallsOf } from './function-call.js';
import { developerTextItem, mediaNotices } from './history.js';
import { runUserPromptSubmitHooks, userPromptSubmitSummary } from './hooks.js';
import { newId } from './ids.js';
import { runSamplingRequest } from './sampling.js';
import { callBatches, handleFunctionCall } from './tool-calls.js';
import type { TurnServices } from './turn-services.js';
import { type ActiveTurn, TurnAborted, TurnFailed, type TurnOutcome } from './turn-state.js';

function hasContent(request: TurnInputRequest | null): request is TurnInputRequest {
  if (request === null) return false;
  const input = request.input;
  return !((input.type === 'userInput' || input.type === 'developerInput') && input.content.length === 0);
}

/** `request` is null when the task only drains steered input. */
export async function runRegularTask(services: TurnServices, turn: ActiveTurn, request: TurnInputRequest | null): Promise<TurnOutcome> {
  try {
    recordTurnContext(services, turn);
    await runTurn(services, turn, request);
    // Input steered in after the last sampling decision gets a run of its own.
    while (turn.hasPending() && !turn.signal.aborted) await runTurn(services, turn, null);
    return { status: 'completed' };
  } catch (error) {
    if (error instanceof TurnFailed) return { status: 'failed', error: error.error };
    if (error instanceof TurnAborted) return { status: 'completed' };
    throw error;
  }
}

/**
 * Records steered input that no sampling request will take (the turn failed): its hooks run and
 * its userMessage item is emitted (without a delivery receipt: the next turn's first request carries
 * it), so the next turn's model sees it and the client can commit it.
 */
export async function recordLeftoverInput(services: TurnServices, turn: ActiveTurn): Promise<void> {
  for (const request of await services.takePendingInput()) {
    if (turn.signal.aborted) return;
    try {
      await recordInput(services, turn, request, false);
    } catch (error) {
      if (!(error instanceof TurnAborted)) throw error;
    }
  }
}

async function runTurn(services: TurnServices, turn: ActiveTurn, initial: TurnInputRequest | null): Promise<void> {
  let canDrainPending = true;
  let modelNeedsFollowUp = false;
  if (hasContent(initial)) {
    if (!(await recordInput(services, turn, initial))) return;
    // The fresh prompt is sampled before any steer that arrived meanwhile.
    canDrainPending = false;
  } else if (!turn.hasPending()) {
    return;
  }
  for (;;) {
    if (canDrainPending && turn.hasPending()) {
      let accepted = 0;
      for (const request of await services.takePendingInput()) if (await recordInput(services, turn, request)) accepted += 1;
      if (accepted === 0 && !modelNeedsFollowUp) return;
    }
    if (turn.signal.aborted) throw new TurnAborted();
    // The ready MCP servers' tools as of this request: its calls are resolved against the same table.
    const tools = toolTable(modelFamily(turn.context.model), services.mcp, toolOffer(services.config));
    const result = await runSamplingRequest(services, turn, { tools: tools.specs, emitAgentItems: true });
    for (const item of result.items) services.record({ type: 'item', item });
    if (result.lastAgentMessage !== null) turn.lastAgentMessage = result.lastAgentMessage;
    const calls = toolCallsOf(result.items);
    if (calls.length > 0) await turn.toolsReady;
    for (const batch of await callBatches(services, turn, calls, tools)) {
      const before = turn.lastToolCall;
      const outcomes = await Promise.all(batch.map((call) => handleFunctionCall(services, turn, call, tools)));
      // A call that made no item (unknown tool, bad arguments) is still what later input follows.
      if (turn.lastToolCall === before) turn.lastToolCall = { id: batch.at(-1)!.call_id, type: 'other' };
      for (const outcome of outcomes) services.record({ type: 'item', item: outcome.output });
      if (outcomes.some((outcome) => outcome.aborted) || turn.signal.aborted) throw new TurnAborted();
    }
    canDrainPending = true;
    modelNeedsFollowUp = calls.length > 0 || result.endTurn === false;
    if (!modelNeedsFollowUp && !turn.hasPending()) return;
  }
}

function promptText(content: readonly UserInput[]): string {
  return content.map((c) => (c.type === 'text' ? c.text : '')).join('');
}

/**
 * Records one input into history. User input first passes the UserPromptSubmit hooks: blocked
 * input is not recorded (false). Accepted user input emits its userMessage item (its completion with
 * a delivery receipt when `receipt`: this turn's next request carries it), then what it brings
 * (context/input-context.ts).
 */
async function recordInput(services: TurnServices, turn: ActiveTurn, request: TurnInputRequest, receipt = true): Promise<boolean> {
  const input = request.input;
  const events = services.events;
  switch (input.type) {
    case 'developerInput':
      for (const text of input.content) services.record({ type: 'item', item: developerTextItem(text) });
      return true;
    case 'responseItem':
      services.record({ type: 'item', item: input.item });
      return true;
    case 'interAgentCommunication':
      services.record({
        type: 'item',
        item: developerTextItem(
          `Message from ${input.communication.author} to ${input.communication.recipient}:\n${input.communication.content}`,
        ),
      });
      return true;
    case 'userInput':
      break;
  }
  const content = input.content;
  const hookContexts: string[] = [];
  const hooks = services.config.userPromptSubmitHooks;
  if (hooks.length > 0) {
    const startedAtMs = services.now();
    const outcome = await runUserPromptSubmitHooks(
      hooks,
      {
        session_id: services.threadId,
        turn_id: turn.id,
        cwd: turn.context.cwd,
        transcript_path: null,
        model: turn.context.model,
        permission_mode: turn.context.approvalPolicy === 'never' ? 'bypassPermissions' : 'default',
        prompt: promptText(content),
      },
      turn.signal,
    );
    if (turn.signal.aborted) throw new TurnAborted();
    events.emit('hook/completed', {
      run: userPromptSubmitSummary(outcome, { turnId: turn.id, home: services.config.home, startedAtMs, completedAtMs: services.now() }),
      tillerAdditionalContexts: outcome.additionalContexts.length,
    });
    if (outcome.blocked) {
      for (const text of outcome.additionalContexts) services.record({ type: 'item', item: developerTextItem(text) });
      return false;
    }
    hookContexts.push(...outcome.additionalContexts);
  }
  // Recorded even if an interrupt came meanwhile: within the grace period the input the user saw
  // sent stays in history, before the interrupt marker (a cut-off turn records nothing).
  const converted = await convertUserInput(services, content);
  services.record({ type: 'userInput', content: [...content], converted });
  for (const message of mediaNotices(converted)) events.warning(message);
  const item = { type: 'userMessage' as const, id: input.clientId ?? newId(), content: content.map(toV2) };
  events.itemStarted(item);
  const completedAtMs = services.now();
  const tillerDelivery = receipt
    ? { samplingRequest: turn.samplingRequests + 1, afterItem: turn.lastToolCall, deliveredAtMs: completedAtMs }
    : undefined;
  events.emit('item/completed', { item, completedAtMs, ...(tillerDelivery ? { tillerDelivery } : {}) });
  await recordInputContext(services, turn, content, hookContexts, request.additionalContext);
  return true;
}

/**
 * Reads and encodes the input's local media once (sharp works off the main thread, so the event
 * loop and the UI stay live); announces the work when it outlasts the session's notice delay
 * (at once when that is 0).
 */
async function convertUserInput(services: TurnServices, content: UserInput[]): Promise<ResponseItem[]> {
  const count = content.filter((item) => item.type === 'local_image' || item.type === 'local_audio').length;
  if (count === 0) return services.prepareUserInput(content);
  let announced = false;
  const announce = (): void => {
    announced = true;
    services.events.emit('tiller/mediaPreparation', { state: 'started', count });
  };
  const delay = services.mediaPreparationNoticeMs;
  const timer = delay > 0 ? setTimeout(announce, delay) : undefined;
  if (delay <= 0) announce();
  try {
    return await services.prepareUserInput(content);
  } finally {
    clearTimeout(timer);
    if (announced) services.events.emit('tiller/mediaPreparation', { state: 'finished', count });
  }
}
