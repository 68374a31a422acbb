/** Word-level diff of a changed pair of lines, and which removed and added lines pair up. */
import { describe, expect, it } from 'vitest';
import { pairChangedLines, tokens, wordDiff } from '../../../src/tui/diff/word-diff.js';

describe('word diff', () => {
  it('splits a line into words, spaces and single punctuation', () => {
    expect(tokens('const a_1 = f(x);')).toEqual(['const', ' ', 'a_1', ' ', '=', ' ', 'f', '(', 'x', ')', ';']);
    expect(tokens('héllo  wörld')).toEqual(['héllo', '  ', 'wörld']);
  });

  it('marks only the words that changed on each side', () => {
    const diff = wordDiff('const total = price * count;', 'const total = price * amount + tax;');
    expect(diff).not.toBeNull();
    expect(diff!.old).toEqual([
      { text: 'const total = price * ', changed: false },
      { text: 'count', changed: true },
      { text: ';', changed: false },
    ]);
    expect(diff!.new).toEqual([
      { text: 'const total = price * ', changed: false },
      { text: 'amount + tax', changed: true },
      { text: ';', changed: false },
    ]);
  });

  it('keeps every character: the segments put each line back together', () => {
    const oldLine = '  if (a == b) { return x; }';
    const newLine = '  if (a === b) { return y; } // note';
    const diff = wordDiff(oldLine, newLine)!;
    expect(diff.old.map((s) => s.text).join('')).toBe(oldLine);
    expect(diff.new.map((s) => s.text).join('')).toBe(newLine);
  });

  it('gives up on lines that share too little: they are different lines, not an edit', () => {
    expect(wordDiff('alpha beta gamma', 'one two three four')).toBeNull();
  });

  it('gives up on pairs too long to diff word by word', () => {
    const long = Array.from({ length: 600 }, (_, i) => `w${i}`).join(' ');
    expect(wordDiff(long, `${long} x`)).toBeNull();
  });

  it('an identical pair has no changed segment', () => {
    expect(wordDiff('same line', 'same line')).toEqual({
      old: [{ text: 'same line', changed: false }],
      new: [{ text: 'same line', changed: false }],
    });
  });
});

describe('pairing changed lines', () => {
  it('pairs the i-th removed line with the i-th added one of the run that follows', () => {
    const pairs = pairChangedLines([' ', '-', '-', '+', '+', '+', ' ', '+', '-']);
    expect([...pairs.entries()].sort((a, b) => a[0] - b[0])).toEqual([
      [1, 3],
      [2, 4],
      [3, 1],
      [4, 2],
    ]);
  });

  it('leaves removed lines unpaired when context comes between them and the added ones', () => {
    expect(pairChangedLines(['-', ' ', '+']).size).toBe(0);
  });
});
