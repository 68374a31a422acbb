import { describe, expect, it } from 'vitest';
import {
  appendCharToBuffer,
  appendNewlineIfActive,
  clearAfterExplicitPaste,
  clearWindowAfterNonChar,
  decideBeginBuffer,
  extendWindow,
  flushBeforeModifiedInput,
  flushIfDue,
  hasPendingFirstChar,
  initialPasteBurst,
  isBuffering,
  isBurstActive,
  LARGE_BURST_IDLE_MS,
  newlineShouldInsertInsteadOfSubmit,
  nextFlushDelay,
  onPlainChar,
  onPlainCharNoHold,
  PASTE_BURST_CHAR_INTERVAL,
  PASTE_BURST_FLUSH_DELAY,
  PASTE_BURST_MIN_CHARS,
  PASTE_ENTER_SUPPRESS_WINDOW,
  pasteBurstActiveIdleTimeout,
  recommendedFlushDelay,
  retroStartIndex,
  tryAppendCharIfActive,
  type CharDecision,
  type FlushResult,
  type PasteBurst,
  type PasteBurstOptions,
  type RetroGrabDecision,
} from '../../src/tui/composer/paste-burst.js';

/**
 * Threads the detector's value through the pure functions as the composer does, so each test reads
 * as a sequence of steps: every step starts from the value the previous one returned.
 */
class Detector {
  b: PasteBurst;
  constructor(opts: PasteBurstOptions = {}) {
    this.b = initialPasteBurst(opts);
  }
  private keep<R extends { burst: PasteBurst }>(r: R): R {
    this.b = r.burst;
    return r;
  }
  onPlainChar(ch: string, now: number): CharDecision {
    return this.keep(onPlainChar(this.b, ch, now)).decision;
  }
  onPlainCharNoHold(ch: string, now: number): CharDecision {
    return this.keep(onPlainCharNoHold(this.b, ch, now)).decision;
  }
  decideBeginBuffer(now: number, before: string, retroChars: number): RetroGrabDecision {
    return this.keep(decideBeginBuffer(this.b, now, before, retroChars)).grab;
  }
  appendCharToBuffer(ch: string, now: number): void {
    this.b = appendCharToBuffer(this.b, ch, now);
  }
  tryAppendCharIfActive(ch: string, now: number): boolean {
    const next = tryAppendCharIfActive(this.b, ch, now);
    if (next !== null) this.b = next;
    return next !== null;
  }
  appendNewlineIfActive(now: number): boolean {
    const next = appendNewlineIfActive(this.b, now);
    if (next !== null) this.b = next;
    return next !== null;
  }
  extendWindow(now: number): void {
    this.b = extendWindow(this.b, now);
  }
  /** What was flushed, without a paste's timing (the timing tests read flushIfDue directly). */
  flushIfDue(now: number): FlushResult | { type: 'paste'; text: string } {
    const flushed = this.keep(flushIfDue(this.b, now)).flushed;
    return flushed.type === 'paste' ? { type: 'paste', text: flushed.text } : flushed;
  }
  flushBeforeModifiedInput(): string | null {
    return this.keep(flushBeforeModifiedInput(this.b)).flushed?.text ?? null;
  }
  clearWindowAfterNonChar(): void {
    this.b = clearWindowAfterNonChar(this.b);
  }
  clearAfterExplicitPaste(): void {
    this.b = clearAfterExplicitPaste(this.b);
  }
  newlineShouldInsertInsteadOfSubmit(now: number): boolean {
    return newlineShouldInsertInsteadOfSubmit(this.b, now);
  }
  recommendedFlushDelay(): number {
    return recommendedFlushDelay(this.b);
  }
  nextFlushDelay(now: number): number | null {
    return nextFlushDelay(this.b, now);
  }
  isActive(): boolean {
    return isBurstActive(this.b);
  }
  isBuffering(): boolean {
    return isBuffering(this.b);
  }
  hasPendingFirstChar(): boolean {
    return hasPendingFirstChar(this.b);
  }
}

describe('PasteBurst constants', () => {
  it("match Codex's paste-burst constants", () => {
    expect(PASTE_BURST_MIN_CHARS).toBe(3);
    expect(PASTE_BURST_CHAR_INTERVAL).toBe(8);
    expect(PASTE_ENTER_SUPPRESS_WINDOW).toBe(120);
    expect(PASTE_BURST_FLUSH_DELAY).toBe(9);
    expect(new Detector({ platform: 'linux' }).recommendedFlushDelay()).toBe(9);
  });

  it('uses a 60 ms active idle timeout on Windows and 8 ms elsewhere', () => {
    expect(pasteBurstActiveIdleTimeout('win32')).toBe(60);
    expect(pasteBurstActiveIdleTimeout('linux')).toBe(8);
    expect(pasteBurstActiveIdleTimeout('darwin')).toBe(8);
  });
});

describe('PasteBurst as a value', () => {
  it('a step returns a new detector and leaves the one it was given as it was', () => {
    const idle = initialPasteBurst({ platform: 'linux' });
    const held = onPlainChar(idle, 'a', 0).burst;
    expect(isBurstActive(held)).toBe(true);
    expect(isBurstActive(idle)).toBe(false);
    const buffering = appendCharToBuffer(onPlainChar(held, 'b', 1).burst, 'b', 1);
    expect(flushIfDue(buffering, 10)).toEqual({
      burst: expect.anything(),
      flushed: { type: 'paste', text: 'ab', startedAt: 0, endedAt: 1 },
    });
    expect(isBuffering(buffering)).toBe(true);
    expect(flushBeforeModifiedInput(buffering).flushed?.text).toBe('ab');
    expect(flushBeforeModifiedInput(held).flushed).toEqual({ text: 'a', startedAt: 0, endedAt: 0 });
  });

  it('a flushed burst says when it began and when its last character came, whichever way it began', () => {
    const fromHeld = appendCharToBuffer(onPlainChar(onPlainChar(initialPasteBurst(), 'a', 5).burst, 'b', 6).burst, 'b', 6);
    expect(flushBeforeModifiedInput(appendCharToBuffer(fromHeld, 'c', 9)).flushed).toEqual({ text: 'abc', startedAt: 5, endedAt: 6 });
    const grabbed = decideBeginBuffer(initialPasteBurst(), 40, 'x y', 3).burst;
    expect(flushBeforeModifiedInput(grabbed).flushed).toMatchObject({ text: 'x y', startedAt: 40 });
    const viaEnter = appendNewlineIfActive(onPlainChar(initialPasteBurst(), 'a', 70).burst, 72);
    expect(flushBeforeModifiedInput(viaEnter!).flushed).toMatchObject({ text: 'a\n', startedAt: 70 });
    // Flushed, the detector forgets when the last burst began.
    expect(flushIfDue(fromHeld, 100).burst.startedAt).toBeNull();
  });
});

describe('PasteBurst ASCII path', () => {
  it('holds the first ASCII char, then flushes it as typed', () => {
    const b = new Detector();
    expect(b.onPlainChar('a', 0)).toEqual({ type: 'retainFirstChar' });
    expect(b.hasPendingFirstChar()).toBe(true);
    expect(b.isActive()).toBe(true);
    expect(b.isBuffering()).toBe(false);
    expect(b.flushIfDue(8)).toEqual({ type: 'none' });
    expect(b.flushIfDue(9)).toEqual({ type: 'typed', ch: 'a' });
    expect(b.hasPendingFirstChar()).toBe(false);
    expect(b.isActive()).toBe(false);
  });

  it('two fast chars start the buffer from the held char and flush as a paste', () => {
    const b = new Detector({ platform: 'linux' });
    expect(b.onPlainChar('a', 0)).toEqual({ type: 'retainFirstChar' });
    expect(b.onPlainChar('b', 1)).toEqual({ type: 'beginBufferFromPending' });
    b.appendCharToBuffer('b', 1);
    expect(b.isBuffering()).toBe(true);
    expect(b.hasPendingFirstChar()).toBe(false);
    expect(b.onPlainChar('c', 2)).toEqual({ type: 'bufferAppend' });
    b.appendCharToBuffer('c', 2);
    expect(b.flushIfDue(10)).toEqual({ type: 'none' });
    expect(b.flushIfDue(11)).toEqual({ type: 'paste', text: 'abc' });
    expect(b.isActive()).toBe(false);
  });

  it('a second char after the hold interval does not start a burst', () => {
    const b = new Detector();
    expect(b.onPlainChar('a', 0)).toEqual({ type: 'retainFirstChar' });
    expect(b.flushIfDue(9)).toEqual({ type: 'typed', ch: 'a' });
    expect(b.onPlainChar('b', 20)).toEqual({ type: 'retainFirstChar' });
    expect(b.flushIfDue(29)).toEqual({ type: 'typed', ch: 'b' });
  });

  it('a held char gap of exactly 8 ms still joins the burst (<= comparison)', () => {
    const b = new Detector();
    b.onPlainChar('a', 0);
    expect(b.onPlainChar('b', 8)).toEqual({ type: 'beginBufferFromPending' });
  });

  it('flushes on a strict > timeout comparison', () => {
    const b = new Detector({ platform: 'linux' });
    b.onPlainChar('a', 100);
    b.onPlainChar('b', 101);
    b.appendCharToBuffer('b', 101);
    expect(b.flushIfDue(109)).toEqual({ type: 'none' });
    expect(b.flushIfDue(110)).toEqual({ type: 'paste', text: 'ab' });
  });

  it('waits 60 ms of idle before flushing a buffered burst on Windows', () => {
    const b = new Detector({ platform: 'win32' });
    b.onPlainChar('a', 0);
    b.onPlainChar('b', 1);
    b.appendCharToBuffer('b', 1);
    expect(b.recommendedFlushDelay()).toBe(61);
    expect(b.flushIfDue(20)).toEqual({ type: 'none' });
    expect(b.flushIfDue(61)).toEqual({ type: 'none' });
    expect(b.flushIfDue(62)).toEqual({ type: 'paste', text: 'ab' });
  });

  it('a held char on Windows still flushes as typed after 8 ms', () => {
    const b = new Detector({ platform: 'win32' });
    b.onPlainChar('a', 0);
    expect(b.flushIfDue(9)).toEqual({ type: 'typed', ch: 'a' });
  });

  it('flushBeforeModifiedInput returns the held first char and clears state', () => {
    const b = new Detector();
    b.onPlainChar('a', 0);
    expect(b.flushBeforeModifiedInput()).toBe('a');
    expect(b.isActive()).toBe(false);
    expect(b.flushIfDue(100)).toEqual({ type: 'none' });
    expect(b.flushBeforeModifiedInput()).toBeNull();
  });

  it('flushBeforeModifiedInput returns the whole buffer', () => {
    const b = new Detector();
    b.onPlainChar('x', 0);
    b.onPlainChar('y', 1);
    b.appendCharToBuffer('y', 1);
    expect(b.flushBeforeModifiedInput()).toBe('xy');
    expect(b.isBuffering()).toBe(false);
  });
});

describe('PasteBurst non-ASCII path', () => {
  it('never holds; begins a buffer after three fast chars', () => {
    const b = new Detector();
    expect(b.onPlainCharNoHold('你', 0)).toEqual({ type: 'insert' });
    expect(b.onPlainCharNoHold('好', 1)).toEqual({ type: 'insert' });
    expect(b.onPlainCharNoHold('吗', 2)).toEqual({ type: 'beginBuffer', retroChars: 2 });
    expect(b.hasPendingFirstChar()).toBe(false);
  });

  it('slow non-ASCII chars are always inserted', () => {
    const b = new Detector();
    for (let i = 0; i < 5; i++) expect(b.onPlainCharNoHold('é', i * 20)).toEqual({ type: 'insert' });
    expect(b.isActive()).toBe(false);
  });

  it('appends while a burst is active', () => {
    const b = new Detector();
    b.onPlainChar('a', 0);
    b.onPlainChar('b', 1);
    b.appendCharToBuffer('b', 1);
    expect(b.onPlainCharNoHold('é', 2)).toEqual({ type: 'bufferAppend' });
    b.appendCharToBuffer('é', 2);
    expect(b.flushIfDue(20)).toEqual({ type: 'paste', text: 'abé' });
  });
});

describe('PasteBurst retro grab', () => {
  it('grabs only prefixes that look pasted (whitespace or >= 16 chars)', () => {
    const typed = new Detector();
    const plain = typed.decideBeginBuffer(0, 'hello', 2);
    expect(plain.grab).toBe(false);
    expect(typed.isBuffering()).toBe(false);

    const spaced = new Detector();
    const withSpace = spaced.decideBeginBuffer(0, 'say hi', 3);
    expect(withSpace).toEqual({ grab: true, start: 3, startByte: 3, grabbed: ' hi' });
    expect(spaced.isBuffering()).toBe(true);
    expect(spaced.flushBeforeModifiedInput()).toBe(' hi');

    const long = new Detector();
    const sixteen = 'abcdefghijklmnop';
    expect(long.decideBeginBuffer(0, `x${sixteen}`, 16)).toEqual({ grab: true, start: 1, startByte: 1, grabbed: sixteen });

    const fifteen = new Detector();
    expect(fifteen.decideBeginBuffer(0, sixteen.slice(1), 15).grab).toBe(false);
  });

  it('counts retro chars in code points and reports the byte offset', () => {
    const b = new Detector();
    const before = 'ab😀 é';
    const d = b.decideBeginBuffer(0, before, 3);
    expect(d.grabbed).toBe('😀 é');
    expect(d.start).toBe(2);
    expect(d.startByte).toBe(2);
    const d2 = new Detector().decideBeginBuffer(0, 'é😀 x', 3);
    expect(d2.grabbed).toBe('😀 x');
    expect(d2.startByte).toBe(2);
  });

  it('retroStartIndex clamps to the start and never splits a surrogate pair', () => {
    expect(retroStartIndex('abc', 0)).toBe(3);
    expect(retroStartIndex('abc', 10)).toBe(0);
    expect(retroStartIndex('a😀', 1)).toBe(1);
  });

  it('three fast chars without a held char ask for a retro grab', () => {
    const b = new Detector();
    // Two non-ASCII chars (never held) then an ASCII char: the count reaches 3 with nothing held.
    expect(b.onPlainCharNoHold('é', 0)).toEqual({ type: 'insert' });
    expect(b.onPlainCharNoHold('ü', 1)).toEqual({ type: 'insert' });
    expect(b.onPlainChar('a', 2)).toEqual({ type: 'beginBuffer', retroChars: 2 });
    expect(b.decideBeginBuffer(2, 'éü', 2).grab).toBe(false);
    expect(b.isBuffering()).toBe(false);
  });
});

describe('PasteBurst non-ASCII Enter window', () => {
  it('two fast non-ASCII chars open the Enter window, without holding or buffering them', () => {
    const b = new Detector();
    expect(b.onPlainCharNoHold('你', 0)).toEqual({ type: 'insert' });
    expect(b.newlineShouldInsertInsteadOfSubmit(0)).toBe(false);
    expect(b.onPlainCharNoHold('好', 0)).toEqual({ type: 'insert' });
    expect(b.isActive()).toBe(false);
    expect(b.newlineShouldInsertInsteadOfSubmit(0)).toBe(true);
    expect(b.newlineShouldInsertInsteadOfSubmit(PASTE_ENTER_SUPPRESS_WINDOW)).toBe(true);
    expect(b.newlineShouldInsertInsteadOfSubmit(PASTE_ENTER_SUPPRESS_WINDOW + 1)).toBe(false);
  });

  it('non-ASCII chars typed apart (one per IME commit) open no window', () => {
    const b = new Detector();
    b.onPlainCharNoHold('你', 0);
    b.onPlainCharNoHold('好', PASTE_BURST_CHAR_INTERVAL + 1);
    expect(b.newlineShouldInsertInsteadOfSubmit(PASTE_BURST_CHAR_INTERVAL + 2)).toBe(false);
  });
});

describe('PasteBurst Enter handling', () => {
  it('appends a newline to an active buffer', () => {
    const b = new Detector();
    b.onPlainChar('a', 0);
    b.onPlainChar('b', 1);
    b.appendCharToBuffer('b', 1);
    expect(b.appendNewlineIfActive(2)).toBe(true);
    expect(b.onPlainChar('c', 3)).toEqual({ type: 'bufferAppend' });
    b.appendCharToBuffer('c', 3);
    expect(b.flushIfDue(12)).toEqual({ type: 'paste', text: 'ab\nc' });
  });

  it('keeps the order when Enter follows a held first char', () => {
    const b = new Detector();
    b.onPlainChar('a', 0);
    expect(b.appendNewlineIfActive(1)).toBe(true);
    expect(b.onPlainChar('b', 2)).toEqual({ type: 'bufferAppend' });
    b.appendCharToBuffer('b', 2);
    expect(b.flushIfDue(11)).toEqual({ type: 'paste', text: 'a\nb' });
  });

  it('does not append when idle', () => {
    const b = new Detector();
    expect(b.appendNewlineIfActive(0)).toBe(false);
    expect(b.newlineShouldInsertInsteadOfSubmit(0)).toBe(false);
  });

  it('the newline suppression window outlives the buffer flush', () => {
    const b = new Detector({ platform: 'linux' });
    b.onPlainChar('a', 0);
    b.onPlainChar('b', 1);
    b.appendCharToBuffer('b', 1);
    expect(b.flushIfDue(10)).toEqual({ type: 'paste', text: 'ab' });
    expect(b.isActive()).toBe(false);
    expect(b.newlineShouldInsertInsteadOfSubmit(50)).toBe(true);
    expect(b.newlineShouldInsertInsteadOfSubmit(121)).toBe(true);
    expect(b.newlineShouldInsertInsteadOfSubmit(122)).toBe(false);
  });

  it('extendWindow keeps Enter suppressed for blank lines in a paste', () => {
    const b = new Detector();
    b.extendWindow(100);
    expect(b.newlineShouldInsertInsteadOfSubmit(220)).toBe(true);
    expect(b.newlineShouldInsertInsteadOfSubmit(221)).toBe(false);
  });

  it('clearWindowAfterNonChar ends the window and the timing', () => {
    const b = new Detector();
    b.onPlainChar('a', 0);
    b.onPlainChar('b', 1);
    b.appendCharToBuffer('b', 1);
    expect(b.flushBeforeModifiedInput()).toBe('ab');
    b.clearWindowAfterNonChar();
    expect(b.newlineShouldInsertInsteadOfSubmit(2)).toBe(false);
    expect(b.onPlainChar('c', 3)).toEqual({ type: 'retainFirstChar' });
  });

  it('clearAfterExplicitPaste drops buffer, held char and window', () => {
    const b = new Detector();
    b.onPlainChar('a', 0);
    b.onPlainChar('b', 1);
    b.appendCharToBuffer('b', 1);
    b.clearAfterExplicitPaste();
    expect(b.isActive()).toBe(false);
    expect(b.newlineShouldInsertInsteadOfSubmit(2)).toBe(false);
    expect(b.flushIfDue(100)).toEqual({ type: 'none' });
  });

  it('tryAppendCharIfActive only appends while buffering', () => {
    const b = new Detector();
    expect(b.tryAppendCharIfActive('x', 0)).toBe(false);
    b.onPlainChar('a', 0);
    b.onPlainChar('b', 1);
    b.appendCharToBuffer('b', 1);
    expect(b.tryAppendCharIfActive('x', 2)).toBe(true);
    expect(b.flushBeforeModifiedInput()).toBe('abx');
  });
});

describe('PasteBurst long bursts', () => {
  it('buffers 50k chars at 1 ms steps and flushes them once', () => {
    const b = new Detector({ platform: 'linux' });
    let now = 0;
    let inserted = '';
    let earlyFlushes = 0;
    for (let i = 0; i < 50_000; i++) {
      const ch = String.fromCharCode(97 + (i % 26));
      const d = b.onPlainChar(ch, now);
      if (d.type === 'bufferAppend' || d.type === 'beginBufferFromPending') b.appendCharToBuffer(ch, now);
      else if (d.type !== 'retainFirstChar') inserted += ch;
      if (b.flushIfDue(now).type !== 'none') earlyFlushes++;
      now += 1;
    }
    expect(inserted).toBe('');
    expect(earlyFlushes).toBe(0);
    // A burst this long is a paste arriving in pieces: it waits longer than typing's 8 ms for the next one.
    expect(b.flushIfDue(now + 8).type).toBe('none');
    const out = b.flushIfDue(now + LARGE_BURST_IDLE_MS);
    expect(out.type).toBe('paste');
    expect(out.type === 'paste' && out.text.length).toBe(50_000);
  });

  it('a short burst still flushes after the 8 ms idle timeout', () => {
    const b = new Detector({ platform: 'linux' });
    let now = 0;
    for (const ch of 'abcdefgh') {
      const d = b.onPlainChar(ch, now);
      if (d.type === 'bufferAppend' || d.type === 'beginBufferFromPending') b.appendCharToBuffer(ch, now);
      now += 1;
    }
    expect(b.flushIfDue(now + 8).type).toBe('paste');
  });
});

describe('PasteBurst nextFlushDelay', () => {
  it('counts down to the moment flushIfDue flushes', () => {
    const b = new Detector({ platform: 'linux' });
    expect(b.nextFlushDelay(0)).toBeNull();
    b.onPlainChar('a', 0);
    expect(b.nextFlushDelay(0)).toBe(9);
    expect(b.nextFlushDelay(7)).toBe(2);
    expect(b.nextFlushDelay(20)).toBe(0);
    expect(b.flushIfDue(9)).toEqual({ type: 'typed', ch: 'a' });
    expect(b.nextFlushDelay(9)).toBeNull();
  });

  it('uses the active idle timeout while buffering', () => {
    const b = new Detector({ platform: 'win32' });
    b.onPlainChar('a', 0);
    b.onPlainChar('b', 1);
    b.appendCharToBuffer('b', 1);
    expect(b.nextFlushDelay(1)).toBe(61);
    expect(b.flushIfDue(61)).toEqual({ type: 'none' });
    expect(b.flushIfDue(62).type).toBe('paste');
  });
});
