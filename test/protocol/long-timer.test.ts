import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clampDelay, formatWait, MAX_TIMER_MS, setLongTimeout } from '../../src/protocol/long-timer.js';

describe('setLongTimeout', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('waits the whole delay when it is over 2^31 ms (Node would fire after 1 ms)', () => {
    const fired = vi.fn();
    setLongTimeout(fired, 3e9);
    vi.advanceTimersByTime(31);
    expect(fired).not.toHaveBeenCalled();
    vi.advanceTimersByTime(MAX_TIMER_MS);
    expect(fired).not.toHaveBeenCalled();
    vi.advanceTimersByTime(3e9 - MAX_TIMER_MS - 31 - 1);
    expect(fired).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(fired).toHaveBeenCalledTimes(1);
  });

  it('never arms a timer Node would overflow', () => {
    const spy = vi.spyOn(globalThis, 'setTimeout');
    setLongTimeout(() => undefined, 1e12);
    for (const call of spy.mock.calls) expect(call[1]).toBeLessThanOrEqual(MAX_TIMER_MS);
    spy.mockRestore();
  });

  it('clear() stops it, also between the chained timers', () => {
    const fired = vi.fn();
    const timer = setLongTimeout(fired, MAX_TIMER_MS + 10);
    vi.advanceTimersByTime(MAX_TIMER_MS + 1);
    timer.clear();
    vi.advanceTimersByTime(100);
    expect(fired).not.toHaveBeenCalled();
  });

  it('a short delay fires once, on time; NaN and negative delays fire at once', () => {
    const short = vi.fn();
    setLongTimeout(short, 50);
    vi.advanceTimersByTime(49);
    expect(short).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(short).toHaveBeenCalledTimes(1);
    const odd = vi.fn();
    setLongTimeout(odd, Number.NaN);
    setLongTimeout(odd, -5);
    vi.advanceTimersByTime(0);
    expect(odd).toHaveBeenCalledTimes(2);
  });
});

describe('clampDelay and formatWait', () => {
  it('clamps to what one Node timer keeps', () => {
    expect(clampDelay(3e9)).toBe(MAX_TIMER_MS);
    expect(clampDelay(Number.POSITIVE_INFINITY)).toBe(MAX_TIMER_MS);
    expect(clampDelay(Number.NaN)).toBe(0);
    expect(clampDelay(-1)).toBe(0);
    expect(clampDelay(1234)).toBe(1234);
  });

  it('spells a wait in the two largest units', () => {
    expect(formatWait(900)).toBe('1 s');
    expect(formatWait(45_000)).toBe('45 s');
    expect(formatWait(200_000)).toBe('3 m 20 s');
    expect(formatWait(3_600_000)).toBe('1 h 0 m');
    expect(formatWait(9_999_999_000)).toBe('115 d 17 h');
  });
});
