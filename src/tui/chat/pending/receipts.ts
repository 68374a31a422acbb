/**
 * Delivery receipts: a steer's prompt cell says when the model got it, after which tool call and
 * with which sampling request of the turn (the runtime's `tillerDelivery` on the userMessage item),
 * and how long after Enter.
 */
import { randomUUID } from 'node:crypto';
import type { TillerDelivery } from '../../../protocol/pending-input.js';
import { truncateToWidth } from '../../text-width.js';

/** The id a steer is known by in the runtime (and its userMessage item's id once delivered). */
export function newClientId(): string {
  return `tiller-input-${randomUUID()}`;
}

const AFTER_TEXT_CELLS = 48;

/** `delivered after $ cargo test (sampling 2) · 4.1 s after Enter`. */
export function receiptText(delivery: TillerDelivery, elapsedMs: number | null): string {
  const after = afterText(delivery.afterItem);
  const head =
    after === null
      ? `delivered with sampling ${delivery.samplingRequest}`
      : `delivered after ${after} (sampling ${delivery.samplingRequest})`;
  return elapsedMs === null ? head : `${head} · ${formatSeconds(elapsedMs)} after Enter`;
}

function afterText(item: TillerDelivery['afterItem']): string | null {
  if (item === null) return null;
  switch (item.type) {
    case 'commandExecution':
      return truncateToWidth(`$ ${oneLine(item.command)}`, AFTER_TEXT_CELLS);
    case 'mcpToolCall':
      return truncateToWidth(`${item.server}.${item.tool}`, AFTER_TEXT_CELLS);
    case 'other':
      return 'a tool call';
  }
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function formatSeconds(ms: number): string {
  const s = Math.max(0, ms) / 1000;
  return s < 10 ? `${s.toFixed(1)} s` : `${Math.round(s)} s`;
}
