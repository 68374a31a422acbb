/** TurnTracker: which turn is running, and its races with turn/start answers and interrupts. */
import { describe, expect, it } from 'vitest';
import { TurnTracker } from '../../../../src/tui/chat/turn/turn-tracker.js';

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
