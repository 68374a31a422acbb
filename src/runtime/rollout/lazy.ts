/**
 * Resuming without parsing what the first frame does not need. A rollout's bulk is its history
 * lines (what the model is sent again) and its item lines (the transcript's display copies). The
 * reader records where those lines are instead of parsing them; the transcript's last turns and
 * then the history are read back from those places, the history behind the first frame.
 *
 * The lines are found by the prefix this Tiller's writer gives them (`{"type":"item","turnId":"…",
 * "item":{`): a line in any other form is parsed when read, as before. The file is append-only and
 * locked while the thread is loaded, so the places stay valid.
 */
import { open } from 'node:fs/promises';
import type { ThreadItem, Turn } from '../../protocol/api.js';
import type { HistoryEntry } from '../core/history.js';
import { checkLine } from './format.js';

/** Where one unparsed line is in the file. */
export class LineRef {
  constructor(
    readonly offset: number,
    readonly length: number,
  ) {}
}

export type HistorySlot = HistoryEntry | LineRef;
export type ItemSlot = ThreadItem | LineRef;

const ITEM_PREFIX = Buffer.from('{"type":"item","turnId":"');
const ITEM_BODY = Buffer.from(',"item":{');
const HISTORY_PREFIX = Buffer.from('{"type":"history","turnId":');
const HISTORY_BODY = Buffer.from(',"entry":{');
const NULL_ID = Buffer.from('null');
const QUOTE = 0x22;

/** A byte loop: Buffer.compare's argument checks cost more than these few bytes (it runs on every line of a resume). */
function hasAt(bytes: Buffer, at: number, part: Buffer): boolean {
  if (bytes.length < at + part.length) return false;
  for (let i = 0; i < part.length; i++) if (bytes[at + i] !== part[i]) return false;
  return true;
}

/** A line that can wait: an item or history line in the writer's form, with its turn id. */
export function deferrable(bytes: Buffer): { kind: 'item' | 'history'; turnId: string | null } | null {
  if (hasAt(bytes, 0, ITEM_PREFIX)) {
    const close = bytes.indexOf(QUOTE, ITEM_PREFIX.length);
    if (close < 0 || !hasAt(bytes, close + 1, ITEM_BODY)) return null;
    return { kind: 'item', turnId: bytes.toString('latin1', ITEM_PREFIX.length, close) };
  }
  if (hasAt(bytes, 0, HISTORY_PREFIX)) {
    const at = HISTORY_PREFIX.length;
    if (hasAt(bytes, at, NULL_ID)) return hasAt(bytes, at + NULL_ID.length, HISTORY_BODY) ? { kind: 'history', turnId: null } : null;
    if (bytes[at] !== QUOTE) return null;
    const close = bytes.indexOf(QUOTE, at + 1);
    if (close < 0 || !hasAt(bytes, close + 1, HISTORY_BODY)) return null;
    return { kind: 'history', turnId: bytes.toString('latin1', at + 1, close) };
  }
  return null;
}

/** Neighbouring lines are read together, up to this many bytes at once (a longer line alone). */
const READ_SPAN_BYTES = 4 << 20;

/**
 * Reads the lines `refs` point at (in file order) and gives each one's text to `onLine`, with its
 * index. Neighbours share one read; every read gives the event loop a turn.
 */
async function readLines(path: string, refs: readonly LineRef[], onLine: (text: string, index: number) => void): Promise<void> {
  if (refs.length === 0) return;
  const handle = await open(path, 'r');
  try {
    let buffer = Buffer.allocUnsafe(READ_SPAN_BYTES);
    for (let first = 0; first < refs.length; ) {
      const start = refs[first]!.offset;
      let last = first;
      const joins = (next: LineRef, prev: LineRef): boolean =>
        next.offset >= prev.offset + prev.length && next.offset + next.length - start <= READ_SPAN_BYTES;
      while (last + 1 < refs.length && joins(refs[last + 1]!, refs[last]!)) last++;
      const span = refs[last]!.offset + refs[last]!.length - start;
      if (span > buffer.length) buffer = Buffer.allocUnsafe(span);
      const { bytesRead } = await handle.read(buffer, 0, span, start);
      for (let i = first; i <= last; i++) {
        const ref = refs[i]!;
        const from = ref.offset - start;
        onLine(from + ref.length <= bytesRead ? buffer.toString('utf8', from, from + ref.length) : '', i);
      }
      if (span > READ_SPAN_BYTES) buffer = Buffer.allocUnsafe(READ_SPAN_BYTES);
      first = last + 1;
    }
  } finally {
    await handle.close();
  }
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function unreadable(ref: LineRef): string {
  return `the line at byte ${ref.offset} is no longer readable and was skipped`;
}

/** The history with every deferred entry read back; a line that no longer reads is left out, with a warning. */
export async function loadHistory(path: string, slots: readonly HistorySlot[]): Promise<{ entries: HistoryEntry[]; warnings: string[] }> {
  const refs: LineRef[] = [];
  const at: number[] = [];
  slots.forEach((slot, i) => {
    if (slot instanceof LineRef) {
      refs.push(slot);
      at.push(i);
    }
  });
  const resolved: Array<HistoryEntry | null> = slots.map((slot) => (slot instanceof LineRef ? null : slot));
  const warnings: string[] = [];
  await readLines(path, refs, (text, i) => {
    const checked = checkLine(parsed(text));
    if (checked.ok && checked.line.type === 'history') resolved[at[i]!] = checked.line.entry;
    else warnings.push(unreadable(refs[i]!));
  });
  return { entries: resolved.filter((entry): entry is HistoryEntry => entry !== null), warnings };
}

/** Fills in the items of `turns` from their slots; a line that no longer reads is left out, with a warning. */
export async function loadItems(path: string, turns: readonly Turn[], slots: ReadonlyMap<string, readonly ItemSlot[]>): Promise<string[]> {
  const refs: LineRef[] = [];
  const places: Array<{ items: Array<ThreadItem | null>; index: number }> = [];
  const filled: Array<{ turn: Turn; items: Array<ThreadItem | null> }> = [];
  for (const turn of turns) {
    const own = slots.get(turn.id) ?? [];
    const items: Array<ThreadItem | null> = [];
    own.forEach((slot, index) => {
      if (slot instanceof LineRef) {
        refs.push(slot);
        places.push({ items, index });
      }
      items.push(slot instanceof LineRef ? null : slot);
    });
    filled.push({ turn, items });
  }
  const warnings: string[] = [];
  await readLines(path, refs, (text, i) => {
    const checked = checkLine(parsed(text));
    const place = places[i]!;
    if (checked.ok && checked.line.type === 'item') place.items[place.index] = checked.line.item;
    else warnings.push(unreadable(refs[i]!));
  });
  for (const { turn, items } of filled) turn.items = items.filter((item): item is ThreadItem => item !== null);
  return warnings;
}
