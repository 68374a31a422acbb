/**
 * Paste-burst detection for terminals without bracketed paste (docs/codex-parity.md#paste-burst-detection).
 *
 * A paste there arrives as a fast stream of plain key presses. The detector watches the timing of plain
 * characters (no Ctrl/Alt) and tells the composer whether to insert a character, hold it briefly, or
 * collect it into a burst buffer that is later inserted as one paste. The detector is a value: every
 * function returns a new one, and time is passed in (`now`, ms), so every decision is deterministic
 * under test.
 */

/** Bursts start once this many plain chars arrive each within CHAR_INTERVAL of the previous one. */
export const PASTE_BURST_MIN_CHARS = 3;
/** Max gap (ms) between chars of one burst; also how long the first ASCII char is held. */
export const PASTE_BURST_CHAR_INTERVAL = 8;
/** After burst activity, Enter inserts a newline instead of submitting for this long (ms). */
export const PASTE_ENTER_SUPPRESS_WINDOW = 120;
/** A retro-grabbed prefix this long (code points) looks like a paste even without whitespace. */
export const PASTE_RETRO_GRAB_MIN_CHARS = 16;
/** Delay (ms) for the UI tick that calls flushIfDue while a first char is held. */
export const PASTE_BURST_FLUSH_DELAY = PASTE_BURST_CHAR_INTERVAL + 1;

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

export interface PasteBurst {
  readonly lastPlainCharTime: number | null;
  /** Plain chars in a row, each within CHAR_INTERVAL of the previous one. */
  readonly consecutivePlainChars: number;
  /** Until then Enter inserts a newline instead of submitting. */
  readonly burstWindowUntil: number | null;
  /** The burst so far; a string, so appending one char at a time stays linear (V8 joins lazily). */
  readonly buffer: string;
  /** Appends to `buffer` (a retro-grabbed prefix is one): what LARGE_BURST_CHARS is measured in. */
  readonly pieces: number;
  readonly active: boolean;
  /** The first ASCII char, held until the next char or a flush tells whether a burst began. */
  readonly pendingFirstChar: { readonly ch: string; readonly at: number } | null;
  /** When the burst being buffered began (null when none is). */
  readonly startedAt: number | null;
  /** pasteBurstActiveIdleTimeout of the platform. */
  readonly activeIdleTimeout: number;
}

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

/** A flushed burst: its text, when it began and when its last character came. */
export interface FlushedBurst {
  readonly text: string;
  readonly startedAt: number;
  readonly endedAt: number;
}

export type FlushResult = ({ type: 'paste' } & FlushedBurst) | { type: 'typed'; ch: string } | { type: 'none' };

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

export function initialPasteBurst(opts: PasteBurstOptions = {}): PasteBurst {
  return {
    lastPlainCharTime: null,
    consecutivePlainChars: 0,
    burstWindowUntil: null,
    buffer: '',
    pieces: 0,
    active: false,
    pendingFirstChar: null,
    startedAt: null,
    activeIdleTimeout: pasteBurstActiveIdleTimeout(opts.platform),
  };
}

/** Delay (ms) for the UI tick that calls flushIfDue while a burst or held char is pending. */
export function recommendedFlushDelay(b: PasteBurst): number {
  return isBuffering(b) ? idleTimeout(b) + 1 : PASTE_BURST_FLUSH_DELAY;
}

/** How long a buffered burst waits for more before it flushes. */
function idleTimeout(b: PasteBurst): number {
  return b.pieces >= LARGE_BURST_CHARS ? LARGE_BURST_IDLE_MS : b.activeIdleTimeout;
}

/** Ms from `now` until flushIfDue would flush something (0 when due), or null when nothing waits. */
export function nextFlushDelay(b: PasteBurst, now: number): number | null {
  if (!isBurstActive(b) || b.lastPlainCharTime === null) return null;
  const timeout = isBuffering(b) ? idleTimeout(b) : PASTE_BURST_CHAR_INTERVAL;
  return Math.max(0, b.lastPlainCharTime + timeout + 1 - now);
}

export interface CharStep {
  burst: PasteBurst;
  decision: CharDecision;
}

/** ASCII path: may hold the first char briefly to see whether a burst follows. */
export function onPlainChar(b: PasteBurst, ch: string, now: number): CharStep {
  const count = plainCharCount(b, now);
  if (b.active) return { burst: bufferingCopy(b, count, now, b.buffer, b.pieces, now), decision: { type: 'bufferAppend' } };
  const noted = { ...b, consecutivePlainChars: count, lastPlainCharTime: now };
  const held = b.pendingFirstChar;
  if (held !== null && now - held.at <= PASTE_BURST_CHAR_INTERVAL) {
    const started = {
      ...noted,
      ...appended(b, held.ch),
      pendingFirstChar: null,
      active: true,
      startedAt: held.at,
      burstWindowUntil: now + PASTE_ENTER_SUPPRESS_WINDOW,
    };
    return { burst: started, decision: { type: 'beginBufferFromPending' } };
  }
  if (count >= PASTE_BURST_MIN_CHARS) return { burst: noted, decision: { type: 'beginBuffer', retroChars: count - 1 } };
  return { burst: { ...noted, pendingFirstChar: { ch, at: now } }, decision: { type: 'retainFirstChar' } };
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
export function onPlainCharNoHold(b: PasteBurst, _ch: string, now: number): CharStep {
  const count = plainCharCount(b, now);
  const window = b.active || count >= 2 ? now + PASTE_ENTER_SUPPRESS_WINDOW : b.burstWindowUntil;
  const burst = { ...b, consecutivePlainChars: count, lastPlainCharTime: now, burstWindowUntil: window };
  if (b.active) return { burst, decision: { type: 'bufferAppend' } };
  if (count >= PASTE_BURST_MIN_CHARS) return { burst, decision: { type: 'beginBuffer', retroChars: count - 1 } };
  return { burst, decision: { type: 'insert' } };
}

/**
 * After `beginBuffer`: look at the last `retroChars` chars before the cursor. Only a prefix that
 * looks like a paste (whitespace, or at least 16 chars) is grabbed into the buffer; fast typing of
 * a short word stays as typed.
 */
export function decideBeginBuffer(
  b: PasteBurst,
  now: number,
  before: string,
  retroChars: number,
): { burst: PasteBurst; grab: RetroGrabDecision } {
  const start = retroStartIndex(before, retroChars);
  const grabbed = before.slice(start);
  const startByte = Buffer.byteLength(before.slice(0, start), 'utf8');
  const looksPastey = /\s/u.test(grabbed) || countCodePoints(grabbed) >= PASTE_RETRO_GRAB_MIN_CHARS;
  if (!looksPastey) return { burst: b, grab: { grab: false, start, startByte, grabbed } };
  const buffered = grabbed.length > 0 ? appended(b, grabbed) : {};
  return {
    burst: { ...b, ...buffered, active: true, startedAt: b.startedAt ?? now, burstWindowUntil: now + PASTE_ENTER_SUPPRESS_WINDOW },
    grab: { grab: true, start, startByte, grabbed },
  };
}

export function appendCharToBuffer(b: PasteBurst, ch: string, now: number): PasteBurst {
  return bufferingCopy(b, b.consecutivePlainChars, b.lastPlainCharTime, b.buffer + ch, b.pieces + 1, now);
}

/**
 * `text` (plain ASCII characters read together at `now`) appended as one `onPlainChar` and
 * `appendCharToBuffer` per character would: for an active burst that would neither flush nor restart
 * its count at `now`; null otherwise.
 */
export function appendRunIfActive(b: PasteBurst, text: string, now: number): PasteBurst | null {
  if (!takesRunAt(b, now)) return null;
  return bufferingCopy(b, b.consecutivePlainChars + text.length, now, b.buffer + text, b.pieces + text.length, now);
}

/** Whether appendRunIfActive takes characters at `now`. */
export function takesRunAt(b: PasteBurst, now: number): boolean {
  if (!b.active || b.lastPlainCharTime === null) return false;
  const gap = now - b.lastPlainCharTime;
  return gap >= 0 && gap <= PASTE_BURST_CHAR_INTERVAL && gap <= idleTimeout(b);
}

/** Appends when a burst is buffering; null when it is not. */
export function tryAppendCharIfActive(b: PasteBurst, ch: string, now: number): PasteBurst | null {
  return isBuffering(b) ? appendCharToBuffer(b, ch, now) : null;
}

/**
 * Enter while a burst is buffering (or a first char is held): the newline joins the buffer instead
 * of submitting (null: it does not). A held char goes into the buffer first so the order is kept.
 */
export function appendNewlineIfActive(b: PasteBurst, now: number): PasteBurst | null {
  if (!isBurstActive(b)) return null;
  const startedAt = b.startedAt ?? b.pendingFirstChar?.at ?? now;
  const held = b.pendingFirstChar === null ? b : { ...b, ...appended(b, b.pendingFirstChar.ch), pendingFirstChar: null };
  return { ...held, ...appended(held, '\n'), active: true, startedAt, burstWindowUntil: now + PASTE_ENTER_SUPPRESS_WINDOW };
}

/** Enter inside the window after burst activity inserts a newline; the window outlives the flush. */
export function newlineShouldInsertInsteadOfSubmit(b: PasteBurst, now: number): boolean {
  const inWindow = b.burstWindowUntil !== null && now <= b.burstWindowUntil;
  return isBurstActive(b) || inWindow;
}

export function extendWindow(b: PasteBurst, now: number): PasteBurst {
  return { ...b, burstWindowUntil: now + PASTE_ENTER_SUPPRESS_WINDOW };
}

/**
 * Called on every key and on UI ticks. A buffered burst flushes as a paste after the active idle
 * timeout; a held first char flushes as typed after CHAR_INTERVAL. Both comparisons are strict.
 */
export function flushIfDue(b: PasteBurst, now: number): { burst: PasteBurst; flushed: FlushResult } {
  const buffering = isBuffering(b);
  const timeout = buffering ? idleTimeout(b) : PASTE_BURST_CHAR_INTERVAL;
  const timedOut = b.lastPlainCharTime !== null && now - b.lastPlainCharTime > timeout;
  if (!timedOut) return { burst: b, flushed: { type: 'none' } };
  if (buffering) return { burst: { ...b, ...EMPTY_BUFFER, active: false }, flushed: { type: 'paste', ...flushedBurst(b, b.buffer) } };
  if (b.pendingFirstChar !== null)
    return { burst: { ...b, pendingFirstChar: null }, flushed: { type: 'typed', ch: b.pendingFirstChar.ch } };
  return { burst: b, flushed: { type: 'none' } };
}

/** Before a non-char or modified key: everything buffered or held (null: nothing); state cleared. */
export function flushBeforeModifiedInput(b: PasteBurst): { burst: PasteBurst; flushed: FlushedBurst | null } {
  if (!isBurstActive(b)) return { burst: b, flushed: null };
  const flushed = flushedBurst(b, b.buffer + (b.pendingFirstChar?.ch ?? ''));
  return { burst: { ...b, ...EMPTY_BUFFER, active: false, pendingFirstChar: null }, flushed };
}

/** An active burst has seen a character, so `lastPlainCharTime` is set. */
function flushedBurst(b: PasteBurst, text: string): FlushedBurst {
  const endedAt = b.lastPlainCharTime ?? 0;
  return { text, startedAt: b.startedAt ?? b.pendingFirstChar?.at ?? endedAt, endedAt };
}

/** After a non-char key: forget the timing so the next char starts fresh (buffer must be flushed first). */
export function clearWindowAfterNonChar(b: PasteBurst): PasteBurst {
  return { ...b, consecutivePlainChars: 0, lastPlainCharTime: null, burstWindowUntil: null, active: false, pendingFirstChar: null };
}

export function clearAfterExplicitPaste(b: PasteBurst): PasteBurst {
  return { ...clearWindowAfterNonChar(b), ...EMPTY_BUFFER };
}

/** Buffering, or holding a first char. */
export function isBurstActive(b: PasteBurst): boolean {
  return isBuffering(b) || b.pendingFirstChar !== null;
}

export function isBuffering(b: PasteBurst): boolean {
  return b.active || b.pieces > 0;
}

export function hasPendingFirstChar(b: PasteBurst): boolean {
  return b.pendingFirstChar !== null;
}

/**
 * Tiller has just finished reading a chunk of input: a burst being buffered counts as active until
 * now, so the wait for its next piece starts here and not when this piece arrived (reading a large
 * piece takes longer than the idle timeout).
 */
export function touchBurst(b: PasteBurst, now: number): PasteBurst {
  if (!isBuffering(b) || b.lastPlainCharTime === null || b.lastPlainCharTime >= now) return b;
  return { ...b, lastPlainCharTime: now };
}

/** consecutivePlainChars once a plain char arrives at `now`. */
function plainCharCount(b: PasteBurst, now: number): number {
  const run = b.lastPlainCharTime !== null && now - b.lastPlainCharTime <= PASTE_BURST_CHAR_INTERVAL;
  return run ? b.consecutivePlainChars + 1 : 1;
}

const EMPTY_BUFFER = { buffer: '', pieces: 0, startedAt: null } as const;

function appended(b: PasteBurst, text: string): Pick<PasteBurst, 'buffer' | 'pieces'> {
  return { buffer: b.buffer + text, pieces: b.pieces + 1 };
}

/**
 * A buffering detector, built field by field: a burst makes one per character (a megabyte pasted
 * without bracketed paste is a million), and V8 copies `{ ...b, field }` some forty times slower.
 */
function bufferingCopy(
  b: PasteBurst,
  consecutivePlainChars: number,
  lastPlainCharTime: number | null,
  buffer: string,
  pieces: number,
  now: number,
): PasteBurst {
  return {
    lastPlainCharTime,
    consecutivePlainChars,
    burstWindowUntil: now + PASTE_ENTER_SUPPRESS_WINDOW,
    buffer,
    pieces,
    active: b.active,
    pendingFirstChar: b.pendingFirstChar,
    startedAt: b.startedAt,
    activeIdleTimeout: b.activeIdleTimeout,
  };
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
