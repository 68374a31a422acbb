import { afterEach, describe, expect, it } from 'vitest';
import type { ServerNotification } from '../../src/protocol/api.js';
import { StartIfIdle, StartOrSteer, steerMode, turnInputRequest, userInputRequest, userTurnInput } from '../../src/protocol/turn-input.js';
import { Session, type SessionOptions } from '../../src/runtime/core/session.js';
import { ModelError } from '../../src/runtime/model/types.js';
import { conversation, NotificationLog, testConfig, text } from './support/harness.js';
import { deferred, ScriptedModelClient, textScript } from './support/scripted-model.js';

let session: Session | null = null;
afterEach(async () => {
  await session?.shutdown();
  session = null;
});

function setup(options: Partial<SessionOptions> = {}): { session: Session; model: ScriptedModelClient; log: NotificationLog } {
  const model = new ScriptedModelClient();
  const log = new NotificationLog();
  session = new Session({
    config: testConfig(),
    modelClient: model,
    context: { model: 'm1', cwd: process.cwd(), approvalPolicy: 'never', sandboxPolicy: { type: 'dangerFullAccess' }, effort: null },
    emit: (n: ServerNotification) => log.push(n),
    requestApproval: async () => 'decline',
    ...options,
  });
  return { session, model, log };
}

const hello = userInputRequest([text('hello')]);

/** Starts a turn held open by a gate after its first delta; returns the turn id and the gate. */
async function startHeldTurn(s: Session, model: ScriptedModelClient, log: NotificationLog) {
  const gate = deferred();
  model.enqueue(textScript('working', { gate: gate.promise }));
  const result = await s.submitTurnInput(hello, StartOrSteer);
  if (result.type !== 'started') throw new Error('expected started');
  await log.waitFor('item/agentMessage/delta');
  return { turnId: result.turnId, gate };
}

describe('Session turn input', () => {
  it('StartOrSteer on an idle thread starts a turn whose id is the submission id', async () => {
    const { session: s, log } = setup();
    const { id, outcome } = await s.enqueueTurnInput(hello, StartOrSteer);
    expect(await outcome).toEqual({ type: 'started', turnId: id });
    const done = await log.waitFor('turn/completed');
    expect(done.turn).toMatchObject({ id, status: 'completed' });
  });

  it('StartOrSteer on a running regular turn steers it; the steer is sampled after the current request, in exactly one more', async () => {
    const { session: s, model, log } = setup();
    const { turnId, gate } = await startHeldTurn(s, model, log);
    const steer = await s.submitTurnInput(userInputRequest([text('also this')]), StartOrSteer);
    expect(steer).toEqual({ type: 'steered', turnId });
    // Not taken mid-stream: still one request while the first sampling runs.
    expect(model.requests).toHaveLength(1);
    gate.resolve();
    await log.waitFor('turn/completed');
    expect(model.requests).toHaveLength(2);
    const second = JSON.stringify(model.requests[1]!.input);
    expect(second).toContain('hello');
    expect(second).toContain('also this');
    const userMessages = log.of('item/completed').filter((n) => n.item.type === 'userMessage');
    expect(userMessages.map((n) => n.item.type === 'userMessage' && n.item.content)).toEqual([[text('hello')], [text('also this')]]);
  });

  it('NoActiveTurn: a steer with no turn running', async () => {
    const { session: s } = setup();
    expect(await s.submitTurnInput(hello, steerMode('x'))).toEqual({ type: 'notSubmitted', reason: { type: 'noActiveTurn' } });
  });

  it('ExpectedTurnMismatch: a steer naming another turn', async () => {
    const { session: s, model, log } = setup();
    const { turnId, gate } = await startHeldTurn(s, model, log);
    expect(await s.submitTurnInput(hello, steerMode('stale'))).toEqual({
      type: 'notSubmitted',
      reason: { type: 'expectedTurnMismatch', expected: 'stale', actual: turnId },
    });
    expect(await s.submitTurnInput(userInputRequest([text('ok')]), steerMode(turnId))).toEqual({ type: 'steered', turnId });
    gate.resolve();
  });

  it('EmptyInput: an empty steer, checked before the active turn', async () => {
    const { session: s, model, log } = setup();
    expect(await s.submitTurnInput(userInputRequest([]), steerMode('x'))).toEqual({ type: 'notSubmitted', reason: { type: 'emptyInput' } });
    const { gate } = await startHeldTurn(s, model, log);
    expect(await s.submitTurnInput(userInputRequest([]), StartOrSteer)).toEqual({ type: 'notSubmitted', reason: { type: 'emptyInput' } });
    gate.resolve();
  });

  it('NotIdle: StartIfIdle while a turn runs; the previewed settings are not applied', async () => {
    const { session: s, model, log } = setup();
    const { gate } = await startHeldTurn(s, model, log);
    const request = turnInputRequest(userTurnInput([text('x')]), { threadSettings: { model: 'm2' } });
    expect(await s.submitTurnInput(request, StartIfIdle)).toEqual({ type: 'notSubmitted', reason: { type: 'notIdle' } });
    expect(s.currentSettings.model).toBe('m1');
    gate.resolve();
  });

  it('ActiveTurnNotSteerable: steering a compact turn', async () => {
    const { session: s, model, log } = setup();
    // Some history first, so the compact turn samples.
    await s.submitTurnInput(hello, StartOrSteer);
    await log.waitFor('turn/completed');
    const gate = deferred();
    model.enqueue(textScript('summary', { gate: gate.promise }));
    const compact = await s.submitTurnInput(turnInputRequest(userTurnInput([]), { start: { kind: 'compact' } }), StartIfIdle);
    expect(compact.type).toBe('started');
    await model.waitForRequests(2);
    const reason = { type: 'activeTurnNotSteerable', turnKind: 'compact' };
    expect(await s.submitTurnInput(hello, steerMode(compact.type === 'started' ? compact.turnId : ''))).toEqual({
      type: 'notSubmitted',
      reason,
    });
    expect(await s.submitTurnInput(hello, StartOrSteer)).toEqual({ type: 'notSubmitted', reason });
    // StartOrSteer that could not be submitted is reported as an error notification.
    const error = await log.waitFor('error');
    expect(error).toMatchObject({
      willRetry: false,
      error: { message: 'cannot steer a compact turn', codexErrorInfo: { activeTurnNotSteerable: { turnKind: 'compact' } } },
    });
    gate.resolve();
    await log.waitFor('turn/completed', (n) => n.turn.id === (compact.type === 'started' ? compact.turnId : ''));
    expect(s.history).toHaveLength(1);
    expect(JSON.stringify(s.history[0])).toContain('Summary of the conversation so far:\\nsummary');
  });

  it('ActiveTurnOutputSchemaMismatch: a steer asking for another output schema', async () => {
    const { session: s, model, log } = setup();
    const { gate } = await startHeldTurn(s, model, log);
    const request = turnInputRequest(userTurnInput([text('x')]), { start: { finalOutputJsonSchema: { type: 'object' } } });
    expect(await s.submitTurnInput(request, StartOrSteer)).toEqual({
      type: 'notSubmitted',
      reason: { type: 'activeTurnOutputSchemaMismatch' },
    });
    gate.resolve();
  });

  it('settings of a steer apply to later turns, not the running one', async () => {
    const { session: s, model, log } = setup();
    const { gate } = await startHeldTurn(s, model, log);
    const request = turnInputRequest(userTurnInput([text('switch')]), { threadSettings: { model: 'm2' } });
    expect((await s.submitTurnInput(request, StartOrSteer)).type).toBe('steered');
    expect(s.currentSettings.model).toBe('m2');
    gate.resolve();
    await log.waitFor('turn/completed');
    expect(model.requests.map((r) => r.model)).toEqual(['m1', 'm1']);
    await s.submitTurnInput(hello, StartOrSteer);
    await model.waitForRequests(3);
    expect(model.requests[2]!.model).toBe('m2');
  });

  it('empty StartOrSteer on an idle thread starts a turn that sends no request (the recovery path)', async () => {
    const { session: s, model, log } = setup();
    const result = await s.submitTurnInput(userInputRequest([]), StartOrSteer);
    expect(result.type).toBe('started');
    const done = await log.waitFor('turn/completed');
    expect(done.turn.status).toBe('completed');
    expect(model.requests).toHaveLength(0);
  });

  it('end_turn false samples again', async () => {
    const { session: s, model, log } = setup();
    model.enqueue(textScript('part one', { endTurn: false }), textScript('part two', { endTurn: true }));
    await s.submitTurnInput(hello, StartOrSteer);
    await log.waitFor('turn/completed');
    expect(model.requests).toHaveLength(2);
    expect(JSON.stringify(model.requests[1]!.input)).toContain('part one');
  });

  it('additional context becomes developer messages after the user input', async () => {
    const { session: s, model, log } = setup();
    const request = turnInputRequest(userTurnInput([text('q')]), { additionalContext: { env: { text: 'cwd is /x' } } });
    await s.submitTurnInput(request, StartOrSteer);
    await log.waitFor('turn/completed');
    expect(conversation(model.requests[0]!)).toEqual([
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'q' }] },
      { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'cwd is /x' }] },
    ]);
  });

  it('a task that ignores the interrupt is cut off after the grace period: nothing more is emitted or recorded', async () => {
    const { session: s, model, log } = setup();
    const release = deferred();
    model.enqueue(async function* () {
      yield { type: 'output_item_added', item: { type: 'message', id: 'm', role: 'assistant', content: [] } };
      yield { type: 'output_text_delta', itemId: 'm', delta: 'stubborn' };
      await release.promise; // ignores the abort signal
      yield {
        type: 'output_item_done',
        item: { type: 'message', id: 'm', role: 'assistant', content: [{ type: 'output_text', text: 'stubborn' }] },
      };
      yield { type: 'completed', responseId: 'r', usage: null, endTurn: null };
    });
    const started = await s.submitTurnInput(hello, StartOrSteer);
    await log.waitFor('item/agentMessage/delta');
    await s.interrupt();
    const done = await log.waitFor('turn/completed');
    expect(done.turn).toMatchObject({ id: started.type === 'started' ? started.turnId : '', status: 'interrupted' });
    const count = log.all.length;
    const historyLength = s.history.length;
    release.resolve();
    await new Promise((r) => setTimeout(r, 20));
    expect(log.all.length).toBe(count);
    expect(s.history.length).toBe(historyLength);
    // The session still takes input.
    expect((await s.submitTurnInput(hello, StartOrSteer)).type).toBe('started');
  });

  it('a steer pending when the turn fails is recorded (userMessage emitted before turn/completed), and the next turn sends it', async () => {
    const { session: s, model, log } = setup();
    const gate = deferred();
    model.enqueue(async function* () {
      yield { type: 'output_item_added', item: { type: 'message', id: 'm', role: 'assistant', content: [] } };
      yield { type: 'output_text_delta', itemId: 'm', delta: 'partial' };
      await gate.promise;
      throw new ModelError('context window exceeded', false, 'contextWindowExceeded');
    });
    const started = await s.submitTurnInput(hello, StartOrSteer);
    await log.waitFor('item/agentMessage/delta');
    expect((await s.submitTurnInput(userInputRequest([text('late steer')]), StartOrSteer)).type).toBe('steered');
    gate.resolve();
    const done = await log.waitFor('turn/completed');
    expect(done.turn).toMatchObject({ id: started.type === 'started' ? started.turnId : '', status: 'failed' });
    const methods = log.all.map((n) =>
      n.method === 'item/completed' && n.params.item.type === 'userMessage' ? `user:${JSON.stringify(n.params.item.content)}` : n.method,
    );
    const steerAt = methods.indexOf(`user:${JSON.stringify([text('late steer')])}`);
    expect(steerAt).toBeGreaterThan(-1);
    expect(steerAt).toBeLessThan(methods.indexOf('turn/completed'));
    expect(model.requests).toHaveLength(1);
    model.enqueue(textScript('fine'));
    await s.submitTurnInput(userInputRequest([text('next')]), StartOrSteer);
    await log.waitFor('turn/completed', (n) => n.turn.status === 'completed');
    expect(JSON.stringify(model.requests[1]!.input)).toContain('late steer');
  });

  it('the media preparation notice delay is an option: 0 announces at once, started before finished', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { session: s, log } = setup({
      mediaPreparationNoticeMs: 0,
      prepareUserInput: async () => {
        await gate;
        return [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'prepared' }] }];
      },
    });
    await s.submitTurnInput(
      userInputRequest([
        { type: 'local_image', path: '/x.png' },
        { type: 'local_audio', path: '/y.wav' },
      ]),
      StartOrSteer,
    );
    const started = await log.waitFor('tiller/mediaPreparation');
    expect(started).toMatchObject({ state: 'started', count: 2 });
    expect(log.of('tiller/mediaPreparation')).toHaveLength(1);
    release();
    expect(await log.waitFor('tiller/mediaPreparation', (p) => p.state === 'finished')).toMatchObject({ count: 2 });
    await log.waitFor('turn/completed');
    expect(log.of('tiller/mediaPreparation').map((p) => p.state)).toEqual(['started', 'finished']);
  });

  it('a task cut off while its approval request hangs still completes the command item (declined) before turn/completed', async () => {
    let asked!: () => void;
    const askedPromise = new Promise<void>((resolve) => (asked = resolve));
    const {
      session: s,
      model,
      log,
    } = setup({
      context: { model: 'm1', cwd: process.cwd(), approvalPolicy: 'on-request', sandboxPolicy: { type: 'dangerFullAccess' }, effort: null },
      // A client that never answers and ignores the abort signal.
      requestApproval: () => {
        asked();
        return new Promise(() => undefined);
      },
    });
    model.enqueue(async function* () {
      const call = {
        type: 'function_call' as const,
        call_id: 'call_1',
        name: 'shell',
        arguments: JSON.stringify({ command: 'echo never' }),
      };
      yield { type: 'output_item_done', item: call };
      yield { type: 'completed', responseId: 'resp_call', usage: null, endTurn: null };
    });
    await s.submitTurnInput(hello, StartOrSteer);
    await askedPromise;
    expect(await s.interrupt(null)).toMatchObject({ type: 'interrupted' });
    const started = log.of('item/started').find((p) => p.item.type === 'commandExecution')!;
    const completed = log.all.findIndex((n) => n.method === 'item/completed' && n.params.item.id === started.item.id);
    expect(log.all[completed]!.params).toMatchObject({ item: { type: 'commandExecution', status: 'declined' } });
    expect(completed).toBeLessThan(log.all.findIndex((n) => n.method === 'turn/completed'));
    expect(log.of('item/completed').filter((p) => p.item.id === started.item.id)).toHaveLength(1);
  });
});
