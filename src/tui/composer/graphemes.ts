/**
 * Grapheme boundaries and character classes for the composer's editing. Boundaries are found in a
 * small window around the position so a keystroke never segments the whole (possibly huge) text.
 */

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** Window (UTF-16 units) searched around a position; doubled while one cluster fills it (e.g. Zalgo text). */
const WINDOW = 64;

/** String index of the grapheme boundary before `i` (0 at the start). */
export function prevGrapheme(text: string, i: number): number {
  if (i <= 0) return 0;
  for (let window = WINDOW; ; window *= 2) {
    const from = Math.max(0, i - window);
    let last = 0;
    for (const seg of segmenter.segment(text.slice(from, i))) last = seg.index;
    if (last > 0 || from === 0) return from + last;
  }
}

/** String index of the grapheme boundary after `i` (text.length at the end). */
export function nextGrapheme(text: string, i: number): number {
  if (i >= text.length) return text.length;
  for (let window = WINDOW; ; window *= 2) {
    const chunk = text.slice(i, i + window);
    const first = segmenter.segment(chunk)[Symbol.iterator]().next();
    const len = first.done === true ? chunk.length : first.value.segment.length;
    if (len < chunk.length || i + window >= text.length) return i + len;
  }
}

/** Snaps `i` down to a grapheme boundary. */
export function floorGrapheme(text: string, i: number): number {
  if (i <= 0) return 0;
  if (i >= text.length) return text.length;
  const prev = prevGrapheme(text, i);
  const next = nextGrapheme(text, prev);
  return next === i ? i : prev;
}

/** Printable ASCII and nothing else: each character is a grapheme of its own. */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/u;

export function graphemes(text: string): string[] {
  // Intl.Segmenter costs about a microsecond a character; most lines of a draft are plain ASCII.
  if (PRINTABLE_ASCII.test(text)) return text.split('');
  return Array.from(segmenter.segment(text), (s) => s.segment);
}

/** Word separators of the Codex keymap (docs/codex-parity.md#default-editing-keys). */
const SEPARATORS = new Set('`~!@#$%^&*()-=+[{]}\\|;:\'",.<>/?');

export function isWordSeparator(ch: string): boolean {
  return SEPARATORS.has(ch);
}

const WS = /^\s$/u;

export function isWhitespace(ch: string): boolean {
  return WS.test(ch);
}
