/**
 * `widest-line` for Ink, memoized: Ink measures every text node's widest line on every frame, and
 * string-width is the costliest part of a frame whose text did not change. The build
 * (scripts/build.mjs) resolves Ink's `widest-line` to this module.
 */
import stringWidth from '../string-width.js';
import { BoundedCache } from './bounded-cache.js';

const widths = new BoundedCache<number>();

export default function widestLine(text: string): number {
  return widths.get(text, (t) => t.split('\n').reduce((widest, line) => Math.max(widest, stringWidth(line)), 0));
}
