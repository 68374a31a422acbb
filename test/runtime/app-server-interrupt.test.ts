import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { JsonRpcError } from '../../src/protocol/api.js';
import type { ResponseItem } from '../../src/protocol/response-items.js';
import { NO_ACTIVE_TURN_TO_INTERRUPT } from '../../src/protocol/turn-errors.js';
import { TURN_ABORTED_MARKER } from '../../src/runtime/core/history.js';
import { fromUserInput } from '../../src/protocol/response-items.js';
import { conversation, type Harness, inputTexts, startHarness, tempDir, text } from './support/harness.js';
import { alive, until, waitForPid } from './support/process.js';

const realPrepare = (content: Parameters<typeof fromUserInput>[0]): Promise<ResponseItem[]> =>
  fromUserInput(content, { localImagePreparation: 'process' });

let h: Harness;
afterEach(async () => {
  await h?.close();
});

describe('turn/interrupt', () => {
  it('while streaming: turn/completed interrupted, marker in the next request, history kept, session still accepts input', async () => {
    h = await startHarness();
    h.fake.enqueue({ fault: { kind: 'stall', afterEvents: 3 } }, { text: 'next' });
    const { turn } = await h.server.request('turn/start', { threadId: h.threadId, input: [text('first')] });
    await h.fake.waitForRequests(1);
    await h.log.waitFor('turn/started');
    expect(await h.server.request('turn/interrupt', { threadId: h.threadId, turnId: turn.id })).toEqual({});
    const done = await h.log.waitFor('turn/completed');
    expect(done.turn).toMatchObject({ id: turn.id, status: 'interrupted', error: null });
    await h.server.request('turn/start', { threadId: h.threadId, input: [text('second')] });
    await h.log.waitFor('turn/completed', (n) => n.turn.id !== turn.id);
    expect(inputTexts(h.fake.requests[1]!.body)).toEqual(['first', TURN_ABORTED_MARKER, 'second']);
    const marker = conversation(h.fake.requests[1]!.body)[1];
    expect(marker).toMatchObject({ type: 'message', role: 'user' });
  });

  it('without the marker when config interruptMarker is off', async () => {
    h = await startHarness({ config: { interruptMarker: false } });
    h.fake.enqueue({ fault: { kind: 'stall', afterEvents: 3 } }, { text: 'next' });
    const { turn } = await h.server.request('turn/start', { threadId: h.threadId, input: [text('first')] });
    await h.fake.waitForRequests(1);
    await h.server.request('turn/interrupt', { threadId: h.threadId, turnId: turn.id });
    await h.server.request('turn/start', { threadId: h.threadId, input: [text('second')] });
    await h.fake.waitForRequests(2);
    expect(inputTexts(h.fake.requests[1]!.body)).toEqual(['first', 'second']);
  });

  it('while a tool runs: the process group is killed and the call and output stay in history', async () => {
    const dir = tempDir();
    const pidFile = join(dir, 'pid');
    const childPidFile = join(dir, 'child');
    h = await startHarness({ cwd: dir });
    h.fake.enqueue(
      {
        functionCall: {
          name: 'shell',
          arguments: { command: `echo $$ > ${pidFile}; (sleep 30 & echo $! > ${childPidFile}; wait)` },
          callId: 'call_1',
        },
      },
      { text: 'after' },
    );
    const { turn } = await h.server.request('turn/start', { threadId: h.threadId, input: [text('run it')] });
    const pid = await waitForPid(pidFile);
    const childPid = await waitForPid(childPidFile);
    expect(alive(pid)).toBe(true);
    await h.server.request('turn/interrupt', { threadId: h.threadId, turnId: turn.id });
    const done = await h.log.waitFor('turn/completed');
    expect(done.turn.status).toBe('interrupted');
    await until(() => !alive(pid) && !alive(childPid));
    await h.server.request('turn/start', { threadId: h.threadId, input: [text('again')] });
    await h.fake.waitForRequests(2);
    const input = conversation(h.fake.requests[1]!.body) as Array<{ type: string; call_id?: string }>;
    expect(input.map((i) => i.type)).toEqual(['message', 'function_call', 'function_call_output', 'message', 'message']);
    expect(inputTexts(h.fake.requests[1]!.body)).toEqual(['run it', TURN_ABORTED_MARKER, 'again']);
    const command = h.log.of('item/completed').find((n) => n.item.type === 'commandExecution');
    expect(command?.item).toMatchObject({ status: 'failed' });
  });

  it('drops pending steers that were not taken', async () => {
    h = await startHarness();
    h.fake.enqueue({ fault: { kind: 'stall', afterEvents: 3 } }, { text: 'next' });
    const { turn } = await h.server.request('turn/start', { threadId: h.threadId, input: [text('first')] });
    await h.fake.waitForRequests(1);
    await h.log.waitFor('turn/started');
    await h.server.request('turn/steer', { threadId: h.threadId, input: [text('pending steer')], expectedTurnId: turn.id });
    await h.server.request('turn/interrupt', { threadId: h.threadId, turnId: turn.id });
    await h.server.request('turn/start', { threadId: h.threadId, input: [text('second')] });
    await h.fake.waitForRequests(2);
    expect(inputTexts(h.fake.requests[1]!.body)).not.toContain('pending steer');
  });
});

async function rejection(promise: Promise<unknown>): Promise<JsonRpcError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof JsonRpcError) return error;
    throw error;
  }
  throw new Error('expected the request to fail');
}

/** After an interrupt the session must still work: a new turn sends a request and completes. */
async function nextTurnCompletes(h: Harness, prompt: string): Promise<void> {
  const before = h.fake.requests.length;
  h.fake.enqueue({ text: 'fresh answer' });
  const { turn } = await h.server.request('turn/start', { threadId: h.threadId, input: [text(prompt)] });
  const done = await h.log.waitFor('turn/completed', (n) => n.turn.id === turn.id);
  expect(done.turn.status).toBe('completed');
  expect(h.fake.requests).toHaveLength(before + 1);
  expect(inputTexts(h.fake.requests.at(-1)!.body).at(-1)).toBe(prompt);
}

describe('turn/interrupt while the model stream is stalled', () => {
  for (const afterEvents of [0, 1, 4]) {
    it(`stalled after ${afterEvents} events: interrupted, then a new turn/start sends a request and completes`, async () => {
      h = await startHarness();
      h.fake.enqueue({ text: 'some words that never all arrive', fault: { kind: 'stall', afterEvents } });
      const { turn } = await h.server.request('turn/start', { threadId: h.threadId, input: [text('first')] });
      await h.fake.waitForRequests(1);
      await h.server.request('turn/interrupt', { threadId: h.threadId, turnId: turn.id });
      expect((await h.log.waitFor('turn/completed', (n) => n.turn.id === turn.id)).turn.status).toBe('interrupted');
      await nextTurnCompletes(h, 'second');
    });
  }

  it('interrupting with the id of a turn/start that was steered into the stalled turn ends that turn', async () => {
    // The client's first turn/start was still in flight when it sent the second one, so the second
    // was steered into the running turn and its id is the one the client knows and interrupts.
    h = await startHarness();
    h.fake.enqueue({ text: 'never finishes', fault: { kind: 'stall', afterEvents: 3 } });
    const [first, second] = await Promise.all([
      h.server.request('turn/start', { threadId: h.threadId, input: [text('first')] }),
      h.server.request('turn/start', { threadId: h.threadId, input: [text('second')] }),
    ]);
    expect(second.turn.id).not.toBe(first.turn.id);
    await h.fake.waitForRequests(1);
    expect(await h.server.request('turn/interrupt', { threadId: h.threadId, turnId: second.turn.id })).toEqual({});
    expect((await h.log.waitFor('turn/completed')).turn).toMatchObject({ id: first.turn.id, status: 'interrupted' });
    await nextTurnCompletes(h, 'third');
  });

  it('an interrupt naming another turn is refused and the running turn keeps running; no turn → no active turn to interrupt', async () => {
    h = await startHarness();
    const idle = await rejection(h.server.request('turn/interrupt', { threadId: h.threadId, turnId: 'some-turn' }));
    expect({ code: idle.code, message: idle.message }).toEqual({ code: -32600, message: NO_ACTIVE_TURN_TO_INTERRUPT });
    h.fake.enqueue({ text: 'never finishes', fault: { kind: 'stall', afterEvents: 3 } });
    const { turn } = await h.server.request('turn/start', { threadId: h.threadId, input: [text('first')] });
    await h.fake.waitForRequests(1);
    const wrong = await rejection(h.server.request('turn/interrupt', { threadId: h.threadId, turnId: 'other-turn' }));
    expect({ code: wrong.code, message: wrong.message, data: wrong.data }).toEqual({
      code: -32600,
      message: `expected active turn id other-turn but found ${turn.id}`,
      data: { tillerInterrupt: { type: 'mismatch', actual: turn.id } },
    });
    expect(h.log.of('turn/completed')).toHaveLength(0);
    // An empty turn id stops whatever runs (Codex's startup interrupt).
    expect(await h.server.request('turn/interrupt', { threadId: h.threadId, turnId: '' })).toEqual({});
    expect((await h.log.waitFor('turn/completed')).turn).toMatchObject({ id: turn.id, status: 'interrupted' });
    expect(await h.server.request('turn/interrupt', { threadId: h.threadId, turnId: '' })).toEqual({});
    const late = await rejection(h.server.request('turn/interrupt', { threadId: h.threadId, turnId: turn.id }));
    expect(late.message).toBe(NO_ACTIVE_TURN_TO_INTERRUPT);
    await nextTurnCompletes(h, 'second');
  });
});

describe('turn/interrupt during other waits', () => {
  it('right after turn/start, before any request: the prompt stays in history before the marker', async () => {
    h = await startHarness();
    const { turn } = await h.server.request('turn/start', { threadId: h.threadId, input: [text('first')] });
    await h.server.request('turn/interrupt', { threadId: h.threadId, turnId: turn.id });
    expect((await h.log.waitFor('turn/completed')).turn.status).toBe('interrupted');
    expect(h.fake.requests).toHaveLength(0);
    await nextTurnCompletes(h, 'second');
    expect(inputTexts(h.fake.requests[0]!.body)).toEqual(['first', TURN_ABORTED_MARKER, 'second']);
  });

  it('during a 429 backoff sleep: interrupted at once, no retry is sent', async () => {
    h = await startHarness({ server: { backoffMs: () => 60_000 } });
    h.fake.enqueue({ fault: { kind: 'status', status: 429, retryAfter: '600' } });
    const { turn } = await h.server.request('turn/start', { threadId: h.threadId, input: [text('first')] });
    expect((await h.log.waitFor('error')).willRetry).toBe(true);
    await h.server.request('turn/interrupt', { threadId: h.threadId, turnId: turn.id });
    expect((await h.log.waitFor('turn/completed')).turn.status).toBe('interrupted');
    expect(h.fake.requests).toHaveLength(1);
    await nextTurnCompletes(h, 'second');
    expect(inputTexts(h.fake.requests[1]!.body)).toEqual(['first', TURN_ABORTED_MARKER, 'second']);
  });

  it('during a UserPromptSubmit hook: the hook process is killed, the input is not recorded', async () => {
    const dir = tempDir();
    const pidFile = join(dir, 'hook-pid');
    // Only the first run hangs, so the next turn's hook passes.
    const hook = `if [ ! -f ${pidFile} ]; then echo $$ > ${pidFile}; sleep 30; fi`;
    h = await startHarness({ config: { userPromptSubmitHooks: [hook] }, cwd: dir });
    const { turn } = await h.server.request('turn/start', { threadId: h.threadId, input: [text('held by the hook')] });
    const pid = await waitForPid(pidFile);
    await h.server.request('turn/interrupt', { threadId: h.threadId, turnId: turn.id });
    expect((await h.log.waitFor('turn/completed')).turn.status).toBe('interrupted');
    await until(() => !alive(pid));
    expect(h.fake.requests).toHaveLength(0);
    await nextTurnCompletes(h, 'second');
    expect(inputTexts(h.fake.requests[0]!.body)).toEqual([TURN_ABORTED_MARKER, 'second']);
  });

  it('during local image preparation: interrupted within the grace period; the late result is dropped', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let slowCalls = 0;
    // The late result, once handed back to the runtime.
    let lateResult: Promise<unknown> = Promise.resolve();
    const prepareUserInput = async (content: Parameters<typeof realPrepare>[0]): Promise<ResponseItem[]> => {
      if (content.some((item) => item.type === 'local_image')) {
        slowCalls += 1;
        const result = released.then(() => realPrepare(content));
        lateResult = result;
        return result;
      }
      return realPrepare(content);
    };
    h = await startHarness({ server: { prepareUserInput } });
    const { turn } = await h.server.request('turn/start', {
      threadId: h.threadId,
      input: [{ type: 'localImage', path: join(tempDir(), 'slow.png') }, text('look')],
    });
    await until(() => slowCalls === 1);
    await h.server.request('turn/interrupt', { threadId: h.threadId, turnId: turn.id });
    expect((await h.log.waitFor('turn/completed')).turn.status).toBe('interrupted');
    await nextTurnCompletes(h, 'second');
    release();
    await lateResult;
    await nextTurnCompletes(h, 'third');
    expect(inputTexts(h.fake.requests[1]!.body)).toEqual([TURN_ABORTED_MARKER, 'second', 'fresh answer', 'third']);
    expect(h.log.of('warning')).toHaveLength(0);
  });
});
