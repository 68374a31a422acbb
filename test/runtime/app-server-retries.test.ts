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

describe('stream retries', () => {
  const faults: Array<[string, Fault]> = [
    ['500', { kind: 'status', status: 500 }],
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
      expect(agent.at(-1)!.item).toMatchObject({ text: 'recovered' });
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

  it('a Retry-After beyond Node\'s timer range is waited, spelled out, and an interrupt cancels the wait', async () => {
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
    h = await startHarness({ config: { streamMaxRetries: 2 } });
    const fail = { fault: { kind: 'status', status: 500 } as Fault };
    h.fake.enqueue(fail, fail, fail);
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

  it('token usage is reported', async () => {
    h = await startHarness();
    h.fake.enqueue({ text: 'a b c', usage: { input_tokens: 12, output_tokens: 3 } });
    await runTurn();
    const usage = h.log.of('thread/tokenUsage/updated');
    expect(usage.at(-1)!.tokenUsage.total).toMatchObject({ inputTokens: 12, outputTokens: 3 });
  });
});
