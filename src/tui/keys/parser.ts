/**
 * Incremental raw-stdin parser: bytes in (any chunking), TerminalEvents out.
 *
 * Handles legacy control bytes, Alt as an ESC prefix, CSI / SS3 keys with xterm modifiers, kitty CSI-u
 * (with event types), xterm modifyOtherKeys, and bracketed paste as one PasteEvent however it is
 * chunked. A lone ESC is reported only after ESC_TIMEOUT_MS without follow-up bytes. Focus reports
 * (`CSI I`, `CSI O`) become FocusEvents. Anything else that looks like an escape sequence but is not a
 * key is dropped, never inserted as text.
 */
import { StringDecoder } from 'node:string_decoder';
import { decodeControl, decodeCsi, decodeLinuxConsoleFKey, decodeSs3, withAlt } from './sequences.js';
import { charKey, key, type KeyEvent, type TerminalEvent } from './types.js';
import { parseBackgroundReply } from '../theme.js';

/** How long an ESC (or an unfinished sequence) waits for more bytes before it counts as a key. */
export const ESC_TIMEOUT_MS = 50;
/** A bracketed paste whose end marker never comes is delivered after this long without data. */
export const PASTE_STALL_TIMEOUT_MS = 2000;
/** An unterminated OSC/DCS longer than this is taken for Alt+char followed by typing. */
const MAX_STRING_SEQUENCE_LENGTH = 4096;

const ESC = '\x1b';
const PASTE_START = '\x1b[200~';
const PASTE_END = '\x1b[201~';

type Step =
  /** Consumed `length` chars, producing `events` (possibly none: a dropped sequence). */
  | { type: 'done'; length: number; events: TerminalEvent[] }
  /** Needs more bytes to decide. */
  | { type: 'incomplete' }
  /** A bracketed paste starts after `length` chars. */
  | { type: 'pasteStart'; length: number };

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

export class KeyParser {
  private readonly decoder = new StringDecoder('utf8');
  /** Undecided text (starts with ESC) waiting for more bytes. */
  private pending = '';
  private lastInputAt = 0;
  private inPaste = false;
  private pasteChunks: string[] = [];
  /** End of the paste data that might be the start of a split end marker. */
  private pasteTail = '';

  feed(chunk: string | Buffer, now: number): TerminalEvent[] {
    const text = typeof chunk === 'string' ? chunk : this.decoder.write(chunk);
    this.lastInputAt = now;
    const events: TerminalEvent[] = [];
    if (text === '') return events;
    if (this.inPaste) {
      const rest = this.feedPaste(text, events);
      if (rest === null) return events;
      this.pending += rest;
    } else {
      this.pending += text;
    }
    this.parse(events, false);
    return events;
  }

  /** Milliseconds (from `now`) until flushTimeout should be called, or null when nothing waits. */
  pendingTimeoutMs(now: number = this.lastInputAt): number | null {
    if (this.inPaste) return Math.max(0, this.lastInputAt + PASTE_STALL_TIMEOUT_MS - now);
    if (this.pending === '') return null;
    return Math.max(0, this.lastInputAt + ESC_TIMEOUT_MS - now);
  }

  /** Resolves whatever waited long enough: a lone ESC becomes Escape, an unfinished paste is delivered. */
  flushTimeout(now: number): TerminalEvent[] {
    const wait = this.pendingTimeoutMs(now);
    if (wait === null || wait > 0) return [];
    const events: TerminalEvent[] = [];
    if (this.inPaste) {
      this.endPaste(this.pasteChunks.join('') + this.pasteTail, events);
      return events;
    }
    this.parse(events, true);
    return events;
  }

  private parse(events: TerminalEvent[], final: boolean): void {
    let buf = this.pending;
    let i = 0;
    while (i < buf.length) {
      const step = this.step(buf, i, final);
      if (step.type === 'incomplete') break;
      if (step.type === 'pasteStart') {
        this.inPaste = true;
        this.pasteChunks = [];
        this.pasteTail = '';
        const rest = this.feedPaste(buf.slice(i + step.length), events);
        if (rest === null) {
          this.pending = '';
          return;
        }
        buf = rest;
        i = 0;
        continue;
      }
      // No spread: a run of printable text can be a whole unbracketed paste (too many arguments).
      for (const ev of step.events) events.push(ev);
      i += step.length;
    }
    this.pending = buf.slice(i);
  }

  /** Paste data; returns the text after the end marker, or null while the paste continues. */
  private feedPaste(text: string, events: TerminalEvent[]): string | null {
    const combined = this.pasteTail + text;
    const end = combined.indexOf(PASTE_END);
    if (end >= 0) {
      this.pasteChunks.push(combined.slice(0, end));
      this.endPaste(this.pasteChunks.join(''), events);
      return combined.slice(end + PASTE_END.length);
    }
    // Keep a possible marker prefix back; everything before it is certainly paste data.
    const keep = markerPrefixLength(combined);
    this.pasteChunks.push(combined.slice(0, combined.length - keep));
    this.pasteTail = combined.slice(combined.length - keep);
    return null;
  }

  private endPaste(text: string, events: TerminalEvent[]): void {
    this.inPaste = false;
    this.pasteChunks = [];
    this.pasteTail = '';
    events.push({ type: 'paste', text });
  }

  private step(buf: string, i: number, final: boolean): Step {
    const c = buf.charCodeAt(i);
    if (c === 0x1b) return this.stepEscape(buf, i, final);
    if (c < 0x20 || c === 0x7f) {
      const ev = decodeControl(c);
      return done(1, ev ? [ev] : []);
    }
    // A run of printable text, split into graphemes so a ZWJ emoji or a combining mark is one key.
    let end = i + 1;
    while (end < buf.length) {
      const d = buf.charCodeAt(end);
      if (d < 0x20 || d === 0x7f) break;
      end++;
    }
    const events: TerminalEvent[] = [];
    splitGraphemes(buf, i, end, (g) => events.push(plainChar(g)));
    return done(end - i, events);
  }

  private stepEscape(buf: string, i: number, final: boolean): Step {
    if (i + 1 >= buf.length) return final ? done(1, [key('escape')]) : { type: 'incomplete' };
    const next = buf[i + 1];
    if (next === '[') {
      // A split start marker is an unfinished CSI, so it waits like any other.
      if (buf.startsWith(PASTE_START, i)) return { type: 'pasteStart', length: PASTE_START.length };
      return this.stepCsi(buf, i, i + 2, false, final);
    }
    if (next === 'O') return this.stepSs3(buf, i, i + 2, false, final);
    if (next === ESC) {
      // ESC ESC [ … / ESC ESC O …: Alt plus a sequence. Otherwise the first ESC is an Escape key.
      if (i + 2 >= buf.length) {
        return final ? done(2, [key('escape'), key('escape')]) : { type: 'incomplete' };
      }
      const third = buf[i + 2];
      if (third === '[') return this.stepCsi(buf, i, i + 3, true, final);
      if (third === 'O') return this.stepSs3(buf, i, i + 3, true, final);
      return done(1, [key('escape')]);
    }
    if (next === ']' || next === 'P' || next === '_' || next === '^' || next === 'X') {
      return this.stepStringSequence(buf, i, final);
    }
    // Alt + one key (a control byte or one code point).
    const cp = buf.codePointAt(i + 1) ?? 0;
    const len = cp > 0xffff ? 2 : 1;
    if (cp < 0x20 || cp === 0x7f) {
      const ev = decodeControl(cp);
      return done(1 + len, ev ? [withAlt(ev)] : []);
    }
    return done(1 + len, [charKey(String.fromCodePoint(cp), { alt: true })]);
  }

  /** `start` is the sequence start (ESC), `body` the first byte after `ESC [`. */
  private stepCsi(buf: string, start: number, body: number, alt: boolean, final: boolean): Step {
    // Linux console F1–F5: ESC [ [ A…E.
    if (buf[body] === '[') {
      if (body + 1 >= buf.length) return final ? this.timeoutPartial(buf, start, body) : { type: 'incomplete' };
      const ev = decodeLinuxConsoleFKey(buf[body + 1] ?? '');
      return done(body + 2 - start, ev ? [alt ? withAlt(ev) : ev] : []);
    }
    let j = body;
    while (j < buf.length) {
      const c = buf.charCodeAt(j);
      if (c >= 0x30 && c <= 0x3f) {
        j++;
        continue;
      }
      break;
    }
    const paramsEnd = j;
    while (j < buf.length) {
      const c = buf.charCodeAt(j);
      if (c >= 0x20 && c <= 0x2f) {
        j++;
        continue;
      }
      break;
    }
    if (j >= buf.length) return final ? this.timeoutPartial(buf, start, body) : { type: 'incomplete' };
    const c = buf.charCodeAt(j);
    if (c < 0x40 || c > 0x7e) {
      // Malformed: drop what was read as the sequence and resume at the offending byte.
      return done(j - start, []);
    }
    const params = buf.slice(body, paramsEnd);
    const intermediates = buf.slice(paramsEnd, j);
    const finalByte = buf[j] ?? '';
    if (params === '' && intermediates === '' && (finalByte === 'I' || finalByte === 'O')) {
      return done(j + 1 - start, [{ type: 'focus', focused: finalByte === 'I' }]);
    }
    const ev = decodeCsi(params, intermediates, finalByte);
    return done(j + 1 - start, ev ? [alt ? withAlt(ev) : ev] : []);
  }

  private stepSs3(buf: string, start: number, body: number, alt: boolean, final: boolean): Step {
    let j = body;
    while (j < buf.length && buf.charCodeAt(j) >= 0x30 && buf.charCodeAt(j) <= 0x39 && j - body < 4) j++;
    if (j >= buf.length) {
      if (!final) return { type: 'incomplete' };
      // A lone `ESC O` that never continued was Alt+Shift+O.
      if (j === body && !alt) return done(2, [charKey('O', { alt: true })]);
      return done(j - start, []);
    }
    const c = buf.charCodeAt(j);
    if (c < 0x40 || c > 0x7e) return done(j - start, []);
    const ev = decodeSs3(buf.slice(body, j), buf[j] ?? '');
    return done(j + 1 - start, ev ? [alt ? withAlt(ev) : ev] : []);
  }

  /**
   * OSC / DCS / APC / PM / SOS: terminal replies, ended by BEL or ST (`ESC \`); dropped whole, but
   * for the background colour (OSC 11), which becomes an event.
   */
  private stepStringSequence(buf: string, i: number, final: boolean): Step {
    const reply = (end: number, length: number): Step => {
      const rgb = buf[i + 1] === ']' ? parseBackgroundReply(buf.slice(i + 2, end)) : null;
      return done(length, rgb === null ? [] : [{ type: 'background', rgb }]);
    };
    for (let j = i + 2; j < buf.length; j++) {
      const c = buf.charCodeAt(j);
      if (c === 0x07) return reply(j, j + 1 - i);
      if (c === 0x1b && buf[j + 1] === '\\') return reply(j, j + 2 - i);
      if (c === 0x1b && j + 1 >= buf.length && !final) return { type: 'incomplete' };
    }
    if (!final && buf.length - i <= MAX_STRING_SEQUENCE_LENGTH) return { type: 'incomplete' };
    // Never terminated: it was Alt plus that character; what followed is ordinary input.
    return done(2, [charKey(buf[i + 1] ?? '', { alt: true })]);
  }

  /** A CSI that stopped mid-way: `ESC [` alone was Alt+[; a longer fragment is dropped. */
  private timeoutPartial(buf: string, start: number, body: number): Step {
    if (body === start + 2 && body >= buf.length) return done(2, [charKey('[', { alt: true })]);
    return done(buf.length - start, []);
  }
}

/** charKey(g) without the option spreading: an unbracketed paste makes one of these per character. */
function plainChar(char: string): KeyEvent {
  return { type: 'key', name: 'char', char, ctrl: false, alt: false, shift: false, meta: false, kind: 'press' };
}

/** Window for Intl.Segmenter: its cost grows faster than linearly with the input length. */
const SEGMENT_WINDOW = 64;

/**
 * Emits the graphemes of buf[start, end). ASCII followed by ASCII is a grapheme on its own (fast path);
 * other stretches go through Intl.Segmenter in small windows, each window's last grapheme carried
 * into the next so a cluster is never cut at a window edge.
 */
function splitGraphemes(buf: string, start: number, end: number, emit: (g: string) => void): void {
  let i = start;
  while (i < end) {
    if (buf.charCodeAt(i) < 0x80 && (i + 1 >= end || buf.charCodeAt(i + 1) < 0x80)) {
      emit(buf[i] ?? '');
      i++;
      continue;
    }
    let stretchEnd = i + 1;
    while (stretchEnd < end && !(buf.charCodeAt(stretchEnd) < 0x80 && (stretchEnd + 1 >= end || buf.charCodeAt(stretchEnd + 1) < 0x80))) {
      stretchEnd++;
    }
    while (i < stretchEnd) {
      let windowEnd = Math.min(stretchEnd, i + SEGMENT_WINDOW);
      // Never cut a surrogate pair: the half would segment on its own.
      const last = buf.charCodeAt(windowEnd - 1);
      if (windowEnd < stretchEnd && last >= 0xd800 && last <= 0xdbff) windowEnd--;
      const parts = Array.from(segmenter.segment(buf.slice(i, windowEnd)), (p) => p.segment);
      // Keep the last grapheme for the next window unless the stretch ends here (or it is all we have).
      const keepLast = windowEnd < stretchEnd && parts.length > 1;
      const emitCount = keepLast ? parts.length - 1 : parts.length;
      for (let k = 0; k < emitCount; k++) {
        const part = parts[k] ?? '';
        emit(part);
        i += part.length;
      }
    }
  }
}

function done(length: number, events: TerminalEvent[]): Step {
  return { type: 'done', length, events };
}

/** Length of the longest suffix of `s` that is a proper prefix of the paste end marker. */
function markerPrefixLength(s: string): number {
  for (let n = Math.min(PASTE_END.length - 1, s.length); n > 0; n--) {
    if (PASTE_END.startsWith(s.slice(s.length - n))) return n;
  }
  return 0;
}
