import fc from 'fast-check';
import realStringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import stringWidth from '../../src/tui/string-width.js';

// Characters of every kind string-width treats apart: wide, ambiguous, emoji, marks and joiners,
// format and control characters, Hangul jamo and syllables, Thai and halfwidth kana, astral ones.
const TRICKY = [
  'a',
  ' ',
  '~',
  '│',
  '•',
  '⋯',
  '›',
  '↳',
  '■',
  '⚠',
  '─',
  '╭',
  '…',
  'é',
  'ß',
  'Ω',
  'ж',
  'א',
  'ي',
  '中',
  '文',
  '한',
  'あ',
  'ア',
  'ｱ',
  'ﾞ',
  'ﾟ',
  'Ａ',
  '⌚',
  '⭐',
  '✔',
  '❤',
  '☺',
  '\u2028',
  '\u0301',
  '\u0308',
  '\u20e3',
  '\ufe0f',
  '\ufe0e',
  '\u200d',
  '\u200c',
  '\u200b',
  '\u00ad',
  '\u2060',
  '\t',
  '\u0007',
  '\u007f',
  '\u0085',
  '\u1100',
  '\u1161',
  '\u11a8',
  '\uac00',
  '\ua960',
  '\ud7b0',
  '\u0e01',
  '\u0e33',
  '\u0eb3',
  '\u0d4e',
  '\u0915',
  '\u094d',
  '\u0937',
  '\u0600',
  '\u06dd',
  '😀',
  '👍',
  '🏽',
  '🇺',
  '🇸',
  '👩',
  '💻',
  '🔥',
  '𠀋',
  '\u{e0067}',
  '1',
  '#',
  '*',
  '\u001b[31m',
  '\u001b[0m',
  '\u001b[1;2m',
  '\u009b',
];

describe('stringWidth', () => {
  it('is string-width on strings of every kind of character', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...TRICKY), { maxLength: 24 }), (chars) => {
        const text = chars.join('');
        expect(stringWidth(text)).toBe(realStringWidth(text));
      }),
      { numRuns: 20000 },
    );
  });

  it('is string-width on any BMP character, alone and between box drawing', () => {
    for (let code = 0; code < 0x10000; code++) {
      const ch = String.fromCharCode(code);
      expect(stringWidth(ch)).toBe(realStringWidth(ch));
      expect(stringWidth(`│${ch}•`)).toBe(realStringWidth(`│${ch}•`));
    }
  });

  it('is string-width on arbitrary text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 40 }), fc.string({ unit: 'binary', maxLength: 40 }), (a, b) => {
        expect(stringWidth(a)).toBe(realStringWidth(a));
        expect(stringWidth(b)).toBe(realStringWidth(b));
      }),
      { numRuns: 3000 },
    );
  });

  it('passes options through', () => {
    expect(stringWidth('±', { ambiguousIsNarrow: false })).toBe(2);
    expect(stringWidth('\u001b[31mab', { countAnsiEscapeCodes: true })).toBe(
      realStringWidth('\u001b[31mab', { countAnsiEscapeCodes: true }),
    );
  });
});
