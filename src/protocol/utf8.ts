/**
 * The one place that converts between UTF-8 byte offsets (what TextElement ranges use, as Codex)
 * and JS string indices (UTF-16 code units). Everything else goes through these functions.
 *
 * Lone surrogates encode as U+FFFD (3 bytes), as Buffer.byteLength and TextEncoder do.
 */

/** UTF-8 length in bytes of the code point starting at string index `index`, and its unit count. */
export function unitWidth(text: string, index: number): { bytes: number; units: number } {
  const code = text.charCodeAt(index);
  if (code < 0x80) return { bytes: 1, units: 1 };
  if (code < 0x800) return { bytes: 2, units: 1 };
  if (code >= 0xd800 && code <= 0xdbff && index + 1 < text.length) {
    const next = text.charCodeAt(index + 1);
    if (next >= 0xdc00 && next <= 0xdfff) return { bytes: 4, units: 2 };
  }
  return { bytes: 3, units: 1 };
}

export function byteLength(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/**
 * The string index at UTF-8 byte offset `offset`, or null when the offset is beyond the text or
 * falls inside a character's encoding.
 */
export function byteOffsetToIndex(text: string, offset: number): number | null {
  if (!Number.isInteger(offset) || offset < 0) return null;
  let bytes = 0;
  let index = 0;
  while (bytes < offset && index < text.length) {
    const w = unitWidth(text, index);
    bytes += w.bytes;
    index += w.units;
  }
  return bytes === offset ? index : null;
}

/** Whether string index `index` falls between the two halves of a surrogate pair. */
export function splitsPair(text: string, index: number): boolean {
  const before = text.charCodeAt(index - 1);
  const after = text.charCodeAt(index);
  return before >= 0xd800 && before <= 0xdbff && after >= 0xdc00 && after <= 0xdfff;
}

/**
 * The UTF-8 byte offset of string index `index`. An index inside a surrogate pair is rounded down
 * to the start of that pair; indices past the end clamp to the byte length.
 */
export function indexToByteOffset(text: string, index: number): number {
  let end = Math.max(0, Math.min(index, text.length));
  if (splitsPair(text, end)) end -= 1;
  // Native: a draft of a megabyte is measured on every journal write.
  return Buffer.byteLength(text.slice(0, end), 'utf8');
}

/** True when `offset` is 0, the byte length, or the start of a character's encoding. */
export function isCharBoundary(text: string, offset: number): boolean {
  return byteOffsetToIndex(text, offset) !== null;
}

/** The text between two UTF-8 byte offsets, or null when either is not a char boundary or start > end. */
export function sliceBytes(text: string, start: number, end: number): string | null {
  if (start > end) return null;
  const from = byteOffsetToIndex(text, start);
  if (from === null) return null;
  const to = byteOffsetToIndex(text, end);
  if (to === null) return null;
  return text.slice(from, to);
}
