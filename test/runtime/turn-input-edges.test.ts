/**
 * Turn input edge cases against the in-process app server (settings applied only when input is accepted, the steer's item/started, an empty or a
 * compact turn/start while a turn runs, the default retry budget, a quota failure, steering the
 * offline model).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Fault } from '../support/fake-responses-server.js';
import { createInProcessAppServer } from '../../src/runtime/app-server.js';
import { type Harness, inputTexts, NotificationLog, startHarness, tempDir, testConfig, text } from './support/harness.js';

let h: Harness | null = null;
let cleanup: (() => Promise<void>) | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
  await cleanup?.();
  cleanup = null;
});

describe('thread settings', () => {
  it('a started turn/start applies its model to that turn and later ones; a turn/start that is not submitted changes nothing', async () => {
    h = await startHarness();
    const { threadId, server, log, fake } = h;
    await server.request('turn/start', { threadId, input: [text('one')], model: 'model-b' });
    await log.waitFor('turn/completed');
    const two = await server.request('turn/start', { threadId, input: [text('two')] });
    await log.waitFor('turn/completed', (n) => n.turn.id === two.turn.id);
    expect(fake.requests.map((r) => r.body.model)).toEqual(['model-b', 'model-b']);

    // A compact turn cannot be steered: a turn/start meanwhile is NotSubmitted, so its model is not kept.
    fake.enqueue({ deltas: ['sum', 'mary'], delayMs: 80 });
    const compact = await server.request('turn/start', { threadId, input: [], kind: 'compact' });
    await fake.waitForRequests(3);
    await server.request('turn/start', { threadId, input: [text('ignored')], model: 'model-c' });
    const error = await log.waitFor('error');
    expect(error).toMatchObject({ willRetry: false, error: { message: 'cannot steer a compact turn' } });
    await log.waitFor('turn/completed', (n) => n.turn.id === compact.turn.id);
    const after = await server.request('turn/start', { threadId, input: [text('three')] });
    await log.waitFor('turn/completed', (n) => n.turn.id === after.turn.id);
    expect(fake.requests.map((r) => r.body.model)).toEqual(['model-b', 'model-b', 'model-b', 'model-b']);
    expect(inputTexts(fake.requests[3]!.body)).not.toContain('ignored');
  });
});

describe('steer notifications', () => {
  it('the steer’s userMessage item is started and completed, with one id', async () => {
    h = await startHarness();
    h.fake.enqueue({ deltas: ['a ', 'b ', 'c ', 'd'], delayMs: 40 }, { text: 'second' });
    const { turn } = await h.server.request('turn/start', { threadId: h.threadId, input: [text('first')] });
    await h.log.waitFor('item/agentMessage/delta');
    await h.server.request('turn/steer', { threadId: h.threadId, input: [text('steer me')], expectedTurnId: turn.id });
    await h.log.waitFor('turn/completed');
    const events = h.log.all.flatMap((n) =>
      (n.method === 'item/started' || n.method === 'item/completed') && n.params.item.type === 'userMessage'
        ? [{ method: n.method, id: n.params.item.id, text: JSON.stringify(n.params.item.content), turnId: n.params.turnId }]
        : [],
    );
    const steer = events.filter((e) => e.text.includes('steer me'));
    expect(steer.map((e) => e.method)).toEqual(['item/started', 'item/completed']);
    expect(steer[0]!.id).toBe(steer[1]!.id);
    expect(steer[0]!.turnId).toBe(turn.id);
    expect(events.filter((e) => e.text.includes('first')).map((e) => e.method)).toEqual(['item/started', 'item/completed']);
  });

  it('an empty turn/start while a turn runs is reported as `input must not be empty`, and the running turn goes on', async () => {
    h = await startHarness();
    h.fake.enqueue({ deltas: ['x ', 'y ', 'z'], delayMs: 40 });
    const { turn } = await h.server.request('turn/start', { threadId: h.threadId, input: [text('first')] });
    await h.log.waitFor('item/agentMessage/delta');
    const empty = await h.server.request('turn/start', { threadId: h.threadId, input: [] });
    expect(empty.turn.id).not.toBe(turn.id);
    expect(await h.log.waitFor('error')).toMatchObject({
      willRetry: false,
      turnId: empty.turn.id,
      error: { message: 'input must not be empty', codexErrorInfo: 'badRequest' },
    });
    const done = await h.log.waitFor('turn/completed');
    expect(done.turn).toMatchObject({ id: turn.id, status: 'completed' });
    expect(h.fake.requests).toHaveLength(1);
    expect(h.log.of('turn/started')).toHaveLength(1);
  });
});

describe('compact while a regular turn runs', () => {
  it('is NotIdle: an error notification, no compact turn, and the running turn completes untouched', async () => {
    h = await startHarness();
    h.fake.enqueue({ deltas: ['x ', 'y ', 'z'], delayMs: 40 });
    const { turn } = await h.server.request('turn/start', { threadId: h.threadId, input: [text('first')] });
    await h.log.waitFor('item/agentMessage/delta');
    const compact = await h.server.request('turn/start', { threadId: h.threadId, input: [], kind: 'compact' });
    expect(await h.log.waitFor('error')).toMatchObject({
      willRetry: false,
      turnId: compact.turn.id,
      error: { message: 'a turn is already active' },
    });
    const done = await h.log.waitFor('turn/completed');
    expect(done.turn).toMatchObject({ id: turn.id, status: 'completed' });
    expect(h.log.of('turn/started').map((n) => n.turn.id)).toEqual([turn.id]);
    expect(h.log.of('item/completed').some((n) => n.item.type === 'contextCompaction')).toBe(false);
    expect(h.fake.requests).toHaveLength(1);
  });
});

describe('stream retries with the default budget', () => {
  it('five stream retries announced 1/5 … 5/5, then the turn fails with responseTooManyFailedAttempts', async () => {
    // Without the silent request retries each 503 is one stream attempt (app-server-retries covers both layers).
    h = await startHarness({ config: { requestMaxRetries: 0 } });
    expect(h.config.streamMaxRetries).toBe(5);
    const fail = { fault: { kind: 'status', status: 503 } as Fault };
    h.fake.enqueue(fail, fail, fail, fail, fail, fail, { text: 'never sent' });
    await h.server.request('turn/start', { threadId: h.threadId, input: [text('hi')] });
    const done = await h.log.waitFor('turn/completed');
    expect(done.turn.status).toBe('failed');
    expect(h.fake.requests).toHaveLength(6);
    const errors = h.log.of('error');
    expect(errors.map((e) => (e.willRetry ? e.error.message : 'final'))).toEqual([
      'Reconnecting... 1/5',
      'Reconnecting... 2/5',
      'Reconnecting... 3/5',
      'Reconnecting... 4/5',
      'Reconnecting... 5/5',
      'final',
    ]);
    expect(errors.at(-1)!.error).toEqual(done.turn.error);
    expect(done.turn.error).toMatchObject({ codexErrorInfo: { responseTooManyFailedAttempts: { httpStatusCode: 503 } } });
    expect(done.turn.error!.message.length).toBeGreaterThan(0);
  });

  it('a quota error (429 insufficient_quota) fails the turn at once with usageLimitExceeded', async () => {
    h = await startHarness();
    h.fake.enqueue({
      fault: { kind: 'status', status: 429, body: { error: { message: 'You exceeded your current quota', code: 'insufficient_quota' } } },
    });
    await h.server.request('turn/start', { threadId: h.threadId, input: [text('hi')] });
    const done = await h.log.waitFor('turn/completed');
    expect(done.turn).toMatchObject({ status: 'failed', error: { codexErrorInfo: 'usageLimitExceeded' } });
    expect(h.fake.requests).toHaveLength(1);
    expect(h.log.of('error').map((e) => e.willRetry)).toEqual([false]);
  });
});

describe('the offline model makes steering demonstrable', () => {
  it('input steered in while it streams is reported in its second answer, in the same turn', async () => {
    const previous = process.env.TILLER_OFFLINE_DELAY_MS;
    process.env.TILLER_OFFLINE_DELAY_MS = '15';
    const server = createInProcessAppServer({
      config: testConfig({ apiKey: null, baseUrl: null, model: 'tiller-offline' }),
      cwd: tempDir(),
    });
    cleanup = async () => {
      await server.close();
      if (previous === undefined) delete process.env.TILLER_OFFLINE_DELAY_MS;
      else process.env.TILLER_OFFLINE_DELAY_MS = previous;
    };
    const log = new NotificationLog();
    server.onNotification(log.push);
    const { thread } = await server.request('thread/start', {});
    const { turn } = await server.request('turn/start', { threadId: thread.id, input: [text('tell me what you got')] });
    await log.waitFor('item/agentMessage/delta');
    await server.request('turn/steer', { threadId: thread.id, input: [text('and also this steer')], expectedTurnId: turn.id });
    const done = await log.waitFor('turn/completed', () => true, 20_000);
    expect(done.turn).toMatchObject({ id: turn.id, status: 'completed' });
    const answers = log.of('item/completed').flatMap((n) => (n.item.type === 'agentMessage' ? [n.item.text] : []));
    expect(answers).toHaveLength(2);
    expect(answers[0]).toContain('tell me what you got');
    expect(answers[1]).toContain('You also said while I was working');
    expect(answers[1]).toContain('and also this steer');
  });
});
