/**
 * The waiting-message list through the controller and a scripted app server: focus, edit under
 * the auto-send lock, retract, steer ↔ queue, reorder, send-now, delivery receipts, and the races
 * (an edit meeting delivery, the turn ending or being interrupted while a message is edited).
 */
import { describe, expect, it } from 'vitest';
import { ALREADY_DELIVERED_MESSAGE, NOTHING_WAITING_MESSAGE } from '../../../../src/tui/chat/pending/pending-manager.js';
import { SEND_NOW_MESSAGE } from '../../../../src/tui/chat/controller.js';
import { pendingPreviewLines } from '../../../../src/tui/chat/pending/pending-view.js';
import type { PendingInputEditStatus } from '../../../../src/protocol/pending-input.js';
import { FakeAppServerClient } from '../fake-client.js';
import { createHarness, running, text, type Harness } from '../harness.js';

const rows = (h: Harness): string[] => pendingPreviewLines(h.store.getState(), 120).map((l) => l.text);
const lists = (h: Harness) => {
  const s = h.store.getState();
  return { steers: s.pendingSteers.map((p) => p.text), rejected: s.rejectedSteers.map((p) => p.text), queued: s.queued.map((p) => p.text) };
};
const edits = (h: Harness) =>
  h.client.requestsOf('tiller/pendingInput/edit').map((p) => ({ action: p.action, clientId: p.clientId, input: p.input }));
const clientIdOf = (h: Harness, t: string): string => h.store.getState().pendingSteers.find((p) => p.text === t)!.clientId!;

/** A scripted runtime for the edit method: answers each call with the next status given. */
function editAnswers(...statuses: PendingInputEditStatus[]): FakeAppServerClient {
  const client = new FakeAppServerClient();
  for (const status of statuses) client.once('tiller/pendingInput/edit', () => ({ status }));
  return client;
}

async function queueTwo(h: Harness): Promise<void> {
  await running(h);
  h.type('one');
  h.press('tab');
  h.type('two');
  h.press('tab');
  await h.settle();
}

describe('the waiting-message list', () => {
  it('Ctrl+Q with nothing waiting says so in one line; the draft is untouched', async () => {
    const h = await createHarness();
    h.type('draft');
    h.ctrlKey('q');
    expect(h.cellTexts().at(-1)).toBe(`• ${NOTHING_WAITING_MESSAGE}`);
    expect(h.store.getState().pendingFocus).toBeNull();
    expect(h.composerText()).toBe('draft');
  });

  it('Ctrl+Q gives it the keyboard on the last message; ↑/↓ select, Esc leaves', async () => {
    const h = await createHarness();
    await queueTwo(h);
    h.ctrlKey('q');
    expect(rows(h)).toEqual(['• Queued follow-up inputs', '  ↳ one', '› ↳ two']);
    h.press('up');
    expect(rows(h)).toEqual(['• Queued follow-up inputs', '› ↳ one', '  ↳ two']);
    h.press('up');
    expect(rows(h)[1]).toBe('› ↳ one');
    h.type('x');
    expect(h.composerText()).toBe('');
    h.press('escape');
    expect(h.store.getState().pendingFocus).toBeNull();
    expect(h.client.requestsOf('turn/interrupt')).toEqual([]);
  });

  it('nothing waiting: Ctrl+Q does nothing and typing goes on', async () => {
    const h = await createHarness();
    await running(h);
    h.ctrlKey('q');
    expect(h.store.getState().pendingFocus).toBeNull();
    h.type('z');
    expect(h.composerText()).toBe('z');
  });

  it('e edits a queued message in the composer; Enter puts the edited version back in its place and the draft returns', async () => {
    const h = await createHarness();
    await queueTwo(h);
    h.type('my draft');
    h.ctrlKey('q');
    h.press('up');
    h.type('e');
    expect(h.composerText()).toBe('one');
    expect(rows(h)[1]).toBe('  ↳ one · editing: not sent until you press enter');
    h.type(' edited');
    h.press('enter');
    await h.settle();
    expect(lists(h).queued).toEqual(['one edited', 'two']);
    expect(h.composerText()).toBe('my draft');
    expect(h.client.requestsOf('turn/steer')).toEqual([]);
  });

  it('Esc while editing puts the original back', async () => {
    const h = await createHarness();
    await queueTwo(h);
    h.ctrlKey('q');
    h.press('enter');
    h.ctrlKey('u');
    h.type('changed');
    h.press('escape');
    expect(lists(h).queued).toEqual(['one', 'two']);
    expect(h.composerText()).toBe('');
    expect(h.store.getState().pendingEdit).toBeNull();
    expect(h.client.requestsOf('turn/interrupt')).toEqual([]);
  });

  it('d retracts a queued message locally; the selection moves on', async () => {
    const h = await createHarness();
    await queueTwo(h);
    h.ctrlKey('q');
    h.press('up');
    h.type('d');
    expect(lists(h).queued).toEqual(['two']);
    expect(rows(h)[1]).toBe('› ↳ two');
    h.press('delete');
    expect(lists(h).queued).toEqual([]);
    expect(h.store.getState().pendingFocus).toBeNull();
    expect(edits(h)).toEqual([]);
  });

  it('Alt+↑/↓ reorder queued messages and they are delivered in the order shown', async () => {
    const h = await createHarness();
    await queueTwo(h);
    h.ctrlKey('q');
    h.press('up', { alt: true });
    expect(lists(h).queued).toEqual(['two', 'one']);
    h.press('escape');
    h.completeTurn('turn-1');
    await h.settle();
    expect(h.client.requestsOf('turn/start').at(-1)?.input).toEqual([text('two')]);
  });

  it('a pending steer is held in the runtime while edited and replaced in place on Enter', async () => {
    const h = await createHarness({ client: editAnswers('held', 'replaced') });
    await running(h);
    h.type('steer me');
    h.press('enter');
    await h.settle();
    const id = clientIdOf(h, 'steer me');
    h.ctrlKey('q');
    h.type('e');
    await h.settle();
    expect(edits(h)).toEqual([{ action: 'hold', clientId: id, input: undefined }]);
    expect(h.composerText()).toBe('steer me');
    h.type(' now');
    h.press('enter');
    await h.settle();
    expect(edits(h)[1]).toEqual({ action: 'replace', clientId: id, input: [text('steer me now')] });
    expect(lists(h).steers).toEqual(['steer me now']);
    expect(h.client.requestsOf('turn/steer')).toHaveLength(1);
  });

  it('editing a steer the model already has: the user is told and nothing is edited', async () => {
    const h = await createHarness({ client: editAnswers('alreadyDelivered') });
    await running(h);
    h.type('late');
    h.press('enter');
    await h.settle();
    h.ctrlKey('q');
    h.type('e');
    await h.settle();
    expect(h.store.getState().pendingEdit).toBeNull();
    expect(h.cellTexts().at(-1)).toContain(ALREADY_DELIVERED_MESSAGE);
  });

  it('retracting a pending steer asks the runtime by its client id; retracted → the row goes', async () => {
    const h = await createHarness({ client: editAnswers('retracted') });
    await running(h);
    h.type('oops');
    h.press('enter');
    await h.settle();
    const id = clientIdOf(h, 'oops');
    h.ctrlKey('q');
    h.type('d');
    await h.settle();
    expect(edits(h)).toEqual([{ action: 'retract', clientId: id, input: undefined }]);
    expect(lists(h).steers).toEqual([]);
    expect(h.cellTexts()).toEqual(['› first']);
  });

  it('race: a retract meeting delivery is answered alreadyDelivered; the prompt is in the transcript once, not lost, not doubled', async () => {
    const client = new FakeAppServerClient();
    const h = await createHarness({ client });
    await running(h);
    h.type('racing');
    h.press('enter');
    await h.settle();
    const id = clientIdOf(h, 'racing');
    // The runtime delivers it just before it reads the retract.
    client.once('tiller/pendingInput/edit', () => {
      client.emit('item/completed', {
        threadId: 'thread-1',
        turnId: 'turn-1',
        completedAtMs: 0,
        item: { type: 'userMessage', id, content: [text('racing')] },
      });
      return { status: 'alreadyDelivered' };
    });
    h.ctrlKey('q');
    h.type('d');
    await h.settle();
    expect(h.cellTexts().filter((t) => t.includes('racing'))).toEqual(['› racing']);
    expect(h.cellTexts().at(-1)).toContain(ALREADY_DELIVERED_MESSAGE);
    expect(lists(h).steers).toEqual([]);
    h.completeTurn('turn-1');
    await h.settle();
    expect(h.client.requestsOf('turn/start')).toHaveLength(1);
  });

  it('q moves a pending steer to the front of the queue (retracted from the runtime); s sends a queued one as a steer', async () => {
    const h = await createHarness({ client: editAnswers('retracted') });
    await running(h);
    h.type('later');
    h.press('tab');
    h.type('s1');
    h.press('enter');
    await h.settle();
    h.ctrlKey('q');
    h.press('up');
    expect(rows(h)).toContain('› ↳ s1 · waiting for the next tool call');
    h.type('q');
    await h.settle();
    expect(edits(h).map((e) => e.action)).toEqual(['retract']);
    expect(lists(h)).toEqual({ steers: [], rejected: [], queued: ['s1', 'later'] });
    h.press('down');
    h.type('s');
    await h.settle();
    expect(lists(h)).toEqual({ steers: ['later'], rejected: [], queued: ['s1'] });
    expect(h.client.requestsOf('turn/steer').at(-1)?.input).toEqual([text('later')]);
  });

  it('reordering steers sends them again in the new order (retracted first)', async () => {
    const h = await createHarness({ client: editAnswers('retracted', 'retracted') });
    await running(h);
    for (const t of ['a', 'b']) {
      h.type(t);
      h.press('enter');
    }
    await h.settle();
    h.ctrlKey('q');
    h.press('up', { alt: true });
    await h.settle();
    expect(edits(h).map((e) => e.action)).toEqual(['retract', 'retract']);
    expect(lists(h).steers).toEqual(['b', 'a']);
    expect(
      h.client
        .requestsOf('turn/steer')
        .slice(-2)
        .map((p) => p.input),
    ).toEqual([[text('b')], [text('a')]]);
  });

  it('race: the turn ends while a queued message is edited — it is not sent until Enter, then the queue drains in order', async () => {
    const h = await createHarness();
    await queueTwo(h);
    h.ctrlKey('q');
    h.press('up');
    h.type('e');
    h.type('!');
    h.completeTurn('turn-1');
    await h.settle();
    expect(h.client.requestsOf('turn/start')).toHaveLength(1);
    h.press('enter');
    await h.settle();
    expect(h.client.requestsOf('turn/start').at(-1)?.input).toEqual([text('one!')]);
    expect(lists(h).queued).toEqual(['two']);
  });

  it('race: the runtime returns a held steer at the end of the turn; the edit then goes out as the next turn', async () => {
    const h = await createHarness({ client: editAnswers('held', 'notPending') });
    await running(h);
    h.type('held');
    h.press('enter');
    await h.settle();
    const id = clientIdOf(h, 'held');
    h.ctrlKey('q');
    h.type('e');
    await h.settle();
    h.client.emit('tiller/pendingInputsReturned', { threadId: 'thread-1', turnId: 'turn-1', clientIds: [id] });
    h.completeTurn('turn-1');
    await h.settle();
    expect(lists(h).queued).toEqual(['held']);
    expect(h.client.requestsOf('turn/start')).toHaveLength(1);
    h.type(' v2');
    h.press('enter');
    await h.settle();
    expect(h.client.requestsOf('turn/start').at(-1)?.input).toEqual([text('held v2')]);
  });

  it('race: an interrupt while a message is edited restores everything once — the edit, the others, the displaced draft', async () => {
    const h = await createHarness();
    await queueTwo(h);
    h.type('draft');
    h.ctrlKey('q');
    h.press('up');
    h.type('e');
    h.type(' edited');
    h.completeTurn('turn-1', 'interrupted');
    await h.settle();
    expect(h.store.getState().pendingEdit).toBeNull();
    expect(h.composerText()).toBe('one edited\ntwo\ndraft');
    expect(lists(h)).toEqual({ steers: [], rejected: [], queued: [] });
    expect(h.client.requestsOf('turn/start')).toHaveLength(1);
  });

  it('a delivered steer carries its receipt into the transcript', async () => {
    const h = await createHarness();
    await running(h);
    h.type('check the logs');
    h.press('enter');
    await h.settle();
    const id = clientIdOf(h, 'check the logs');
    h.clock.advance(4_100);
    h.client.emit('item/completed', {
      threadId: 'thread-1',
      turnId: 'turn-1',
      completedAtMs: 0,
      item: { type: 'userMessage', id, content: [text('check the logs')] },
      tillerDelivery: {
        samplingRequest: 2,
        afterItem: { id: 'call-1', type: 'commandExecution', command: 'cargo test' },
        deliveredAtMs: 0,
      },
    });
    const cell = h.store.getState().cells.at(-1)!;
    expect(cell.kind === 'user' ? cell.receipt : null).toBe('delivered after $ cargo test (sampling 2) · 4.1 s after Enter');
  });

  it('a message moved from the queue to the steers counts its receipt from when it was first submitted', async () => {
    const h = await createHarness();
    await running(h);
    h.type('later');
    h.press('tab');
    h.clock.advance(3_000);
    h.ctrlKey('q');
    h.type('s');
    await h.settle();
    expect(lists(h).steers).toEqual(['later']);
    h.clock.advance(1_000);
    h.client.emit('item/completed', {
      threadId: 'thread-1',
      turnId: 'turn-1',
      completedAtMs: 0,
      item: { type: 'userMessage', id: clientIdOf(h, 'later'), content: [text('later')] },
      tillerDelivery: { samplingRequest: 2, afterItem: null, deliveredAtMs: 0 },
    });
    const cell = h.store.getState().cells.at(-1)!;
    // Tab at t, `s` at t + 3.0 s, delivered at t + 4.0 s (and the keys' own 30 ms steps).
    expect(cell.kind === 'user' ? cell.receipt : null).toMatch(/^delivered with sampling 2 · 4\.\d s after Enter$/);
  });

  it('Ctrl+Enter interrupts and sends only this message; the queue and the pending steers stay where they are', async () => {
    const h = await createHarness();
    await running(h);
    h.type('queued');
    h.press('tab');
    h.type('steer');
    h.press('enter');
    await h.settle();
    h.type('only this');
    h.press('enter', { ctrl: true });
    await h.settle();
    expect(h.client.requestsOf('turn/interrupt')).toEqual([{ threadId: 'thread-1', turnId: 'turn-1' }]);
    h.completeTurn('turn-1', 'interrupted');
    await h.settle();
    expect(h.client.requestsOf('turn/start')[1]?.input).toEqual([text('only this')]);
    // The steer the interrupt dropped goes to the new turn, under a new client id.
    const resteered = h.client.requestsOf('turn/steer').at(-1);
    expect(resteered).toMatchObject({ input: [text('steer')], expectedTurnId: 'turn-2' });
    expect(lists(h).steers).toEqual(['steer']);
    expect(h.cellTexts()).toContain(`• ${SEND_NOW_MESSAGE}`);
    expect(lists(h).queued).toEqual(['queued']);
    expect(h.composerText()).toBe('');
  });

  it('Ctrl+Enter when idle is an ordinary submission', async () => {
    const h = await createHarness();
    h.type('hello');
    h.press('enter', { ctrl: true });
    await h.settle();
    expect(h.client.requestsOf('turn/start').map((p) => p.input)).toEqual([[text('hello')]]);
    expect(h.client.requestsOf('turn/interrupt')).toEqual([]);
  });

  it('n in the list sends that message alone now', async () => {
    const h = await createHarness();
    await queueTwo(h);
    h.ctrlKey('q');
    h.type('n');
    await h.settle();
    expect(h.client.requestsOf('turn/interrupt')).toHaveLength(1);
    h.completeTurn('turn-1', 'interrupted');
    await h.settle();
    expect(h.client.requestsOf('turn/start').at(-1)?.input).toEqual([text('two')]);
    expect(lists(h).queued).toEqual(['one']);
  });
});
