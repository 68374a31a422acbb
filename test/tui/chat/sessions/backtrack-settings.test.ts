/** Editing an earlier message (Esc Esc, Enter) keeps the /model choice and the reasoning effort, as /fork and resume do. */
import { describe, expect, it } from 'vitest';
import { charKey } from '../../../../src/tui/keys/types.js';
import { turn } from '../fake-client.js';
import { createHarness, text, type Harness } from '../harness.js';

async function send(h: Harness, message: string, turnId: string): Promise<void> {
  h.type(message);
  h.press('enter');
  await h.settle();
  h.client.emit('turn/started', { threadId: 'thread-1', turn: turn(turnId) });
  h.client.emit('turn/completed', { threadId: 'thread-1', turn: turn(turnId, 'completed') });
  await h.settle();
}

/** /model, the second model, effort 5 (high). */
async function chooseLargeHigh(h: Harness): Promise<void> {
  h.type('/model');
  h.press('enter');
  await h.settle();
  h.press('down');
  h.press('enter');
  h.input(charKey('5'));
  expect(h.store.getState().footer).toMatchObject({ model: 'fake-model-large', effort: 'high' });
}

describe('backtrack and the turn settings', () => {
  it('the resent message goes out with the chosen model and effort, from a fork', async () => {
    const h = await createHarness();
    await send(h, 'one', 'turn-1');
    await chooseLargeHigh(h);
    await send(h, 'two', 'turn-2');
    h.press('escape');
    h.press('escape');
    h.press('enter');
    await h.settle();
    expect(h.store.getState().threadId).toBe('thread-fork');
    expect(h.store.getState().footer).toMatchObject({ model: 'fake-model-large', effort: 'high' });
    h.press('enter');
    await h.settle();
    expect(h.client.requestsOf('turn/start').at(-1)).toMatchObject({
      threadId: 'thread-fork',
      input: [text('two')],
      model: 'fake-model-large',
      effort: 'high',
    });
  });

  it('and from the new thread that editing the first message starts', async () => {
    const h = await createHarness();
    await chooseLargeHigh(h);
    await send(h, 'first', 'turn-1');
    h.press('escape');
    h.press('escape');
    h.press('enter');
    await h.settle();
    expect(h.client.requestsOf('thread/start').at(-1)).toMatchObject({ model: 'fake-model-large' });
    h.press('enter');
    await h.settle();
    expect(h.client.requestsOf('turn/start').at(-1)).toMatchObject({ input: [text('first')], model: 'fake-model-large', effort: 'high' });
  });
});
