/**
 * Fitting plain text (no escape sequences) into terminal cells: by display width and whole grapheme
 * clusters, so a CJK character counts two cells and an emoji ZWJ sequence or a letter with combining
 * marks is never split. Counting code points instead lets a row overflow and the terminal wrap it.
 */
import stringWidth from './string-width.js';

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** `text` cut to at most `width` cells; a cut ends with `…` (inside the width). */
export function truncateToWidth(text: string, width: number): string {
  if (width <= 0) return '';
  if (stringWidth(text) <= width) return text;
  let out = '';
  let used = 0;
  for (const { segment } of segmenter.segment(text)) {
    const w = stringWidth(segment);
    if (used + w > width - 1) break;
    out += segment;
    used += w;
  }
  return `${out}…`;
}

/** `text` padded with spaces to `width` cells (unchanged when already as wide or wider). */
export function padToWidth(text: string, width: number): string {
  const w = stringWidth(text);
  return w >= width ? text : text + ' '.repeat(width - w);
}
