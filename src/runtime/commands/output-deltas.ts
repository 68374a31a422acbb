/**
 * Bounds a command's live output notifications. Deltas are coalesced: one notification per
 * interval, or at once when a chunk is full. The first `limitBytes` (the head the output cap keeps)
 * stream whole; past them each interval sends only the latest `chunkBytes`, so a long build stays
 * live on screen while a command printing megabytes costs at most one small notification per
 * interval. The complete head and tail arrive with the completed item's aggregatedOutput.
 */
import { splitsPair, unitWidth } from '../../protocol/utf8.js';
import { DEFAULT_HEAD_BYTES } from './output-cap.js';

export const OUTPUT_DELTA_INTERVAL_MS = 50;
export const OUTPUT_DELTA_CHUNK_BYTES = 8 * 1024;

/** Runs `run` after `ms`; returns a function that cancels it. */
export type Schedule = (run: () => void, ms: number) => () => void;

const realSchedule: Schedule = (run, ms) => {
  const timer = setTimeout(run, ms);
  return () => clearTimeout(timer);
};

export interface OutputDeltaOptions {
  send: (delta: string) => void;
  intervalMs?: number;
  chunkBytes?: number;
  /** Bytes streamed at most; default the output cap's head. */
  limitBytes?: number;
  schedule?: Schedule;
}

export class OutputDeltaCoalescer {
  private pending = '';
  private pendingBytes = 0;
  /** Bytes taken for streaming so far (sent or pending). */
  private taken = 0;
  private cancelTimer: (() => void) | null = null;
  private readonly intervalMs: number;
  private readonly chunkBytes: number;
  private readonly limitBytes: number;
  private readonly schedule: Schedule;

  constructor(private readonly options: OutputDeltaOptions) {
    this.intervalMs = options.intervalMs ?? OUTPUT_DELTA_INTERVAL_MS;
    this.chunkBytes = options.chunkBytes ?? OUTPUT_DELTA_CHUNK_BYTES;
    this.limitBytes = options.limitBytes ?? DEFAULT_HEAD_BYTES;
    this.schedule = options.schedule ?? realSchedule;
  }

  push(text: string): void {
    if (text.length === 0) return;
    const room = this.limitBytes - this.taken;
    if (room <= 0) {
      // Past the head: keep only the latest output, sent once per interval.
      this.pending = utf8Suffix(this.pending + text, this.chunkBytes);
      this.pendingBytes = Buffer.byteLength(this.pending);
      this.armTimer();
      return;
    }
    let piece = text;
    let bytes = Buffer.byteLength(text);
    if (bytes > room) {
      piece = utf8Prefix(text, room);
      bytes = Buffer.byteLength(piece);
      // A character that does not fit whole ends the head here.
      this.taken = this.limitBytes;
    } else {
      this.taken += bytes;
    }
    this.pending += piece;
    this.pendingBytes += bytes;
    if (this.pendingBytes >= this.chunkBytes || this.taken >= this.limitBytes) this.flush();
    else this.armTimer();
    if (piece.length < text.length) this.push(text.slice(piece.length));
  }

  private armTimer(): void {
    this.cancelTimer ??= this.schedule(() => {
      this.cancelTimer = null;
      this.flush();
    }, this.intervalMs);
  }

  /** Sends what is pending now (the command ended, or a chunk is full). */
  flush(): void {
    this.cancelTimer?.();
    this.cancelTimer = null;
    if (this.pending.length === 0) return;
    const delta = this.pending;
    this.pending = '';
    this.pendingBytes = 0;
    this.options.send(delta);
  }
}

/** The longest prefix of `text` of at most `maxBytes` UTF-8 bytes, never cutting a character. */
export function utf8Prefix(text: string, maxBytes: number): string {
  let bytes = 0;
  let end = 0;
  while (end < text.length) {
    const w = unitWidth(text, end);
    if (bytes + w.bytes > maxBytes) break;
    bytes += w.bytes;
    end += w.units;
  }
  return text.slice(0, end);
}

/**
 * The longest suffix of `text` of at most `maxBytes` UTF-8 bytes, never cutting a character. Only
 * the last `maxBytes` code units are looked at (none is less than a byte): a command printing
 * megabytes calls this for every chunk it prints.
 */
export function utf8Suffix(text: string, maxBytes: number): string {
  let start = Math.max(0, text.length - maxBytes);
  if (splitsPair(text, start)) start += 1;
  let bytes = Buffer.byteLength(start === 0 ? text : text.slice(start));
  while (bytes > maxBytes) {
    const w = unitWidth(text, start);
    bytes -= w.bytes;
    start += w.units;
  }
  return start === 0 ? text : text.slice(start);
}
