import { afterEach, describe, expect, it } from 'vitest';
import { type Harness, inputTexts, OFFERED, startHarness, text } from './support/harness.js';

let h: Harness;
afterEach(async () => {
  await h?.close();
});

describe('turn/start', () => {
  it('streams deltas and completes; the request carries the Responses fields', async () => {
    h = await startHarness();
    h.fake.enqueue({ deltas: ['Hel', 'lo', '!'] });
    const { turn } = await h.server.request('turn/start', { threadId: h.threadId, input: [text('hi there')] });
    expect(turn).toMatchObject({ status: 'inProgress', items: [], itemsView: 'notLoaded', error: null, startedAt: null });
    expect(turn.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7/);
    const done = await h.log.waitFor('turn/completed');
    expect(done.turn).toMatchObject({ id: turn.id, status: 'completed', error: null });
    const deltas = h.log.of('item/agentMessage/delta').map((d) => d.delta);
    expect(deltas).toEqual(['Hel', 'lo', '!']);
    const completedAgent = h.log.of('item/completed').find((n) => n.item.type === 'agentMessage');
    expect(completedAgent?.item).toMatchObject({ type: 'agentMessage', text: 'Hello!' });
    const started = h.log.of('turn/started')[0]!;
    expect(started.turn).toMatchObject({ id: turn.id, status: 'inProgress' });
    const body = h.fake.requests[0]!.body;
    expect(body).toMatchObject({ model: 'test-model', tool_choice: 'auto', store: false, stream: true, prompt_cache_key: h.threadId });
    expect(body.tools.map((t: { name: string }) => t.name)).toEqual(OFFERED);
    expect(inputTexts(body)).toEqual(['hi there']);
  });
});

describe('turn/steer', () => {
  it('steer while streaming → exactly two requests, the second holding both prompts, and a userMessage item for the steer', async () => {
    h = await startHarness();
    h.fake.enqueue({ deltas: ['a ', 'b ', 'c ', 'd ', 'e ', 'f'], delayMs: 40 }, { text: 'second answer' });
    const { turn } = await h.server.request('turn/start', { threadId: h.threadId, input: [text('first prompt')] });
    await h.log.waitFor('item/agentMessage/delta');
    const steer = await h.server.request('turn/steer', { threadId: h.threadId, input: [text('steered prompt')], expectedTurnId: turn.id });
    expect(steer).toEqual({ turnId: turn.id });
    const done = await h.log.waitFor('turn/completed');
    expect(done.turn.status).toBe('completed');
    expect(h.fake.requests).toHaveLength(2);
    const texts = inputTexts(h.fake.requests[1]!.body);
    expect(texts).toContain('first prompt');
    expect(texts).toContain('steered prompt');
    expect(texts.indexOf('steered prompt')).toBeGreaterThan(texts.indexOf('first prompt'));
    const steerItem = h.log
      .of('item/completed')
      .find((n) => n.item.type === 'userMessage' && JSON.stringify(n.item.content).includes('steered prompt'));
    expect(steerItem).toMatchObject({ turnId: turn.id, item: { type: 'userMessage', content: [text('steered prompt')] } });
    // The steer is recorded after the first answer finished streaming.
    const methods = h.log.all.map((n) => (n.method === 'item/completed' ? `completed:${n.params.item.type}` : n.method));
    expect(methods.indexOf('completed:agentMessage')).toBeLessThan(methods.lastIndexOf('completed:userMessage'));
  });

  it('turn/start while a regular turn runs steers it but returns a new id', async () => {
    h = await startHarness();
    h.fake.enqueue({ deltas: ['x ', 'y ', 'z'], delayMs: 40 }, { text: 'two' });
    const first = await h.server.request('turn/start', { threadId: h.threadId, input: [text('one')] });
    await h.log.waitFor('item/agentMessage/delta');
    const second = await h.server.request('turn/start', { threadId: h.threadId, input: [text('more')] });
    expect(second.turn.id).not.toBe(first.turn.id);
    await h.log.waitFor('turn/completed');
    expect(h.log.of('turn/started')).toHaveLength(1);
    expect(inputTexts(h.fake.requests[1]!.body)).toContain('more');
  });

  it('rejects a stale expected id with the actual id', async () => {
    h = await startHarness();
    h.fake.enqueue({ deltas: ['x ', 'y'], delayMs: 60 });
    const { turn } = await h.server.request('turn/start', { threadId: h.threadId, input: [text('one')] });
    await h.log.waitFor('turn/started');
    await expect(
      h.server.request('turn/steer', { threadId: h.threadId, input: [text('s')], expectedTurnId: 'old-turn' }),
    ).rejects.toMatchObject({
      code: -32600,
      message: `expected active turn id \`old-turn\` but found \`${turn.id}\``,
      data: { tillerNotSubmitted: { type: 'expectedTurnMismatch', expected: 'old-turn', actual: turn.id } },
    });
  });

  it('rejects a steer with no active turn', async () => {
    h = await startHarness();
    await expect(h.server.request('turn/steer', { threadId: h.threadId, input: [text('s')], expectedTurnId: 't' })).rejects.toMatchObject({
      code: -32600,
      message: 'no active turn to steer',
      data: { tillerNotSubmitted: { type: 'noActiveTurn' } },
    });
  });

  it('rejects an empty steer and an empty expectedTurnId', async () => {
    h = await startHarness();
    await expect(h.server.request('turn/steer', { threadId: h.threadId, input: [], expectedTurnId: 't' })).rejects.toMatchObject({
      code: -32600,
      message: 'input must not be empty',
    });
    await expect(h.server.request('turn/steer', { threadId: h.threadId, input: [text('x')], expectedTurnId: '' })).rejects.toMatchObject({
      code: -32600,
      message: 'expectedTurnId must not be empty',
    });
  });

  it('rejects steering a compact turn with TurnError data', async () => {
    h = await startHarness();
    h.fake.enqueue({ text: 'first' }, { deltas: ['sum', 'mary'], delayMs: 80 });
    await h.server.request('turn/start', { threadId: h.threadId, input: [text('one')] });
    await h.log.waitFor('turn/completed');
    const { turn } = await h.server.request('turn/start', { threadId: h.threadId, input: [], kind: 'compact' });
    await h.fake.waitForRequests(2);
    const error = await h.server
      .request('turn/steer', { threadId: h.threadId, input: [text('s')], expectedTurnId: turn.id })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: -32600,
      message: 'cannot steer a compact turn',
      data: {
        message: 'cannot steer a compact turn',
        codexErrorInfo: { activeTurnNotSteerable: { turnKind: 'compact' } },
        additionalDetails: null,
      },
    });
    await h.log.waitFor('turn/completed', (n) => n.turn.id === turn.id);
    expect(h.log.of('item/completed').some((n) => n.item.type === 'contextCompaction')).toBe(true);
    // The next turn sees the summary instead of the old history.
    await h.server.request('turn/start', { threadId: h.threadId, input: [text('after')] });
    await h.fake.waitForRequests(3);
    const texts = inputTexts(h.fake.requests[2]!.body);
    expect(texts).toEqual(['Summary of the conversation so far:\nsummary', 'after']);
  });
});

describe('request validation', () => {
  const limit = 1 << 20;

  it('text of exactly the limit split over two items is accepted; one more is rejected with data', async () => {
    h = await startHarness();
    const half = 'a'.repeat(limit / 2);
    const ok = await h.server.request('turn/start', {
      threadId: h.threadId,
      input: [text(half), { type: 'mention', name: 'x', path: 'app://x' }, text(half)],
    });
    expect(ok.turn.status).toBe('inProgress');
    await h.log.waitFor('turn/completed');
    for (const method of ['turn/start', 'turn/steer'] as const) {
      const error = await h.server
        .request(method, { threadId: h.threadId, input: [text(half), text(`${half}b`)], expectedTurnId: ok.turn.id })
        .catch((e: unknown) => e);
      expect(error).toMatchObject({
        code: -32602,
        message: 'Input exceeds the maximum length of 1048576 characters.',
        data: { input_error_code: 'input_too_large', max_chars: limit, actual_chars: limit + 1 },
      });
    }
  });

  it('the limit counts code points, not UTF-16 units', async () => {
    h = await startHarness();
    const ok = await h.server.request('turn/start', { threadId: h.threadId, input: [text('😀'.repeat(limit))] });
    expect(ok.turn.id).toBeTruthy();
  });

  it('the text limit is checked before the thread id (turn/start)', async () => {
    h = await startHarness();
    const error = await h.server.request('turn/start', { threadId: 'nope', input: [text('a'.repeat(limit + 1))] }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: -32602 });
  });

  it('unknown and malformed thread ids', async () => {
    h = await startHarness();
    const missing = '01900000-0000-7000-8000-000000000000';
    await expect(h.server.request('turn/start', { threadId: missing, input: [text('x')] })).rejects.toMatchObject({
      code: -32600,
      message: `thread not found: ${missing}`,
    });
    await expect(h.server.request('turn/start', { threadId: 'nope', input: [text('x')] })).rejects.toMatchObject({
      code: -32600,
      message: 'invalid thread id: nope',
    });
  });

  it('bad params name the field (-32602)', async () => {
    h = await startHarness();
    const bad = await h.server
      .request('turn/start', { threadId: h.threadId, input: [{ type: 'text', text: 5 }] } as never)
      .catch((e: unknown) => e);
    expect(bad).toMatchObject({ code: -32602 });
    expect((bad as Error).message).toContain('input[0].text');
    const missing = await h.server.request('turn/steer', { threadId: h.threadId, input: [text('x')] } as never).catch((e: unknown) => e);
    expect(missing).toMatchObject({ code: -32602 });
    expect((missing as Error).message).toContain('expectedTurnId');
    const unknown = await h.server.request('thread/archive' as never, {} as never).catch((e: unknown) => e);
    expect(unknown).toMatchObject({ code: -32601 });
  });

  it('empty turn/start input is accepted and sends no request', async () => {
    h = await startHarness();
    const { turn } = await h.server.request('turn/start', { threadId: h.threadId, input: [] });
    const done = await h.log.waitFor('turn/completed');
    expect(done.turn).toMatchObject({ id: turn.id, status: 'completed' });
    expect(h.fake.requests).toHaveLength(0);
  });
});
