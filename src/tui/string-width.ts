/**
 * `string-width`, the same figure in a fraction of the time for the text a frame is made of.
 * string-width runs Intl.Segmenter and four Unicode-property regexes on every character that is not
 * printable ASCII, so one row of `│`, `•` or CJK costs tens of microseconds and a frame of them
 * milliseconds (Ink measures every text node that changed). When no character of a string can join
 * a grapheme cluster with its neighbour, each character is a cluster of its own and the width is
 * the sum of the characters' widths, each asked of string-width once and remembered. Anything else
 * (marks, joiners, format and control characters, Hangul jamo, astral characters) is measured by
 * string-width as before. Ink measures its text nodes with it too, through our widest-line and
 * frame buffer (src/tui/terminal/).
 */
import realStringWidth from 'string-width';
import stripAnsi from 'strip-ansi';

type Options = Parameters<typeof realStringWidth>[1];

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
/**
 * Characters that can be part of a larger grapheme cluster (Extend, ZWJ, SpacingMark, Prepend,
 * Hangul L/V/T, controls), or that string-width treats as zero-width by their category: whatever
 * holds one, or an astral character, goes to string-width whole.
 */
const MAY_CLUSTER = /[\p{M}\p{Cf}\p{Cc}\u0d4e\u0e33\u0eb3\u1100-\u11ff\ua960-\ua97f\ud7b0-\ud7ff\uff9e\uff9f]/u;
/** For text already stripped of escape sequences: stripping again could eat what the first pass left. */
const STRIPPED = { countAnsiEscapeCodes: true } as const;
const UNKNOWN = 255;
/** string-width of each BMP character alone, filled in on first use. */
const charWidths = new Uint8Array(0x10000).fill(UNKNOWN);

function charWidth(code: number): number {
  let width = charWidths[code]!;
  if (width === UNKNOWN) {
    width = realStringWidth(String.fromCharCode(code), STRIPPED);
    charWidths[code] = width;
  }
  return width;
}

export default function stringWidth(input: string, options?: Options): number {
  if (options !== undefined) return realStringWidth(input, options);
  if (typeof input !== 'string' || input.length === 0) return 0;
  const text = input.includes('\u001b') || input.includes('\u009b') ? stripAnsi(input) : input;
  if (PRINTABLE_ASCII.test(text)) return text.length;
  if (MAY_CLUSTER.test(text)) return realStringWidth(text, STRIPPED);
  let width = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdfff) return realStringWidth(text, STRIPPED);
    width += code >= 0x20 && code < 0x7f ? 1 : charWidth(code);
  }
  return width;
}
