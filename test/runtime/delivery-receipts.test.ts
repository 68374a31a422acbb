/**
 * Delivery receipts: a userMessage's item/completed says which sampling request of its turn first
 * carries it and which tool call it followed (`tillerDelivery`); exec --json puts them on the turn's
 * end. Also: an edit sent over the JSON-RPC connection right after a steer finds that steer.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ServerNotification, ThreadItem, Turn } from '../../src/protocol/api.js';
import { fromUserInput, type ResponseItem } from '../../src/protocol/response-items.js';
import type { UserInput } from '../../src/protocol/user-input.js';
import { JsonRpcConnection } from '../../src/runtime/app-server-stdio.js';
import { ActiveTurn } from '../../src/runtime/core/turn-state.js';
import { ExecJsonMapper } from '../../src/runtime/exec/jsonl.js';
import { type Harness, inputTexts, startHarness, text } from './support/harness.js';
import { approvalGate, commandItem, shellCall, steer, userMessages } from './support/pending-inputs.js';
import { until } from './support/process.js';

let h: Harness;
afterEach(async () => {
  await h?.close();
});

describe('tillerDelivery on a userMessage item/completed', () => {
  it('the prompt that starts a turn: request 1, after no tool call; the item keeps Codex’s shape and takes the client id', async () => {
    h = await startHarness();
    h.fake.enqueue({ text: 'one' }, { text: 'two' });
    await h.server.request('turn/start', { threadId: h.threadId, input: [text('go')], tillerClientId: 'p1' });
    await h.log.waitFor('turn/completed');
    const [prompt] = userMessages(h);
    expect(prompt!.item).toEqual({ type: 'userMessage', id: 'p1', content: [text('go')] });
    expect(prompt!.tillerDelivery).toEqual({ samplingRequest: 1, afterItem: null, deliveredAtMs: prompt!.completedAtMs });
    // A Codex client sends no id: the item id is the runtime's own, as before.
    await h.server.request('turn/start', { threadId: h.threadId, input: [text('again')] });
    await h.log.waitFor('turn/completed', (n) => n.turn.id !== h.log.of('turn/started')[0]!.turn.id);
    const second = userMessages(h)[1]!;
    expect(second.item.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7/);
    expect(second.tillerDelivery).toMatchObject({ samplingRequest: 1, afterItem: null });
  });

  it('a steer taken after a command: the request after it, naming the command; a retried request counts once', async () => {
    h = await startHarness({ config: { approvalPolicy: 'on-request' } });
    const gate = approvalGate(h);
    // The first request is answered 429 and retried: still sampling request 1.
    h.fake.enqueue({ fault: { kind: 'status', status: 429 } }, shellCall('echo one', 'c1'), { text: 'done' });
    const { turn } = await h.server.request('turn/start', { threadId: h.threadId, input: [text('go')] });
    const ask = await gate.next();
    await steer(h, 'and this', 's', turn.id);
    ask.accept();
    await h.log.waitFor('turn/completed');
    expect(h.fake.requests).toHaveLength(3);
    expect(inputTexts(h.fake.requests[2]!.body)).toEqual(['go', 'and this']);
    const command = commandItem(h, 'echo one');
    const received = userMessages(h).find((n) => n.item.id === 's')!;
    expect(received.tillerDelivery).toEqual({
      samplingRequest: 2,
      afterItem: { id: command.id, type: 'commandExecution', command: 'echo one' },
      deliveredAtMs: received.completedAtMs,
    });
    // The started item carries no receipt: only the completion does.
    expect(h.log.of('item/started').find((n) => n.item.id === 's')).not.toHaveProperty('tillerDelivery');
  });

  it('after a call that made no item (an unknown tool): `other` with the model’s call id', async () => {
    const prepareUserInput = async (content: UserInput[]): Promise<ResponseItem[]> => {
      // While the prompt is recorded the turn runs: steer into it then.
      if (content.some((c) => c.type === 'text' && c.text === 'go')) {
        const started = await h.log.waitFor('turn/started');
        await steer(h, 'after the call', 's', started.turn.id);
      }
      return fromUserInput(content, { localImagePreparation: 'process' });
    };
    h = await startHarness({ server: { prepareUserInput } });
    h.fake.enqueue({ functionCall: { name: 'no_such_tool', arguments: {}, callId: 'call_x' } }, { text: 'done' });
    await h.server.request('turn/start', { threadId: h.threadId, input: [text('go')] });
    await h.log.waitFor('turn/completed');
    expect(inputTexts(h.fake.requests[0]!.body)).toEqual(['go']);
    expect(inputTexts(h.fake.requests[1]!.body)).toEqual(['go', 'after the call']);
    expect(userMessages(h).find((n) => n.item.id === 's')!.tillerDelivery).toMatchObject({
      samplingRequest: 2,
      afterItem: { id: 'call_x', type: 'other' },
    });
  });

  it('an MCP call is named by server and tool', () => {
    const turn = new ActiveTurn(
      't',
      'regular',
      { model: 'm', cwd: '/', approvalPolicy: 'never', sandboxPolicy: { type: 'dangerFullAccess' }, effort: null },
      0,
    );
    turn.toolItemCompleted({
      type: 'mcpToolCall',
      id: 'i1',
      server: 'docs',
      tool: 'search',
      status: 'completed',
      arguments: {},
      result: null,
      error: null,
      durationMs: 1,
    });
    turn.toolItemCompleted({ type: 'agentMessage', id: 'i2', text: 'not a tool call' });
    expect(turn.lastToolCall).toEqual({ id: 'i1', type: 'mcpToolCall', server: 'docs', tool: 'search' });
  });
});

describe('exec --json', () => {
  const base = { threadId: 't', turnId: 'u' };
  const turn = (status: Turn['status']): Turn => ({
    id: 'u',
    items: [],
    itemsView: 'notLoaded',
    status,
    error: null,
    startedAt: 0,
    completedAt: 1,
    durationMs: 1,
  });
  const completed = (
    item: ThreadItem,
    tillerDelivery?: NonNullable<Extract<ServerNotification, { method: 'item/completed' }>['params']['tillerDelivery']>,
  ): ServerNotification => ({
    method: 'item/completed',
    params: { ...base, item, completedAtMs: 5, ...(tillerDelivery ? { tillerDelivery } : {}) },
  });
  const command: ThreadItem = {
    type: 'commandExecution',
    id: 'srv-cmd',
    command: 'ls',
    commandActions: [],
    cwd: '/',
    status: 'completed',
    aggregatedOutput: '',
    exitCode: 0,
    durationMs: 1,
  };

  it('the turn’s end carries its receipts, the command named by its exec item id', () => {
    const m = new ExecJsonMapper();
    const events = [
      { method: 'turn/started', params: { threadId: 't', turn: turn('inProgress') } } as ServerNotification,
      completed({ type: 'userMessage', id: 'p', content: [] }, { samplingRequest: 1, afterItem: null, deliveredAtMs: 3 }),
      completed(command),
      completed(
        { type: 'userMessage', id: 's', content: [] },
        { samplingRequest: 2, afterItem: { id: 'srv-cmd', type: 'commandExecution', command: 'ls' }, deliveredAtMs: 4 },
      ),
      { method: 'turn/completed', params: { threadId: 't', turn: turn('completed') } } as ServerNotification,
    ].flatMap((n) => m.map(n));
    expect(events.map((e) => e.type)).toEqual(['turn.started', 'item.completed', 'turn.completed']);
    expect(events[1]).toMatchObject({ item: { id: 'item_0', type: 'command_execution' } });
    expect(events[2]).toMatchObject({
      tiller_inputs_delivered: [
        { sampling_request: 1, after_item: null, delivered_at_ms: 3 },
        { sampling_request: 2, after_item: { id: 'item_0', type: 'command_execution', command: 'ls' }, delivered_at_ms: 4 },
      ],
    });
    // The next turn starts with none; a failed turn carries its own.
    m.map({ method: 'turn/started', params: { threadId: 't', turn: turn('inProgress') } });
    m.map(
      completed(
        { type: 'userMessage', id: 'q', content: [] },
        { samplingRequest: 1, afterItem: { id: 'call_1', type: 'other' }, deliveredAtMs: 6 },
      ),
    );
    expect(m.map({ method: 'turn/completed', params: { threadId: 't', turn: turn('failed') } })).toEqual([
      {
        type: 'turn.failed',
        error: { message: 'turn failed' },
        tiller_inputs_delivered: [{ sampling_request: 1, after_item: { id: 'call_1', type: 'other' }, delivered_at_ms: 6 }],
      },
    ]);
  });
});

describe('over the JSON-RPC connection', () => {
  it('an edit sent right after a steer, without waiting for its answer, finds it', async () => {
    h = await startHarness({ config: { approvalPolicy: 'on-request' } });
    const out: Array<{ id?: string | number; method?: string; params?: any; result?: any }> = [];
    const connection = new JsonRpcConnection(h.server, { write: (m) => void out.push(JSON.parse(JSON.stringify(m))) });
    const send = (message: object) => connection.handleLine(JSON.stringify({ jsonrpc: '2.0', ...message }));
    const answer = (id: number) => out.find((m) => m.id === id && m.method === undefined);
    send({ id: 1, method: 'initialize', params: { clientInfo: { name: 't', version: '1' }, capabilities: { tillerExtensions: true } } });
    h.fake.enqueue(shellCall('echo one', 'c1'), { text: 'done' });
    send({ id: 2, method: 'turn/start', params: { threadId: h.threadId, input: [text('go')] } });
    await until(() => out.some((m) => m.method === 'item/commandExecution/requestApproval'));
    const turnId = answer(2)!.result.turn.id as string;
    send({
      id: 3,
      method: 'turn/steer',
      params: { threadId: h.threadId, input: [text('wait')], expectedTurnId: turnId, tillerClientId: 'w' },
    });
    send({ id: 4, method: 'tiller/pendingInput/edit', params: { threadId: h.threadId, clientId: 'w', action: 'hold' } });
    await until(() => answer(4) !== undefined);
    expect(answer(3)!.result).toEqual({ turnId });
    expect(answer(4)!.result).toEqual({ status: 'held' });
    const ask = out.find((m) => m.method === 'item/commandExecution/requestApproval')!;
    send({ id: ask.id, result: { decision: 'accept' } });
    await until(() => out.some((m) => m.method === 'turn/completed'));
    expect(out.find((m) => m.method === 'tiller/pendingInputsReturned')!.params).toEqual({
      threadId: h.threadId,
      turnId,
      clientIds: ['w'],
    });
    await connection.close();
  });
});
