import { describe, expect, it } from 'vitest';
import { approvalKey, isEditQueuedKey, unhandledKey } from '../../../src/tui/chat/app-keys.js';
import { DeltaBuffer, FRAME_MS } from '../../../src/tui/chat/delta-buffer.js';
import { addPending, popLastQueued, rejectPendingSteer, removePendingSteer, shiftNextQueued, takeAllPending } from '../../../src/tui/chat/pending.js';
import { TurnTracker } from '../../../src/tui/chat/turn-tracker.js';
import type { ComposerState } from '../../../src/tui/composer/state.js';
import type { Submission } from '../../../src/tui/composer/types.js';
import { charKey, key } from '../../../src/tui/keys/types.js';
import { initialChatState, type ChatState } from '../../../src/tui/store.js';
import { FakeClock } from './harness.js';

const sub = (text: string): Submission => ({ text, textElements: [], attachments: [] });

function withLists(p: { steers?: string[]; rejected?: string[]; queued?: string[] }): ChatState {
  let s = initialChatState({} as ComposerState);
  for (const t of p.steers ?? []) s = { ...s, ...addPending(s, 'pendingSteers', sub(t)).update };
  for (const t of p.rejected ?? []) s = { ...s, ...addPending(s, 'rejectedSteers', sub(t)).update };
  for (const t of p.queued ?? []) s = { ...s, ...addPending(s, 'queued', sub(t)).update };
  return s;
}
const texts = (items: { text: string }[]): string[] => items.map((i) => i.text);

describe('pending lists', () => {
  it('adds with increasing ids, at the front when asked', () => {
    const s = withLists({ queued: ['a', 'b'] });
    const { update, id } = addPending(s, 'queued', sub('first'), { front: true, action: 'plain' });
    expect(id).toBe(3);
    expect(texts(update.queued ?? [])).toEqual(['first', 'a', 'b']);
    expect(update.queued?.[0]?.action).toBe('plain');
  });

  it('removes and rejects a pending steer by id', () => {
    const s = withLists({ steers: ['a', 'b'] });
    const b = s.pendingSteers[1]!;
    expect(removePendingSteer(s, b.id)).toMatchObject({ removed: { text: 'b' } });
    expect(removePendingSteer(s, 99)).toEqual({ update: {}, removed: null });
    const rejected = rejectPendingSteer(s, b.id);
    expect(texts(rejected.pendingSteers ?? [])).toEqual(['a']);
    expect(texts(rejected.rejectedSteers ?? [])).toEqual(['b']);
  });

  it('pops the latest queued message, else the latest rejected steer', () => {
    expect(popLastQueued(withLists({ rejected: ['r'], queued: ['q1', 'q2'] }))?.item.text).toBe('q2');
    expect(popLastQueued(withLists({ rejected: ['r1', 'r2'] }))?.item.text).toBe('r2');
    expect(popLastQueued(withLists({ steers: ['s'] }))).toBeNull();
  });

  it('drains rejected steers before queued messages, oldest first', () => {
    let s = withLists({ rejected: ['r1', 'r2'], queued: ['q1'] });
    const order: string[] = [];
    for (let next = shiftNextQueued(s); next !== null; next = shiftNextQueued(s)) {
      order.push(next.item.text);
      s = { ...s, ...next.update };
    }
    expect(order).toEqual(['r1', 'r2', 'q1']);
  });

  it('takes everything in restore order: rejected, pending, queued', () => {
    const { update, items } = takeAllPending(withLists({ steers: ['s'], rejected: ['r'], queued: ['q'] }));
    expect(texts(items)).toEqual(['r', 's', 'q']);
    expect(update).toEqual({ rejectedSteers: [], pendingSteers: [], queued: [] });
  });
});

describe('TurnTracker', () => {
  it('is running from the start request until the turn completes', () => {
    const t = new TurnTracker();
    expect(t.running).toBe(false);
    t.beginStart();
    expect(t.running).toBe(true);
    t.startAnswered('T1');
    expect(t.running).toBe(true);
    t.turnStarted('T1');
    expect([t.running, t.currentId, t.cachedId]).toEqual([true, 'T1', 'T1']);
    expect(t.turnCompleted('T1')).toBe(true);
    expect([t.running, t.currentId, t.cachedId]).toEqual([false, null, null]);
  });

  it('handles notifications that overtake the turn/start answer', () => {
    const t = new TurnTracker();
    t.beginStart();
    t.turnStarted('T1');
    t.turnCompleted('T1');
    t.serverActive('T1');
    t.startAnswered('T1');
    expect(t.running).toBe(false);
    expect(t.cachedId).toBeNull();
  });

  it('ignores the completion of another turn and forgets a failed start', () => {
    const t = new TurnTracker();
    t.turnStarted('T2');
    expect(t.turnCompleted('T1')).toBe(false);
    expect(t.running).toBe(true);
    const u = new TurnTracker();
    u.beginStart();
    u.startFailed();
    expect(u.running).toBe(false);
  });

  it('interrupts the cached id, else the current turn; remembers shown errors once', () => {
    const t = new TurnTracker();
    expect(t.interruptTarget()).toBeNull();
    t.turnStarted('T1');
    t.serverActive('T9');
    expect(t.interruptTarget()).toBe('T9');
    t.markErrorShown('T1');
    expect(t.takeErrorShown('T1')).toBe(true);
    expect(t.takeErrorShown('T1')).toBe(false);
  });
});

describe('TurnTracker races', () => {
  it('a start answered with another id while a turn runs is a steer; the cache keeps the running turn', () => {
    const t = new TurnTracker();
    t.turnStarted('T1');
    t.serverActive('T2');
    expect(t.startAnswered('T2')).toBe('steered');
    expect([t.running, t.currentId, t.cachedId, t.interruptTarget()]).toEqual([true, 'T1', 'T1', 'T1']);
    t.turnCompleted('T1');
    expect(t.turnStarted('T2')).toBe(true);
    expect(t.turnStarted('T3')).toBe(false);
  });

  it('a start answered with the running id (turn/started came first) is the start itself', () => {
    const t = new TurnTracker();
    t.beginStart();
    t.turnStarted('T1');
    expect(t.startAnswered('T1')).toBe('started');
    expect(t.running).toBe(true);
  });

  it('an interrupt before the id is known is handed out once the id is known, once', () => {
    const t = new TurnTracker();
    expect(t.requestInterrupt()).toBeNull();
    expect(t.takeDeferredInterrupt()).toBeNull();
    t.beginStart();
    expect(t.requestInterrupt()).toBeNull();
    expect(t.takeDeferredInterrupt()).toBeNull();
    t.serverActive('T1');
    t.startAnswered('T1');
    expect(t.takeDeferredInterrupt()).toBe('T1');
    expect(t.takeDeferredInterrupt()).toBeNull();
  });

  it('a failed start or a completed turn drops a remembered interrupt', () => {
    const t = new TurnTracker();
    t.beginStart();
    t.requestInterrupt();
    t.startFailed();
    t.turnStarted('T1');
    expect(t.takeDeferredInterrupt()).toBeNull();
    const u = new TurnTracker();
    u.beginStart();
    u.requestInterrupt();
    u.turnCompleted('T1');
    u.turnStarted('T2');
    expect(u.takeDeferredInterrupt()).toBeNull();
  });
});

describe('DeltaBuffer', () => {
  it('writes at most once per frame and flushes on demand', () => {
    const clock = new FakeClock();
    const writes: { agent: string; command: string }[] = [];
    const buf = new DeltaBuffer(clock.schedule, (d) => writes.push(d));
    buf.pushAgent('a');
    buf.pushAgent('b');
    buf.pushCommand('x');
    expect(writes).toEqual([]);
    clock.advance(FRAME_MS);
    expect(writes).toEqual([{ agent: 'ab', command: 'x' }]);
    buf.pushAgent('c');
    buf.flush();
    expect(writes.at(-1)).toEqual({ agent: 'c', command: '' });
    expect(clock.pending).toBe(0);
    buf.pushAgent('gone');
    buf.discard();
    clock.advance(100);
    expect(writes).toHaveLength(2);
  });
});

describe('app keys', () => {
  it('maps approval keys', () => {
    expect(approvalKey(charKey('y'))).toEqual({ type: 'answer', decision: 'accept', quitHint: false });
    expect(approvalKey(charKey('a'))).toEqual({ type: 'answer', decision: 'acceptForSession', quitHint: false });
    expect(approvalKey(charKey('N', { shift: true }))).toEqual({ type: 'answer', decision: 'decline', quitHint: false });
    expect(approvalKey(key('escape'))).toEqual({ type: 'answer', decision: 'decline', quitHint: false });
    expect(approvalKey(charKey('c', { ctrl: true }))).toEqual({ type: 'answer', decision: 'decline', quitHint: true });
    expect(approvalKey(charKey('x'))).toEqual({ type: 'ignore' });
    expect(approvalKey(key('enter'))).toEqual({ type: 'ignore' });
  });

  it('decides what unhandled keys do', () => {
    const ctrlC = charKey('c', { ctrl: true });
    expect(unhandledKey(ctrlC, false, 0)).toBe('quit');
    expect(unhandledKey(ctrlC, true, 2)).toBe('interrupt');
    expect(unhandledKey(charKey('d', { ctrl: true }), false, 0)).toBe('quit');
    expect(unhandledKey(key('escape'), true, 0)).toBe('interrupt');
    expect(unhandledKey(key('escape'), true, 1)).toBe('interruptAndResubmitSteers');
    expect(unhandledKey(key('escape'), false, 1)).toBe('none');
    expect(unhandledKey(charKey('l', { ctrl: true }), false, 0)).toBe('clearScreen');
    expect(unhandledKey(charKey('l', { ctrl: true }), true, 1)).toBe('clearScreen');
    expect(unhandledKey(charKey('o', { ctrl: true }), false, 0)).toBe('copyLastAnswer');
  });

  it('recognizes Alt+Up and Shift+Left only', () => {
    expect(isEditQueuedKey(key('up', { alt: true }))).toBe(true);
    expect(isEditQueuedKey(key('left', { shift: true }))).toBe(true);
    expect(isEditQueuedKey(key('up'))).toBe(false);
    expect(isEditQueuedKey(key('left', { shift: true, ctrl: true }))).toBe(false);
  });
});
