import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { byteLength, byteOffsetToIndex, indexToByteOffset, isCharBoundary, sliceBytes } from '../../src/protocol/utf8.js';

const FAMILY = '👨‍👩‍👧'; // ZWJ sequence: 3 emoji (4 bytes each) + 2 ZWJ (3 bytes each) = 18 bytes

describe('utf8 offsets', () => {
  it('measures UTF-8 bytes, not UTF-16 units', () => {
    expect(byteLength('abc')).toBe(3);
    expect(byteLength('é')).toBe(2);
    expect(byteLength('中文')).toBe(6);
    expect(byteLength('😀')).toBe(4);
    expect(byteLength(FAMILY)).toBe(18);
    expect(FAMILY.length).toBe(8);
  });

  it('maps byte offsets to string indices in CJK text', () => {
    const text = 'a中b文';
    expect(byteOffsetToIndex(text, 0)).toBe(0);
    expect(byteOffsetToIndex(text, 1)).toBe(1);
    expect(byteOffsetToIndex(text, 4)).toBe(2);
    expect(byteOffsetToIndex(text, 5)).toBe(3);
    expect(byteOffsetToIndex(text, 8)).toBe(4);
    expect(byteOffsetToIndex(text, 2)).toBeNull(); // inside 中
    expect(byteOffsetToIndex(text, 9)).toBeNull(); // past the end
    expect(byteOffsetToIndex(text, -1)).toBeNull();
    expect(byteOffsetToIndex(text, 1.5)).toBeNull();
  });

  it('maps byte offsets through an emoji ZWJ sequence', () => {
    const text = `x${FAMILY}y`;
    // x(1) 👨(4) ZWJ(3) 👩(4) ZWJ(3) 👧(4) y(1)
    expect(byteOffsetToIndex(text, 1)).toBe(1);
    expect(byteOffsetToIndex(text, 5)).toBe(3);
    expect(byteOffsetToIndex(text, 8)).toBe(4);
    expect(byteOffsetToIndex(text, 19)).toBe(9);
    expect(byteOffsetToIndex(text, 3)).toBeNull(); // inside 👨's 4 bytes
    expect(indexToByteOffset(text, 9)).toBe(19);
    expect(indexToByteOffset(text, 3)).toBe(5);
  });

  it('rounds an index inside a surrogate pair down and clamps past the end', () => {
    expect(indexToByteOffset('😀z', 1)).toBe(0);
    expect(indexToByteOffset('😀z', 2)).toBe(4);
    expect(indexToByteOffset('ab', 10)).toBe(2);
    expect(indexToByteOffset('ab', -3)).toBe(0);
  });

  it('encodes a lone surrogate as 3 bytes, like Buffer', () => {
    const lone = 'a\ud800b';
    expect(byteLength(lone)).toBe(5);
    expect(indexToByteOffset(lone, 2)).toBe(4);
    expect(byteOffsetToIndex(lone, 4)).toBe(2);
  });

  it('answers char boundaries and slices by bytes', () => {
    const text = '说😀ok';
    expect(isCharBoundary(text, 0)).toBe(true);
    expect(isCharBoundary(text, 3)).toBe(true);
    expect(isCharBoundary(text, 7)).toBe(true);
    expect(isCharBoundary(text, 9)).toBe(true);
    expect(isCharBoundary(text, 1)).toBe(false);
    expect(isCharBoundary(text, 5)).toBe(false);
    expect(isCharBoundary(text, 10)).toBe(false);
    expect(sliceBytes(text, 3, 7)).toBe('😀');
    expect(sliceBytes(text, 0, 9)).toBe(text);
    expect(sliceBytes(text, 4, 7)).toBeNull();
    expect(sliceBytes(text, 7, 3)).toBeNull();
  });

  it('agrees with Buffer for any string (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.nat(), (text, n) => {
        expect(byteLength(text)).toBe(Buffer.from(text, 'utf8').length);
        const index = n % (text.length + 1);
        const offset = indexToByteOffset(text, index);
        expect(offset).toBe(Buffer.byteLength(text.slice(0, isInsidePair(text, index) ? index - 1 : index)));
        const back = byteOffsetToIndex(text, offset);
        expect(back).not.toBeNull();
        expect(Buffer.byteLength(text.slice(0, back!))).toBe(offset);
      }),
    );
  });
});

/** Whether `index` splits a surrogate pair (indexToByteOffset rounds those down). */
function isInsidePair(text: string, index: number): boolean {
  const prev = text.charCodeAt(index - 1);
  const next = text.charCodeAt(index);
  return index > 0 && prev >= 0xd800 && prev <= 0xdbff && next >= 0xdc00 && next <= 0xdfff;
}

describe('indexToByteOffset against a code-point walk', () => {
  /** The definition: sum the UTF-8 sizes of the whole code points before `index` (a lone surrogate: 3). */
  function walked(text: string, index: number): number {
    let bytes = 0;
    for (const ch of text) {
      if (ch.length > Math.max(0, index)) break;
      index -= ch.length;
      const code = ch.codePointAt(0)!;
      bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
    }
    return bytes;
  }

  it('agrees for any text, lone surrogates included, and any index', () => {
    const unit = fc.oneof(fc.string({ unit: 'binary', maxLength: 4 }), fc.constantFrom('\ud800', '\udc00', '😀', 'é', '漢'));
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 20 }), fc.integer({ min: -2, max: 90 }), (parts, index) => {
        const text = parts.join('');
        expect(indexToByteOffset(text, index)).toBe(walked(text, Math.min(index, text.length)));
      }),
      { numRuns: 500 },
    );
  });
});
