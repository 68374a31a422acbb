import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { parseV2UserInputs } from '../../src/protocol/schemas.js';
import {
  concatTextWithElements,
  fittingTextElements,
  mapRange,
  placeholder,
  shiftTextElements,
  trimTextElements,
  trimTextWithElements,
  validateTextElements,
} from '../../src/protocol/text-element.js';
import type { TextElement } from '../../src/protocol/user-input.js';

const el = (start: number, end: number, ph?: string | null): TextElement => ({
  byte_range: { start, end },
  ...(ph !== undefined ? { placeholder: ph } : {}),
});

describe('placeholder', () => {
  it('prefers the explicit placeholder', () => {
    expect(placeholder(el(0, 3, '[Image #1]'), 'abcdef')).toBe('[Image #1]');
  });

  it('falls back to the UTF-8 byte slice of the text', () => {
    const text = 'see [Image #1] now';
    expect(placeholder(el(4, 14), text)).toBe('[Image #1]');
    expect(placeholder(el(3, 9, null), '看看图片')).toBe('看图');
  });

  it('gives null when the range does not slice the text on char boundaries', () => {
    expect(placeholder(el(1, 3), '中')).toBeNull();
    expect(placeholder(el(0, 10), 'short')).toBeNull();
  });
});

describe('mapRange and shifting', () => {
  it('maps the range and keeps the placeholder, without touching the original', () => {
    const original = el(2, 5, 'x');
    const moved = mapRange(original, (r) => ({ start: r.start + 10, end: r.end + 10 }));
    expect(moved).toEqual(el(12, 15, 'x'));
    expect(original).toEqual(el(2, 5, 'x'));
  });

  it('shifts every element by a byte delta', () => {
    expect(shiftTextElements([el(0, 1), el(3, 6, 'p')], 4)).toEqual([el(4, 5), el(7, 10, 'p')]);
  });
});

describe('validateTextElements', () => {
  it('accepts ranges on boundaries, touching ranges and empty ranges', () => {
    const text = '中文😀';
    expect(validateTextElements(text, [el(0, 3), el(3, 6), el(6, 10), el(10, 10)])).toEqual({ ok: true });
    expect(validateTextElements('', [])).toEqual({ ok: true });
  });

  it('rejects a range past the end, naming it', () => {
    const result = validateTextElements('abc', [el(0, 1), el(1, 4)]);
    expect(result).toMatchObject({ ok: false, index: 1 });
    expect(!result.ok && result.error).toBe('text_elements[1] byte range 1..4 is outside the text (3 bytes)');
  });

  it('rejects a reversed range', () => {
    const result = validateTextElements('abcdef', [el(4, 2)]);
    expect(!result.ok && result.error).toBe('text_elements[0] byte range 4..2 is reversed');
  });

  it('rejects a range splitting a multi-byte character (CJK and emoji)', () => {
    const cjk = validateTextElements('中文', [el(1, 3)]);
    expect(!cjk.ok && cjk.error).toBe('text_elements[0] byte range 1..3 is not on a UTF-8 character boundary');
    const emoji = validateTextElements('👨‍👩‍👧', [el(0, 6)]);
    expect(!emoji.ok && emoji.error).toContain('0..6 is not on a UTF-8 character boundary');
  });

  it('rejects negative or fractional offsets', () => {
    expect(validateTextElements('abc', [el(-1, 2)]).ok).toBe(false);
    expect(validateTextElements('abc', [el(0.5, 2)]).ok).toBe(false);
  });

  it('rejects overlapping ranges, naming both', () => {
    const result = validateTextElements('abcdefgh', [el(4, 8), el(0, 5)]);
    expect(!result.ok && result.error).toBe('text_elements[0] byte range 4..8 overlaps text_elements[1] byte range 0..5');
  });

  it('checks boundaries by the encoded bytes: every offset of a mixed text agrees with a char-by-char walk', () => {
    const text = 'a中😀é\u{10FFFF}b';
    const boundaries = new Set<number>([0]);
    let offset = 0;
    for (const ch of text) boundaries.add((offset += Buffer.byteLength(ch)));
    for (let start = 0; start <= offset; start++) {
      expect(validateTextElements(text, [el(start, start)]).ok).toBe(boundaries.has(start));
    }
  });

  it('encodes the text once however many ranges (checked and loose): O(n + k log k), not O(k × n)', () => {
    const text = 'x'.repeat(1 << 20);
    const elements = Array.from({ length: 5000 }, () => el(1 << 20, 1 << 20));
    const encode = vi.spyOn(Buffer, 'from');
    try {
      expect(validateTextElements(text, elements)).toEqual({ ok: true });
      expect(encode).toHaveBeenCalledTimes(1);
      encode.mockClear();
      expect(fittingTextElements(text, [...elements, el(3, 1)])).toHaveLength(5000);
      expect(encode).toHaveBeenCalledTimes(1);
      encode.mockClear();
      const parsed = parseV2UserInputs([
        { type: 'text', text, text_elements: elements.map((e) => ({ byteRange: e.byte_range, placeholder: null })) },
      ]);
      expect(parsed.ok && parsed.value[0]).toMatchObject({ type: 'text' });
      expect(encode.mock.calls.length).toBeLessThanOrEqual(2);
    } finally {
      encode.mockRestore();
    }
  });

  it('5,000 empty ranges at the end of a 1 MiB text are valid (one pass over the text, not one per range)', () => {
    const text = 'x'.repeat(1 << 20);
    const elements = Array.from({ length: 5000 }, () => el(1 << 20, 1 << 20));
    expect(validateTextElements(text, elements)).toEqual({ ok: true });
    elements.push(el((1 << 20) - 2, (1 << 20) + 1));
    const bad = validateTextElements(text, elements);
    expect(!bad.ok && bad.index).toBe(5000);
  });
});

describe('trimming and concatenation', () => {
  it('drops elements outside the kept range, clips partial ones and rebases', () => {
    // kept range 2..8 of the old text
    const out = trimTextElements([el(0, 2, 'a'), el(1, 4, 'b'), el(3, 5, 'c'), el(7, 10, 'd'), el(8, 9, 'e')], 2, 8);
    expect(out).toEqual([el(0, 2, 'b'), el(1, 3, 'c'), el(5, 6, 'd')]);
  });

  it('keeps an empty element inside or at the edges, drops one outside', () => {
    expect(trimTextElements([el(2, 2), el(8, 8), el(1, 1), el(9, 9)], 2, 8)).toEqual([el(0, 0), el(6, 6)]);
  });

  it('trims Unicode whitespace like Rust and rebases element bytes', () => {
    const text = '\u3000 see [Image #1] 中 \n';
    const start = Buffer.byteLength('\u3000 see ');
    const { text: trimmed, text_elements } = trimTextWithElements(text, [el(start, start + 10)]);
    expect(trimmed).toBe('see [Image #1] 中');
    expect(text_elements).toEqual([el(4, 14)]);
    expect(placeholder(text_elements[0]!, trimmed)).toBe('[Image #1]');
  });

  it('keeps U+FEFF (not White_Space) and strips U+0085 (White_Space), unlike String.trim', () => {
    expect(trimTextWithElements('\ufeffa\u0085', []).text).toBe('\ufeffa');
  });

  it('concatenates texts, shifting elements by the bytes before them', () => {
    const joined = concatTextWithElements([
      { text: '中文 ', text_elements: [el(0, 3)] },
      { text: '😀 [x]', text_elements: [el(5, 8, '[x]')] },
    ]);
    expect(joined.text).toBe('中文 😀 [x]');
    expect(joined.text_elements).toEqual([el(0, 3), el(12, 15, '[x]')]);
    expect(placeholder(el(12, 15), joined.text)).toBe('[x]');
  });
});

describe('properties', () => {
  const word = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 4 }).filter((w) => !/^\p{White_Space}|\p{White_Space}$/u.test(w));
  const pad = fc.constantFrom('', ' ', '\n\t', '\u3000 ');

  it('trimming keeps every element that lay inside the kept text pointing at the same characters', () => {
    fc.assert(
      fc.property(pad, fc.array(fc.tuple(word, fc.boolean()), { minLength: 1, maxLength: 6 }), pad, (lead, parts, tail) => {
        // Build "lead w1 w2 … tail" with an element over each word flagged true.
        let text = lead;
        const elements: TextElement[] = [];
        const expected: string[] = [];
        for (const [i, [w, mark]] of parts.entries()) {
          if (i > 0) text += ' ';
          const start = Buffer.byteLength(text);
          text += w;
          if (mark) {
            elements.push(el(start, Buffer.byteLength(text)));
            expected.push(w);
          }
        }
        text += tail;
        expect(validateTextElements(text, elements)).toEqual({ ok: true });
        const trimmed = trimTextWithElements(text, elements);
        expect(validateTextElements(trimmed.text, trimmed.text_elements)).toEqual({ ok: true });
        expect(trimmed.text_elements.map((e) => placeholder(e, trimmed.text))).toEqual(expected);
      }),
    );
  });
});
