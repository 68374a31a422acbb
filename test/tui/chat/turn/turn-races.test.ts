/**
 * Races between the user's keys and the server's answers: a turn/start the runtime steers into the
 * running turn (it answers with a new id), and Esc / Ctrl+C before the new turn's id is known.
 */
import { describe, expect, it } from 'vitest';
import { JsonRpcError, JSONRPC_INVALID_REQUEST, type TurnStartResult } from '../../../../src/protocol/api.js';
import { notSubmittedError } from '../../../../src/protocol/turn-errors.js';
import { INTERRUPTED_MESSAGE, STEER_INTERRUPT_MESSAGE } from '../../../../src/tui/chat/controller.js';
import { pendingPreviewLines } from '../../../../src/tui/chat/pending/pending-view.js';
import { FakeAppServerClient, turn } from '../fake-client.js';
import { createHarness, interruptTurnOne, running, text, userMessage, type Harness } from '../harness.js';

/** Lets promise callbacks run without waiting for requests that are held back (settle() would). */
const flush = async (): Promise<void> => {
  for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
};

/** A client whose next turn/start answer waits until `release` (or `fail`) is called. */
function heldStart(): { client: FakeAppServerClient; release: (id: string) => void; fail: (error: Error) => void } {
  let settle: { resolve: (r: TurnStartResult) => void; reject: (e: Error) => void } | null = null;
  const client = new FakeAppServerClient().once(
    'turn/start',
    () => new Promise<TurnStartResult>((resolve, reject) => (settle = { resolve, reject })),
  );
  const held = (): NonNullable<typeof settle> => {
    if (settle === null) throw new Error('turn/start was not sent');
    return settle;
  };
  return { client, release: (id) => held().resolve({ turn: turn(id) }), fail: (error) => held().reject(error) };
}

/**
 * `first` runs as turn-1; then `x` is sent while the client's cache was cleared by a stale
 * `no active turn to steer`, so it goes out as turn/start — and the runtime steers it into turn-1,
 * answering with the new id turn-2.
 */
async function steeredStart(h: Harness): Promise<void> {
  await running(h);
  h.client.once('turn/steer', () => {
    throw notSubmittedError({ type: 'noActiveTurn' });
  });
  h.type('x');
  h.press('enter');
  await h.settle();
  expect(h.client.requests.slice(-2).map((r) => r.method)).toEqual(['turn/steer', 'turn/start']);
}

describe('a turn/start the runtime steered into the running turn', () => {
  it('stays a pending steer; later steers and the commit go to the running turn', async () => {
    const h = await createHarness();
    await steeredStart(h);
    expect(h.cellTexts()).toEqual(['› first']);
    expect(pendingPreviewLines(h.store.getState(), 120).map((l) => l.text)).toEqual([
      '• Messages to be submitted after next tool call (press esc to interrupt and send immediately)',
      '  ↳ x · waiting for the next tool call',
      '    ctrl + q edit or retract',
    ]);
    h.type('y');
    h.press('enter');
    await h.settle();
    expect(h.client.requestsOf('turn/steer').at(-1)).toEqual({
      threadId: 'thread-1',
      input: [text('y')],
      expectedTurnId: 'turn-1',
      tillerClientId: expect.stringMatching(/^tiller-input-/),
    });
    userMessage(h, 'turn-1', 'x');
    expect(h.cellTexts()).toEqual(['› first', '› x']);
    expect(h.store.getState().pendingSteers.map((p) => p.text)).toEqual(['y']);
  });

  it('Esc interrupts the running turn and resubmits it with the other steers', async () => {
    const h = await createHarness();
    await steeredStart(h);
    h.press('escape');
    await interruptTurnOne(h);
    expect(h.cellTexts()).toEqual(['› first', `• ${STEER_INTERRUPT_MESSAGE}`, '› x']);
    expect(h.client.requestsOf('turn/start').at(-1)?.input).toEqual([text('x')]);
    expect(h.store.getState().pendingSteers).toEqual([]);
  });

  it('a plain interrupt restores it into the composer', async () => {
    const h = await createHarness();
    await steeredStart(h);
    h.ctrlKey('c');
    await interruptTurnOne(h);
    expect(h.cellTexts().at(-1)).toBe(`■ ${INTERRUPTED_MESSAGE}`);
    expect(h.composerText()).toBe('x');
    expect(h.client.requestsOf('turn/start')).toHaveLength(2);
  });

  it('when its own turn starts after all, the row becomes the prompt', async () => {
    const h = await createHarness();
    await steeredStart(h);
    h.completeTurn('turn-1');
    h.startTurn('turn-2');
    await h.settle();
    expect(h.store.getState().pendingSteers).toEqual([]);
    expect(h.cellTexts()).toEqual(['› first', '› x']);
    userMessage(h, 'turn-2', 'x');
    expect(h.cellTexts()).toEqual(['› first', '› x']);
  });

  it('a prompt already shown is kept as a pending steer without a second transcript cell', async () => {
    const { client, release } = heldStart();
    const h = await createHarness({ client });
    h.type('hello');
    h.press('enter');
    await flush();
    // Another turn starts before the answer; the answer names a different id.
    h.startTurn('turn-9');
    release('turn-10');
    await h.settle();
    expect(h.cellTexts()).toEqual(['› hello']);
    expect(h.store.getState().pendingSteers.map((p) => p.text)).toEqual(['hello']);
    userMessage(h, 'turn-9', 'hello');
    expect(h.store.getState().pendingSteers).toEqual([]);
    expect(h.cellTexts()).toEqual(['› hello']);
  });
});

describe('Esc before the turn id is known', () => {
  it('is remembered and sent once the turn/start answer names the turn', async () => {
    const h = await createHarness();
    h.type('hello');
    h.press('enter');
    h.press('escape');
    expect(h.client.requestsOf('turn/interrupt')).toEqual([]);
    await h.settle();
    expect(h.client.requestsOf('turn/interrupt')).toEqual([{ threadId: 'thread-1', turnId: 'turn-1' }]);
    h.startTurn('turn-1');
    h.completeTurn('turn-1', 'interrupted');
    await h.settle();
    expect(h.cellTexts()).toEqual(['› hello', `■ ${INTERRUPTED_MESSAGE}`]);
    expect(h.client.requestsOf('turn/interrupt')).toHaveLength(1);
    h.type('next');
    h.press('enter');
    await h.settle();
    expect(h.client.requestsOf('turn/start').at(-1)?.input).toEqual([text('next')]);
    expect(h.client.requestsOf('turn/interrupt')).toHaveLength(1);
  });

  it('after turn/started came before the answer, it follows the turn/start request, once', async () => {
    const { client, release } = heldStart();
    const h = await createHarness({ client });
    h.type('hello');
    h.press('enter');
    await flush();
    h.press('escape');
    h.startTurn('turn-1');
    await flush();
    expect(h.client.requestsOf('turn/interrupt')).toEqual([]);
    release('turn-1');
    await h.settle();
    expect(h.client.requestsOf('turn/interrupt')).toEqual([{ threadId: 'thread-1', turnId: 'turn-1' }]);
  });

  it('reaches a turn that started even though its turn/start answer failed', async () => {
    const { client, fail } = heldStart();
    const h = await createHarness({ client });
    h.type('hello');
    h.press('enter');
    await flush();
    h.press('escape');
    h.startTurn('turn-1');
    fail(new JsonRpcError(-32603, 'connection reset'));
    await h.settle();
    expect(h.client.requestsOf('turn/interrupt')).toEqual([{ threadId: 'thread-1', turnId: 'turn-1' }]);
  });

  it('a steer typed in the same window reaches the turn before the interrupt and is sent once afterwards', async () => {
    const h = await createHarness();
    h.type('hello');
    h.press('enter');
    h.type('also');
    h.press('enter');
    h.press('escape');
    await h.settle();
    expect(h.client.requests.slice(2).map((r) => r.method)).toEqual(['turn/start', 'turn/steer', 'turn/interrupt']);
    h.startTurn('turn-1');
    h.completeTurn('turn-1', 'interrupted');
    await h.settle();
    expect(h.cellTexts()).toEqual(['› hello', `• ${STEER_INTERRUPT_MESSAGE}`, '› also']);
    expect(h.client.requestsOf('turn/start').map((p) => p.input)).toEqual([[text('hello')], [text('also')]]);
  });

  it('Ctrl+C on an empty composer in that window interrupts too and does not quit', async () => {
    const h = await createHarness();
    h.type('hello');
    h.press('enter');
    h.ctrlKey('c');
    await h.settle();
    expect(h.client.requestsOf('turn/interrupt')).toEqual([{ threadId: 'thread-1', turnId: 'turn-1' }]);
    expect(h.store.getState().exitRequested).toBe(false);
  });

  it('is forgotten when the turn/start fails, so the next turn is not interrupted', async () => {
    const client = new FakeAppServerClient().once('turn/start', () => {
      throw new JsonRpcError(-32603, 'boom');
    });
    const h = await createHarness({ client });
    h.type('hello');
    h.press('enter');
    h.press('escape');
    await h.settle();
    expect(h.cellTexts()).toEqual(['› hello', '■ boom']);
    h.press('enter');
    await h.settle();
    h.startTurn('turn-1');
    await h.settle();
    expect(h.client.requestsOf('turn/start')).toHaveLength(2);
    expect(h.client.requestsOf('turn/interrupt')).toEqual([]);
  });
});

describe('Tab between Enter and turn/started', () => {
  it('queues the message (a turn is running from Enter on), and it goes out after the turn, not as a steer', async () => {
    const { client, release } = heldStart();
    const h = await createHarness({ client });
    h.type('first');
    h.press('enter');
    await flush();
    // turn/start is sent, its answer and turn/started not in yet.
    h.type('later');
    h.press('tab');
    await flush();
    expect(h.store.getState().queued.map((q) => q.text)).toEqual(['later']);
    expect(h.store.getState().pendingSteers).toEqual([]);
    release('turn-1');
    await h.settle();
    h.startTurn('turn-1');
    expect(h.client.requestsOf('turn/steer')).toEqual([]);
    h.completeTurn('turn-1', 'completed');
    await h.settle();
    expect(h.client.requestsOf('turn/start').map((p) => p.input)).toEqual([[text('first')], [text('later')]]);
    expect(h.client.requestsOf('turn/steer')).toEqual([]);
  });

  it('a turn/start that fails ends the running state the composer reads', async () => {
    const { client, fail } = heldStart();
    const h = await createHarness({ client });
    h.type('first');
    h.press('enter');
    await flush();
    expect(h.store.getState().composer.taskRunning).toBe(true);
    fail(new JsonRpcError(JSONRPC_INVALID_REQUEST, 'no'));
    await h.settle();
    expect(h.store.getState().composer.taskRunning).toBe(false);
  });
});
