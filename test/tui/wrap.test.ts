import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import wrapAnsi from 'wrap-ansi';
import { wrapText } from '../../src/tui/wrap.js';

const pieces = [
  'a',
  'word',
  'longerwordthanmost',
  'x'.repeat(45),
  ' ',
  ' ',
  '  ',
  '中文',
  '中文字符很长很长很长的词',
  '👨‍👩‍👧',
  'e\u0301',
  '\u0301',
  '🇺🇸',
  '.',
  '-',
  'é',
];

describe('wrapText', () => {
  it('wraps exactly as wrap-ansi (hard, trim) for any text without escapes', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 30 }), fc.integer({ min: 1, max: 40 }), (parts, columns) => {
        const text = parts.join('');
        // wrap-ansi measures with its own older string-width, which counts a flag followed by a
        // combining mark one cell wider; Tiller measures everything with one string-width.
        fc.pre(!/\p{Regional_Indicator}\u0301/u.test(text));
        expect(wrapText(text, columns)).toBe(wrapAnsi(text, columns, { hard: true, trim: true }));
      }),
      { numRuns: 3000 },
    );
  });

  it('hands styled text and other whitespace to wrap-ansi', () => {
    const styled = '\x1b[1mbold words\x1b[22m and more words';
    expect(wrapText(styled, 8)).toBe(wrapAnsi(styled, 8, { hard: true, trim: true }));
    expect(wrapText('tab\there and\u00a0nbsp', 6)).toBe(wrapAnsi('tab\there and\u00a0nbsp', 6, { hard: true, trim: true }));
  });

  it('is linear in the text: a 1 MB line of words wraps with one measure per word', () => {
    const line = 'word '.repeat(200_000);
    const rows = wrapText(line, 80).split('\n');
    expect(rows.length).toBe(Math.ceil(200_000 / 16));
    expect(rows.every((r) => r.length <= 80)).toBe(true);
  });

  it('breaks a long one-cell word by rows, as wrap-ansi does, from any place in a row', () => {
    const word = 'x'.repeat(3_000);
    for (const before of ['', 'a ', 'abc ', '中文 ', 'x'.repeat(39)]) {
      for (const columns of [1, 7, 40, 116]) {
        const text = `${before}${word} tail`;
        expect(wrapText(text, columns)).toBe(wrapAnsi(text, columns, { hard: true, trim: true }));
      }
    }
  });
});
