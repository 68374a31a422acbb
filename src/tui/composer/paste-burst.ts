/**
 * Paste-burst detection for terminals without bracketed paste (docs/codex-parity.md#paste-burst-detection).
 *
 * A paste there arrives as a fast stream of plain key presses. The detector watches the timing of plain
 * characters (no Ctrl/Alt) and tells the composer whether to insert a character, hold it briefly, or
 * collect it into a burst buffer that is later inserted as one paste. Time is injected (`now`, ms) so
 * every decision is deterministic under test.
 */

/** Bursts start once this many plain chars arrive each within CHAR_INTERVAL of the previous one. */
export const PASTE_BURST_MIN_CHARS = 3;
/** Max gap (ms) between chars of one burst; also how long the first ASCII char is held. */
export const PASTE_BURST_CHAR_INTERVAL = 8;
/** After burst activity, Enter inserts a newline instead of submitting for this long (ms). */
export const PASTE_ENTER_SUPPRESS_WINDOW = 120;
/** A retro-grabbed prefix this long (code points) looks like a paste even without whitespace. */
export const PASTE_RETRO_GRAB_MIN_CHARS = 16;

/** PASTE_BURST_ACTIVE_IDLE_TIMEOUT: idle time (ms) before a buffered burst flushes as a paste; Windows consoles deliver pastes more slowly. */
export function pasteBurstActiveIdleTimeout(platform: NodeJS.Platform = process.platform): number {
  return platform === 'win32' ? 60 : 8;
}

/**
 * A burst this long is a paste, not typing: it waits longer for its next piece (a large paste reaches
 * a terminal without bracketed paste in pieces, with gaps as long as Tiller is busy with the last one),
 * so it stays one paste. Nobody types on within this time after a thousand characters arrived at once.
 */
export const LARGE_BURST_CHARS = 1024;
export const LARGE_BURST_IDLE_MS = 150;

export type CharDecision =
  /** Hold this char (render nothing) until the next char or a flush decides what it was. */
  | { type: 'retainFirstChar' }
  /** The held char plus this char start the buffer; the caller appends this char with appendCharToBuffer. */
  | { type: 'beginBufferFromPending' }
  /** Enough fast chars: the caller may grab `retroChars` already inserted chars before the cursor (decideBeginBuffer). */
  | { type: 'beginBuffer'; retroChars: number }
  /** A burst is active: the caller appends this char with appendCharToBuffer. */
  | { type: 'bufferAppend' }
  /** Just type it. */
  | { type: 'insert' };

export type FlushResult = { type: 'paste'; text: string } | { type: 'typed'; ch: string } | { type: 'none' };

export interface RetroGrabDecision {
  /** True when the prefix looks like a paste; the detector has then started buffering with `grabbed`. */
  grab: boolean;
  /** UTF-16 index into `before` where the grabbed text starts (`before.length` when nothing is grabbed). */
  start: number;
  /** UTF-8 byte offset into `before` of the same position. */
  startByte: number;
  /** The text from `start` to the end of `before` (the caller removes it from the textarea when `grab`). */
  grabbed: string;
}

export interface PasteBurstOptions {
  /** Selects the active idle timeout (60 ms on win32, else 8 ms). */
  platform?: NodeJS.Platform;
}

export class PasteBurst {
  private lastPlainCharTime: number | null = null;
  private consecutivePlainChars = 0;
  private burstWindowUntil: number | null = null;
  /** Chunks of the burst; joined at flush so long bursts stay linear. */
  private buffer: string[] = [];
  private active = false;
  private pendingFirstChar: { ch: string; at: number } | null = null;
  private readonly activeIdleTimeout: number;

  constructor(opts: PasteBurstOptions = {}) {
    this.activeIdleTimeout = pasteBurstActiveIdleTimeout(opts.platform);
  }

  /** Delay (ms) for the UI tick that calls flushIfDue while a burst or held char is pending. */
  static recommendedFlushDelay(): number {
    return PASTE_BURST_CHAR_INTERVAL + 1;
  }

  recommendedFlushDelay(): number {
    return this.isBuffering() ? this.idleTimeout() + 1 : PasteBurst.recommendedFlushDelay();
  }

  /** How long a buffered burst waits for more before it flushes. */
  private idleTimeout(): number {
    return this.buffer.length >= LARGE_BURST_CHARS ? LARGE_BURST_IDLE_MS : this.activeIdleTimeout;
  }

  /** Ms from `now` until flushIfDue would flush something (0 when due), or null when nothing waits. */
  nextFlushDelay(now: number): number | null {
    if (!this.isActive() || this.lastPlainCharTime === null) return null;
    const timeout = this.isBuffering() ? this.idleTimeout() : PASTE_BURST_CHAR_INTERVAL;
    return Math.max(0, this.lastPlainCharTime + timeout + 1 - now);
  }

  /** ASCII path: may hold the first char briefly to see whether a burst follows. */
  onPlainChar(ch: string, now: number): CharDecision {
    this.notePlainChar(now);
    if (this.active) {
      this.burstWindowUntil = now + PASTE_ENTER_SUPPRESS_WINDOW;
      return { type: 'bufferAppend' };
    }
    const held = this.pendingFirstChar;
    if (held !== null && now - held.at <= PASTE_BURST_CHAR_INTERVAL) {
      this.pendingFirstChar = null;
      this.active = true;
      this.buffer.push(held.ch);
      this.burstWindowUntil = now + PASTE_ENTER_SUPPRESS_WINDOW;
      return { type: 'beginBufferFromPending' };
    }
    if (this.consecutivePlainChars >= PASTE_BURST_MIN_CHARS) {
      return { type: 'beginBuffer', retroChars: this.consecutivePlainChars - 1 };
    }
    this.pendingFirstChar = { ch, at: now };
    return { type: 'retainFirstChar' };
  }

  /**
   * Non-ASCII path (IME input commits several chars at once): never holds a char, so composed text
   * appears immediately unless a burst is clearly under way.
   *
   * Two or more chars in a row (each within CHAR_INTERVAL of the previous, as the ASCII path's held
   * char plus one) open the same Enter window as an ASCII burst: an Enter right behind them (a CJK
   * paste with a CR in it, sent in one write) inserts a newline instead of submitting half the
   * paste. An IME commit followed by a real Enter (a person's, well after the window) still submits.
   */
  onPlainCharNoHold(_ch: string, now: number): CharDecision {
    this.notePlainChar(now);
    if (this.active) {
      this.burstWindowUntil = now + PASTE_ENTER_SUPPRESS_WINDOW;
      return { type: 'bufferAppend' };
    }
    if (this.consecutivePlainChars >= 2) this.burstWindowUntil = now + PASTE_ENTER_SUPPRESS_WINDOW;
    if (this.consecutivePlainChars >= PASTE_BURST_MIN_CHARS) {
      return { type: 'beginBuffer', retroChars: this.consecutivePlainChars - 1 };
    }
    return { type: 'insert' };
  }

  /**
   * After `beginBuffer`: look at the last `retroChars` chars before the cursor. Only a prefix that
   * looks like a paste (whitespace, or at least 16 chars) is grabbed into the buffer; fast typing of
   * a short word stays as typed.
   */
  decideBeginBuffer(now: number, before: string, retroChars: number): RetroGrabDecision {
    const start = retroStartIndex(before, retroChars);
    const grabbed = before.slice(start);
    const startByte = Buffer.byteLength(before.slice(0, start), 'utf8');
    const looksPastey = /\s/u.test(grabbed) || countCodePoints(grabbed) >= PASTE_RETRO_GRAB_MIN_CHARS;
    if (!looksPastey) return { grab: false, start, startByte, grabbed };
    if (grabbed.length > 0) this.buffer.push(grabbed);
    this.active = true;
    this.burstWindowUntil = now + PASTE_ENTER_SUPPRESS_WINDOW;
    return { grab: true, start, startByte, grabbed };
  }

  appendCharToBuffer(ch: string, now: number): void {
    this.buffer.push(ch);
    this.burstWindowUntil = now + PASTE_ENTER_SUPPRESS_WINDOW;
  }

  /** Appends when a burst is buffering; returns whether it did. */
  tryAppendCharIfActive(ch: string, now: number): boolean {
    if (!this.isBuffering()) return false;
    this.appendCharToBuffer(ch, now);
    return true;
  }

  /**
   * Enter while a burst is buffering (or a first char is held): the newline joins the buffer instead
   * of submitting. A held char goes into the buffer first so the order is kept.
   */
  appendNewlineIfActive(now: number): boolean {
    if (!this.isActive()) return false;
    if (this.pendingFirstChar !== null) {
      this.buffer.push(this.pendingFirstChar.ch);
      this.pendingFirstChar = null;
    }
    this.active = true;
    this.buffer.push('\n');
    this.burstWindowUntil = now + PASTE_ENTER_SUPPRESS_WINDOW;
    return true;
  }

  /** Enter inside the window after burst activity inserts a newline; the window outlives the flush. */
  newlineShouldInsertInsteadOfSubmit(now: number): boolean {
    const inWindow = this.burstWindowUntil !== null && now <= this.burstWindowUntil;
    return this.isActive() || inWindow;
  }

  extendWindow(now: number): void {
    this.burstWindowUntil = now + PASTE_ENTER_SUPPRESS_WINDOW;
  }

  /**
   * Called on every key and on UI ticks. A buffered burst flushes as a paste after the active idle
   * timeout; a held first char flushes as typed after CHAR_INTERVAL. Both comparisons are strict.
   */
  flushIfDue(now: number): FlushResult {
    const buffering = this.isBuffering();
    const timeout = buffering ? this.idleTimeout() : PASTE_BURST_CHAR_INTERVAL;
    const timedOut = this.lastPlainCharTime !== null && now - this.lastPlainCharTime > timeout;
    if (!timedOut) return { type: 'none' };
    if (buffering) {
      this.active = false;
      return { type: 'paste', text: this.takeBuffer() };
    }
    if (this.pendingFirstChar !== null) {
      const { ch } = this.pendingFirstChar;
      this.pendingFirstChar = null;
      return { type: 'typed', ch };
    }
    return { type: 'none' };
  }

  /** Before a non-char or modified key: everything buffered or held, as one string; state cleared. */
  flushBeforeModifiedInput(): string | null {
    if (!this.isActive()) return null;
    this.active = false;
    let out = this.takeBuffer();
    if (this.pendingFirstChar !== null) {
      out += this.pendingFirstChar.ch;
      this.pendingFirstChar = null;
    }
    return out;
  }

  /** After a non-char key: forget the timing so the next char starts fresh (buffer must be flushed first). */
  clearWindowAfterNonChar(): void {
    this.consecutivePlainChars = 0;
    this.lastPlainCharTime = null;
    this.burstWindowUntil = null;
    this.active = false;
    this.pendingFirstChar = null;
  }

  clearAfterExplicitPaste(): void {
    this.clearWindowAfterNonChar();
    this.buffer = [];
  }

  /** Buffering, or holding a first char. */
  isActive(): boolean {
    return this.isBuffering() || this.pendingFirstChar !== null;
  }

  isBuffering(): boolean {
    return this.active || this.buffer.length > 0;
  }

  hasPendingFirstChar(): boolean {
    return this.pendingFirstChar !== null;
  }

  /**
   * Tiller has just finished reading a chunk of input: a burst being buffered counts as active until
   * now, so the wait for its next piece starts here and not when this piece arrived (reading a large
   * piece takes longer than the idle timeout).
   */
  touch(now: number): void {
    if (this.isBuffering() && this.lastPlainCharTime !== null) this.lastPlainCharTime = Math.max(this.lastPlainCharTime, now);
  }

  private notePlainChar(now: number): void {
    if (this.lastPlainCharTime !== null && now - this.lastPlainCharTime <= PASTE_BURST_CHAR_INTERVAL) {
      this.consecutivePlainChars += 1;
    } else {
      this.consecutivePlainChars = 1;
    }
    this.lastPlainCharTime = now;
  }

  private takeBuffer(): string {
    const out = this.buffer.join('');
    this.buffer = [];
    return out;
  }
}

/** UTF-16 index where the last `retroChars` code points of `before` start. */
export function retroStartIndex(before: string, retroChars: number): number {
  let idx = before.length;
  for (let n = 0; n < retroChars && idx > 0; n++) {
    idx -= 1;
    const c = before.charCodeAt(idx);
    if (idx > 0 && c >= 0xdc00 && c <= 0xdfff) {
      const hi = before.charCodeAt(idx - 1);
      if (hi >= 0xd800 && hi <= 0xdbff) idx -= 1;
    }
  }
  return idx;
}

function countCodePoints(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}
