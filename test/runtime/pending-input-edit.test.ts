/**
 * tiller/pendingInput/edit: steers with a client id held, released, replaced and retracted while a
 * tool call runs (its approval parked), FIFO behind a held input, the turn's end returning what it
 * did not deliver, and the two orders of an edit racing delivery.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { PendingInputEditStatus, TillerPendingInputEditResult } from '../../src/protocol/api.js';
import { fromUserInput, type ResponseItem } from '../../src/protocol/response-items.js';
import type { UserInput } from '../../src/protocol/user-input.js';
import { type Harness, inputTexts, startHarness, text } from './support/harness.js';
import { approvalGate, edit, shellCall, steer, userMessages } from './support/pending-inputs.js';

let h: Harness;
afterEach(async () => {
  await h?.close();
});

const onRequest = { config: { approvalPolicy: 'on-request' as const } };

describe('tiller/pendingInput/edit while a tool call runs', () => {
  it('hold keeps a steer and the one behind it out of the next request; release delivers both, in order', async () => {
    h = await startHarness(onRequest);
    const gate = approvalGate(h);
    h.fake.enqueue(shellCall('echo one', 'c1'), shellCall('echo two', 'c2'), { text: 'done' });
    const { turn } = await h.server.request('turn/start', { threadId: h.threadId, input: [text('go')], tillerClientId: 'p0' });
    const first = await gate.next();
    expect(first.command).toBe('echo one');
    // Not awaited: the hold is queued behind the steer, so it finds it.
    const steered = steer(h, 'A', 'a', turn.id);
    const held = edit(h, 'a', 'hold');
    await steer(h, 'B', 'b', turn.id);
    expect(await steered).toEqual({ turnId: turn.id });
    expect(await held).toEqual({ status: 'held' });
    first.accept();
    const second = await gate.next();
    // B waits behind the held A.
    expect(inputTexts(h.fake.requests[1]!.body)).toEqual(['go']);
    expect(await edit(h, 'a', 'release')).toEqual({ status: 'released' });
    second.accept();
    expect((await h.log.waitFor('turn/completed')).turn.status).toBe('completed');
    expect(h.fake.requests).toHaveLength(3);
    expect(inputTexts(h.fake.requests[2]!.body)).toEqual(['go', 'A', 'B']);
    expect(userMessages(h).map((n) => n.item.id)).toEqual(['p0', 'a', 'b']);
    expect(h.log.of('tiller/pendingInputsReturned')).toEqual([]);
  });

  it('replace puts new content in the same place and releases it; retract removes the input', async () => {
    h = await startHarness(onRequest);
    const gate = approvalGate(h);
    h.fake.enqueue(shellCall('echo one', 'c1'), { text: 'done' });
    const { turn } = await h.server.request('turn/start', { threadId: h.threadId, input: [text('go')] });
    const ask = await gate.next();
    await steer(h, 'old words', 'r', turn.id);
    await steer(h, 'never sent', 'x', turn.id);
    await steer(h, 'kept', 'k', turn.id);
    expect(await edit(h, 'r', 'hold')).toEqual({ status: 'held' });
    expect(await edit(h, 'r', 'replace', [text('new words')])).toEqual({ status: 'replaced' });
    expect(await edit(h, 'x', 'retract')).toEqual({ status: 'retracted' });
    expect(await edit(h, 'x', 'retract')).toEqual({ status: 'notPending' });
    ask.accept();
    await h.log.waitFor('turn/completed');
    expect(inputTexts(h.fake.requests[1]!.body)).toEqual(['go', 'new words', 'kept']);
    const steers = userMessages(h).slice(1);
    expect(steers.map((n) => n.item)).toEqual([
      { type: 'userMessage', id: 'r', content: [text('new words')] },
      { type: 'userMessage', id: 'k', content: [text('kept')] },
    ]);
    expect(await edit(h, 'r', 'retract')).toEqual({ status: 'alreadyDelivered' });
  });

  it('a turn ends without waiting on held input: tiller/pendingInputsReturned lists it and what waits behind it, just before turn/completed', async () => {
    h = await startHarness(onRequest);
    const gate = approvalGate(h);
    h.fake.enqueue(shellCall('echo one', 'c1'), { text: 'done' });
    const { turn } = await h.server.request('turn/start', { threadId: h.threadId, input: [text('go')] });
    const ask = await gate.next();
    await steer(h, 'A', 'a', turn.id);
    await steer(h, 'B', 'b', turn.id);
    await steer(h, 'C', 'c', turn.id);
    // Without a client id: a Codex client's steer, never held back.
    await steer(h, 'plain', null, turn.id);
    expect(await edit(h, 'b', 'hold')).toEqual({ status: 'held' });
    ask.accept();
    const done = await h.log.waitFor('turn/completed');
    expect(done.turn).toMatchObject({ id: turn.id, status: 'completed' });
    // No request for the held input: it never keeps the turn sampling.
    expect(h.fake.requests).toHaveLength(2);
    expect(inputTexts(h.fake.requests[1]!.body)).toEqual(['go', 'A', 'plain']);
    expect(h.log.of('tiller/pendingInputsReturned')).toEqual([{ threadId: h.threadId, turnId: turn.id, clientIds: ['b', 'c'] }]);
    const methods = h.log.all.map((n) => n.method);
    expect(methods.indexOf('tiller/pendingInputsReturned')).toBe(methods.indexOf('turn/completed') - 1);
    // Dropped: the client queues them again.
    expect(await edit(h, 'b', 'release')).toEqual({ status: 'notPending' });
    expect(await edit(h, 'c', 'retract')).toEqual({ status: 'notPending' });
    expect(await edit(h, 'a', 'hold')).toEqual({ status: 'alreadyDelivered' });
  });

  it('a failed turn records its deliverable steers and returns the held ones', async () => {
    h = await startHarness(onRequest);
    const gate = approvalGate(h);
    h.fake.enqueue(shellCall('echo one', 'c1'), {
      fault: { kind: 'status', status: 400, body: { error: { message: 'bad', type: 'invalid_request_error' } } },
    });
    const { turn } = await h.server.request('turn/start', { threadId: h.threadId, input: [text('go')] });
    const ask = await gate.next();
    await steer(h, 'A', 'a', turn.id);
    await steer(h, 'B', 'b', turn.id);
    expect(await edit(h, 'b', 'hold')).toEqual({ status: 'held' });
    ask.accept();
    expect((await h.log.waitFor('turn/completed')).turn.status).toBe('failed');
    expect(
      userMessages(h)
        .map((n) => n.item.id)
        .slice(1),
    ).toEqual(['a']);
    // Taken for the request that then failed.
    expect(userMessages(h)[1]!.tillerDelivery).toMatchObject({ samplingRequest: 2 });
    expect(h.log.of('tiller/pendingInputsReturned')).toEqual([{ threadId: h.threadId, turnId: turn.id, clientIds: ['b'] }]);
  });
});

describe('what an edit finds', () => {
  it('alreadyDelivered for the prompt that started the turn; notPending for an id never sent', async () => {
    h = await startHarness();
    h.fake.enqueue({ text: 'hi' });
    await h.server.request('turn/start', { threadId: h.threadId, input: [text('go')], tillerClientId: 'p1' });
    await h.log.waitFor('turn/completed');
    expect(await edit(h, 'p1', 'hold')).toEqual({ status: 'alreadyDelivered' });
    expect(await edit(h, 'p1', 'replace', [text('other')])).toEqual({ status: 'alreadyDelivered' });
    expect(await edit(h, 'nobody', 'retract')).toEqual({ status: 'notPending' });
  });

  it('notPending once an interrupt dropped the input, and no pendingInputsReturned', async () => {
    h = await startHarness();
    h.fake.enqueue({ fault: { kind: 'stall', afterEvents: 3 } });
    const { turn } = await h.server.request('turn/start', { threadId: h.threadId, input: [text('go')] });
    await h.fake.waitForRequests(1);
    await steer(h, 'pending steer', 'i', turn.id);
    expect(await edit(h, 'i', 'hold')).toEqual({ status: 'held' });
    await h.server.request('turn/interrupt', { threadId: h.threadId, turnId: turn.id });
    expect((await h.log.waitFor('turn/completed')).turn.status).toBe('interrupted');
    expect(await edit(h, 'i', 'release')).toEqual({ status: 'notPending' });
    expect(h.log.of('tiller/pendingInputsReturned')).toEqual([]);
  });
});

describe('an edit racing delivery', () => {
  it('sent as the tool call completes (its item/completed): applied before the turn takes input, so retracted and never delivered', async () => {
    h = await startHarness(onRequest);
    const gate = approvalGate(h);
    h.fake.enqueue(shellCall('echo one', 'c1'), { text: 'done' });
    const { turn } = await h.server.request('turn/start', { threadId: h.threadId, input: [text('go')] });
    const ask = await gate.next();
    await steer(h, 'late thought', 'x', turn.id);
    let raced: Promise<TillerPendingInputEditResult> | undefined;
    h.server.onNotification((n) => {
      if (n.method === 'item/completed' && n.params.item.type === 'commandExecution') raced = edit(h, 'x', 'retract');
    });
    ask.accept();
    await h.log.waitFor('turn/completed');
    expect(await raced).toEqual({ status: 'retracted' });
    expect(h.fake.requests).toHaveLength(2);
    expect(inputTexts(h.fake.requests[1]!.body)).toEqual(['go']);
    expect(userMessages(h).some((n) => n.item.id === 'x')).toBe(false);
  });

  it('sent once the turn took the input, before it is recorded: alreadyDelivered, and delivered exactly once', async () => {
    let raced: PendingInputEditStatus | undefined;
    const prepareUserInput = async (content: UserInput[]): Promise<ResponseItem[]> => {
      // The turn has taken the steer and is converting it: no userMessage item for it yet.
      if (content.some((c) => c.type === 'text' && c.text === 'late thought')) raced = (await edit(h, 'x', 'retract')).status;
      return fromUserInput(content, { localImagePreparation: 'process' });
    };
    h = await startHarness({ ...onRequest, server: { prepareUserInput } });
    const gate = approvalGate(h);
    h.fake.enqueue(shellCall('echo one', 'c1'), { text: 'done' });
    const { turn } = await h.server.request('turn/start', { threadId: h.threadId, input: [text('go')] });
    const ask = await gate.next();
    await steer(h, 'late thought', 'x', turn.id);
    ask.accept();
    await h.log.waitFor('turn/completed');
    expect(raced).toBe('alreadyDelivered');
    expect(inputTexts(h.fake.requests[1]!.body)).toEqual(['go', 'late thought']);
    expect(userMessages(h).filter((n) => n.item.id === 'x')).toHaveLength(1);
  });
});

describe('params', () => {
  const limit = 1 << 20;

  it('tillerClientId and the edit params are checked, naming the field (-32602)', async () => {
    h = await startHarness();
    const fails = (p: Promise<unknown>) =>
      p.then(
        () => null,
        (e: unknown) => e,
      );
    const base = { threadId: h.threadId, input: [text('x')] };
    for (const [method, extra] of [
      ['turn/start', {}],
      ['turn/steer', { expectedTurnId: 't' }],
    ] as const) {
      for (const bad of ['', 'x'.repeat(201), 5]) {
        const error = await fails(h.server.request(method, { ...base, ...extra, tillerClientId: bad } as never));
        expect(error).toMatchObject({ code: -32602, message: expect.stringContaining('tillerClientId') });
      }
    }
    const ok = await h.server.request('turn/start', { ...base, tillerClientId: 'x'.repeat(200) });
    expect(ok.turn.status).toBe('inProgress');
    await h.log.waitFor('turn/completed');

    const editParams = { threadId: h.threadId, clientId: 'c' };
    const cases: Array<[unknown, string]> = [
      [{ ...editParams, action: 'replace' }, 'Invalid params: input: required for replace'],
      [{ ...editParams, action: 'hold', input: [text('x')] }, 'Invalid params: input: not allowed for hold'],
      [{ ...editParams, action: 'drop' }, 'action'],
      [{ ...editParams, clientId: '' }, 'clientId'],
      [{ threadId: h.threadId, action: 'hold' }, 'clientId'],
      [{ ...editParams, action: 'replace', input: [{ type: 'text', text: 5 }] }, 'input[0].text'],
    ];
    for (const [params, where] of cases) {
      expect(await fails(h.server.request('tiller/pendingInput/edit', params as never))).toMatchObject({
        code: -32602,
        message: expect.stringContaining(where),
      });
    }
    const tooLarge = await fails(edit(h, 'c', 'replace', [text('a'.repeat(limit + 1))]));
    expect(tooLarge).toMatchObject({
      code: -32602,
      data: { input_error_code: 'input_too_large', max_chars: limit, actual_chars: limit + 1 },
    });
    expect(await fails(edit(h, 'c', 'replace', []))).toMatchObject({ code: -32600, message: 'input must not be empty' });
    expect(await fails(h.server.request('tiller/pendingInput/edit', { ...editParams, threadId: 'nope', action: 'hold' }))).toMatchObject({
      code: -32600,
    });
  });
});
