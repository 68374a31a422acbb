/**
 * TextElement helpers (Codex user_input.rs TextElement): placeholder fallback, range mapping,
 * validation, and the rebasing that text edits (trim, concatenation) need. All offsets are UTF-8 bytes.
 */
import type { ByteRange, TextElement } from './user-input.js';
import { byteLength, indexToByteOffset, sliceBytes } from './utf8.js';

/** The element's shown text: its own placeholder, else the UTF-8 slice of `text`, else null. */
export function placeholder(el: TextElement, text: string): string | null {
  return el.placeholder ?? sliceBytes(text, el.byte_range.start, el.byte_range.end);
}

/** A copy with the range replaced by `fn(range)`; the placeholder is kept as is. */
export function mapRange(el: TextElement, fn: (range: ByteRange) => ByteRange): TextElement {
  const { start, end } = fn({ ...el.byte_range });
  return { ...el, byte_range: { start, end } };
}

/** Every range moved by `delta` bytes (e.g. a prefix of `delta` bytes was added before the text). */
export function shiftTextElements(elements: readonly TextElement[], delta: number): TextElement[] {
  return elements.map((el) => mapRange(el, (r) => ({ start: r.start + delta, end: r.end + delta })));
}

export type TextElementValidation =
  | { ok: true }
  | {
      ok: false;
      /** `text_elements[i] byte range a..b <problem>`. */
      error: string;
      /** The offending element's index and the problem alone (`byte range a..b is reversed`). */
      index: number;
      problem: string;
    };

function rangeText(r: ByteRange): string {
  return `${r.start}..${r.end}`;
}

/**
 * Checks each range lies within the text, is not reversed, starts and ends on UTF-8 character
 * boundaries, and does not overlap another element (touching ends are fine). The error names the
 * element index and its range.
 */
export function validateTextElements(text: string, elements: readonly TextElement[]): TextElementValidation {
  if (elements.length === 0) return { ok: true };
  const fail = (index: number, problem: string): TextElementValidation => ({
    ok: false,
    error: `text_elements[${index}] ${problem}`,
    index,
    problem,
  });
  // Encoded once, so each boundary check is one byte test: the cost is O(n + k log k), not O(k × n).
  const bytes = Buffer.from(text, 'utf8');
  for (const [i, el] of elements.entries()) {
    const problem = rangeProblem(bytes, el);
    if (problem !== null) return fail(i, problem);
  }
  const order = elements.map((el, i) => ({ el, i })).sort((a, b) => a.el.byte_range.start - b.el.byte_range.start);
  for (let k = 1; k < order.length; k++) {
    const prev = order[k - 1]!;
    const cur = order[k]!;
    if (cur.el.byte_range.start < prev.el.byte_range.end) {
      return fail(
        cur.i,
        `byte range ${rangeText(cur.el.byte_range)} overlaps text_elements[${prev.i}] byte range ${rangeText(prev.el.byte_range)}`,
      );
    }
  }
  return { ok: true };
}

/** Why one element's range does not fit the encoded text on its own (overlaps aside), or null. */
function rangeProblem(bytes: Buffer, el: TextElement): string | null {
  const { start, end } = el.byte_range;
  const range = `byte range ${rangeText(el.byte_range)}`;
  if (!Number.isInteger(start) || !Number.isInteger(end) || start < 0 || end < 0) return `${range} is not a pair of non-negative integers`;
  if (start > end) return `${range} is reversed`;
  if (end > bytes.length) return `${range} is outside the text (${bytes.length} bytes)`;
  const onBoundary = (offset: number): boolean => offset === bytes.length || (bytes[offset]! & 0xc0) !== 0x80;
  if (!onBoundary(start) || !onBoundary(end)) return `${range} is not on a UTF-8 character boundary`;
  return null;
}

/**
 * The elements that fit the text, in their order: one outside it, reversed, off a UTF-8 character
 * boundary, or overlapping an earlier-starting kept one is dropped. The app server takes the loose
 * ranges Codex accepts this way (docs/codex-parity.md#different-on-purpose). O(n + k log k), as
 * validateTextElements.
 */
export function fittingTextElements(text: string, elements: readonly TextElement[]): TextElement[] {
  if (elements.length === 0) return [];
  const bytes = Buffer.from(text, 'utf8');
  const fits = elements.map((el) => rangeProblem(bytes, el) === null);
  const order = elements
    .map((el, i) => ({ el, i }))
    .filter(({ i }) => fits[i])
    .sort((a, b) => a.el.byte_range.start - b.el.byte_range.start);
  let end = 0;
  for (const { el, i } of order) {
    if (el.byte_range.start < end) fits[i] = false;
    else end = el.byte_range.end;
  }
  return elements.filter((_, i) => fits[i]);
}

/**
 * Rebases elements onto the sub-text `[start, end)` (byte offsets of the old text): elements wholly
 * outside are dropped, partly covered ones are clipped to the kept range, all are shifted so the
 * kept range starts at 0. An empty element is kept only when it lies strictly inside the range.
 */
export function trimTextElements(elements: readonly TextElement[], start: number, end: number): TextElement[] {
  const out: TextElement[] = [];
  for (const el of elements) {
    const r = el.byte_range;
    const empty = r.start === r.end;
    const outside = empty ? r.start < start || r.start > end : r.end <= start || r.start >= end;
    if (outside) continue;
    out.push(mapRange(el, () => ({ start: Math.max(r.start, start) - start, end: Math.min(r.end, end) - start })));
  }
  return out;
}

// Rust's str::trim uses the Unicode White_Space property; JS trim() differs (it strips U+FEFF, keeps U+0085).
// Every White_Space code point is in the BMP, so testing single UTF-16 units is exact. A loop, not
// /\s+$/, whose backtracking is quadratic on long inner runs of whitespace.
const WHITESPACE = /^\p{White_Space}$/u;

/** Trims Unicode whitespace at both ends, as Rust's str::trim, and rebases the elements onto the result. */
export function trimTextWithElements(text: string, elements: readonly TextElement[]): { text: string; text_elements: TextElement[] } {
  let trimmedStart = 0;
  while (trimmedStart < text.length && WHITESPACE.test(text[trimmedStart]!)) trimmedStart++;
  let trimmedEnd = text.length;
  while (trimmedEnd > trimmedStart && WHITESPACE.test(text[trimmedEnd - 1]!)) trimmedEnd--;
  const trimmed = text.slice(trimmedStart, trimmedEnd);
  const startByte = indexToByteOffset(text, trimmedStart);
  const endByte = startByte + byteLength(trimmed);
  return { text: trimmed, text_elements: trimTextElements(elements, startByte, endByte) };
}

/**
 * Joins texts with their elements into one text, shifting each part's ranges by the UTF-8 byte
 * length of everything before it (as UserMessageItem.textElements does).
 */
export function concatTextWithElements(parts: ReadonlyArray<{ text: string; text_elements: readonly TextElement[] }>): {
  text: string;
  text_elements: TextElement[];
} {
  let offset = 0;
  const elements: TextElement[] = [];
  for (const part of parts) {
    elements.push(...shiftTextElements(part.text_elements, offset));
    offset += byteLength(part.text);
  }
  return { text: parts.map((p) => p.text).join(''), text_elements: elements };
}
