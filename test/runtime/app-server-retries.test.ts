import { afterEach, describe, expect, it } from 'vitest';
import type { Fault } from '../support/fake-responses-server.js';
import { type Harness, startHarness, text } from './support/harness.js';

let h: Harness;
afterEach(async () => {
  await h?.close();
});

async function runTurn(): Promise<{ status: string; error: unknown }> {
  await h.server.request('turn/start', { threadId: h.threadId, input: [text('hi')] });
  const done = await h.log.waitFor('turn/completed');
  return { status: done.turn.status, error: done.turn.error };
}

const status500 = { fault: { kind: 'status', status: 500 } as Fault };

describe('request retries (before a stream begins)', () => {
  it('a single 500 is retried silently: no "Reconnecting", no error notification', async () => {
    h = await startHarness();
    h.fake.enqueue(status500, { text: 'recovered' });
    const result = await runTurn();
    expect(result.status).toBe('completed');
    expect(h.fake.requests).toHaveLength(2);
    expect(h.log.of('error')).toEqual([]);
  });

  it('six 500s complete on the 7th request: 4 silent request retries, one stream retry announced, then a silent one', async () => {
    h = await startHarness();
    h.fake.enqueue(status500, status500, status500, status500, status500, status500, { text: 'recovered' });
    const result = await runTurn();
    expect(result.status).toBe('completed');
    expect(h.fake.requests).toHaveLength(7);
    const errors = h.log.of('error');
    expect(errors.map((e) => [e.willRetry, e.error.message])).toEqual([[true, 'Reconnecting... 1/5']]);
    expect(errors[0]!.error.codexErrorInfo).toEqual({ responseStreamConnectionFailed: { httpStatusCode: 500 } });
  });

  it('both layers exhausted: (request_max_retries + 1) × (stream_max_retries + 1) requests, then the turn fails', async () => {
    h = await startHarness({ config: { requestMaxRetries: 1, streamMaxRetries: 1 } });
    h.fake.setDefault(status500);
    const result = await runTurn();
    expect(result.status).toBe('failed');
    expect(h.fake.requests).toHaveLength(4);
    expect(h.log.of('error').map((e) => [e.willRetry, e.error.message.startsWith('Reconnecting') ? e.error.message : 'final'])).toEqual([
      [true, 'Reconnecting... 1/1'],
      [false, 'final'],
    ]);
    expect(result.error).toMatchObject({ codexErrorInfo: { responseTooManyFailedAttempts: { httpStatusCode: 500 } } });
  });
});

describe('stream retries', () => {
  const faults: Array<[string, Fault]> = [
    ['a dropped connection', { kind: 'drop', afterEvents: 3 }],
    ['a malformed event', { kind: 'malformed', afterEvents: 2 }],
    ['a stalled stream (idle timeout)', { kind: 'stall', afterEvents: 2 }],
  ];
  for (const [name, fault] of faults) {
    it(`retries after ${name}, announces it, then succeeds`, async () => {
      // A short idle timeout only where the stall needs it: under load a real stream can pause that long.
      h = await startHarness({ config: { streamIdleTimeoutMs: fault.kind === 'stall' ? 300 : 5_000 } });
      h.fake.enqueue({ text: 'partial answer here', fault }, { text: 'recovered' });
      const result = await runTurn();
      expect(result.status).toBe('completed');
      const errors = h.log.of('error');
      // One retry; with the short stall timeout a loaded machine may need another.
      expect(errors.length).toBe(h.fake.requests.length - 1);
      if (fault.kind !== 'stall') expect(errors).toHaveLength(1);
      expect(errors.every((e) => e.willRetry)).toBe(true);
      expect(errors[0]).toMatchObject({ willRetry: true, error: { message: 'Reconnecting... 1/5' } });
      expect(errors[0]!.error.additionalDetails).toBeTruthy();
      const agent = h.log.of('item/completed').filter((n) => n.item.type === 'agentMessage');
      expect(agent.map((n) => n.item)).toEqual([expect.objectContaining({ text: 'recovered' })]);
    });
  }

  it('a 429 waits the server delay (Retry-After), not the backoff', async () => {
    // A backoff of a minute would time the test out: finishing proves the server's 50 ms won.
    h = await startHarness({ server: { backoffMs: () => 60_000 } });
    h.fake.enqueue({ fault: { kind: 'status', status: 429, retryAfter: '0.05' } }, { text: 'ok now' });
    const result = await runTurn();
    expect(result.status).toBe('completed');
    expect(h.log.of('error')[0]).toMatchObject({ willRetry: true, error: { message: 'Reconnecting... 1/5' } });
  });

  it("a Retry-After beyond Node's timer range is waited, spelled out, and an interrupt cancels the wait", async () => {
    h = await startHarness();
    h.fake.enqueue({ fault: { kind: 'status', status: 429, retryAfter: '9999999' } }, { text: 'never asked for' });
    await h.server.request('turn/start', { threadId: h.threadId, input: [text('hi')] });
    const announced = await h.log.waitFor('error');
    expect(announced).toMatchObject({ willRetry: true, error: { message: 'Reconnecting... 1/5 (retrying in 115 d 17 h; Esc cancels)' } });
    const turnId = h.log.of('turn/started')[0]!.turn.id;
    await h.server.request('turn/interrupt', { threadId: h.threadId, turnId });
    const done = await h.log.waitFor('turn/completed');
    expect(done.turn.status).toBe('interrupted');
    expect(h.fake.requests).toHaveLength(1);
  });

  it('retries exhausted → turn failed with responseTooManyFailedAttempts and a final error notification', async () => {
    // No request retries: each 500 is one stream attempt.
    h = await startHarness({ config: { requestMaxRetries: 0, streamMaxRetries: 2 } });
    h.fake.enqueue(status500, status500, status500);
    const result = await runTurn();
    expect(result.status).toBe('failed');
    expect(h.fake.requests).toHaveLength(3);
    const errors = h.log.of('error');
    expect(errors.map((e) => [e.willRetry, e.error.message.startsWith('Reconnecting') ? e.error.message : 'final'])).toEqual([
      [true, 'Reconnecting... 1/2'],
      [true, 'Reconnecting... 2/2'],
      [false, 'final'],
    ]);
    expect(result.error).toMatchObject({ codexErrorInfo: { responseTooManyFailedAttempts: { httpStatusCode: 500 } } });
    expect((result.error as { message: string }).message).toMatch(/retry limit/);
  });

  it('a 400 fails at once without retrying', async () => {
    h = await startHarness();
    h.fake.enqueue({ fault: { kind: 'status', status: 400, body: { error: { message: 'bad things', type: 'invalid_request_error' } } } });
    const result = await runTurn();
    expect(result.status).toBe('failed');
    expect(h.fake.requests).toHaveLength(1);
    expect(result.error).toMatchObject({ codexErrorInfo: 'badRequest' });
    expect(h.log.of('error')).toEqual([expect.objectContaining({ willRetry: false })]);
  });

  it('a response.failed with context_length_exceeded is not retried', async () => {
    h = await startHarness();
    h.fake.enqueue({ fault: { kind: 'failed', code: 'context_length_exceeded', message: 'too long' } });
    const result = await runTurn();
    expect(result.status).toBe('failed');
    expect(h.fake.requests).toHaveLength(1);
    expect(result.error).toMatchObject({ codexErrorInfo: 'contextWindowExceeded' });
  });

  it('token usage is reported with every field Codex carries, summed over the turns', async () => {
    h = await startHarness();
    const usage = { input_tokens: 12, output_tokens: 3, cached_tokens: 4, cache_write_tokens: 5, reasoning_tokens: 1 };
    h.fake.enqueue({ text: 'a b c', usage }, { text: 'd', usage });
    await runTurn();
    const second = await h.server.request('turn/start', { threadId: h.threadId, input: [text('again')] });
    await h.log.waitFor('turn/completed', (n) => n.turn.id === second.turn.id);
    const last = {
      inputTokens: 12,
      cachedInputTokens: 4,
      cacheWriteInputTokens: 5,
      outputTokens: 3,
      reasoningOutputTokens: 1,
      totalTokens: 15,
    };
    expect(h.log.of('thread/tokenUsage/updated').at(-1)!.tokenUsage).toEqual({
      last,
      total: {
        inputTokens: 24,
        cachedInputTokens: 8,
        cacheWriteInputTokens: 10,
        outputTokens: 6,
        reasoningOutputTokens: 2,
        totalTokens: 30,
      },
    });
  });
});
