/**
 * What every row builder shares: the default colours, wrapping behind a prefix, and cutting a tall
 * block to its first and last rows. Kept apart so the cell, MCP and modal builders need not import
 * one another.
 */
import { Chalk, type ChalkInstance } from 'chalk';
import stringWidth from '../string-width.js';
import { BoundedCache } from '../terminal/bounded-cache.js';
import { colorLevel } from '../terminal/color-level.js';
import { wrapText } from '../wrap.js';

export const defaultChalk: ChalkInstance = new Chalk({ level: colorLevel(process.env) });

/** The few row prefixes there are, measured once each (a thousand cells printed at once measure them all). */
const prefixWidths = new BoundedCache<number>(256);

/**
 * Wraps by display width at word boundaries; the first row gets `first`, the rest `rest` (same cell
 * width). A source line's own leading indentation is kept; spaces at wrap points are dropped.
 */
export function wrapWithPrefix(text: string, width: number, first: string, rest: string): string[] {
  const inner = Math.max(1, width - prefixWidths.get(first, stringWidth));
  const out: string[] = [];
  for (const source of text.split('\n')) {
    const indent = /^[ ]*/.exec(source)![0].slice(0, Math.max(0, inner - 1));
    const body = source.slice(indent.length);
    const pieces = body.trim() === '' ? [''] : wrapText(body, inner - indent.length).split('\n');
    pieces.forEach((piece, i) => out.push((out.length === 0 ? first : rest) + (i === 0 ? indent : '') + piece));
  }
  return out;
}

/** At most `max` rows (at least 2): the first ones, a `… N more lines` row, then the last `keepLast`. */
export function cutRows(rows: string[], max: number, keepLast: number, c: ChalkInstance): string[] {
  const limit = Math.max(2, max);
  if (rows.length <= limit) return rows;
  const last = Math.min(keepLast, limit - 2);
  const first = limit - 1 - last;
  return [...rows.slice(0, first), c.dim(`    … ${rows.length - first - last} more lines`), ...rows.slice(rows.length - last)];
}
