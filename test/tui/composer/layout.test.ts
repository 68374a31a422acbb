import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import stringWidth from 'string-width';
import { type Layout, layoutAround, layoutText, visibleForm } from '../../../src/tui/composer/layout.js';

function rowTexts(text: string, width: number, cursor = 0): string[] {
  return layoutText(text, cursor, width).rows.map((r) => r.spans.map((s) => s.text).join(''));
}

describe('layoutText', () => {
  it('wraps at word boundaries by display cells', () => {
    expect(rowTexts('hello world foo', 9)).toEqual(['hello ', 'world foo']);
    // A space at the wrap point hangs at the row end without taking a cell.
    expect(rowTexts('hello world foo', 11)).toEqual(['hello world', 'foo']);
    expect(layoutText('hello world foo', 12, 11).caret).toEqual({ row: 1, col: 0 });
  });

  it('a line ending in a space hung at the wrap point gets one empty row after it, at the end', () => {
    const layout = layoutText('aaaa ', 5, 4);
    expect(layout.rows.map((r) => [r.start, r.end])).toEqual([
      [0, 5],
      [5, 5],
    ]);
    expect(layout.caret).toEqual({ row: 1, col: 0 });
    expect(layoutText('aaaa \nb', 7, 4).rows.map((r) => [r.start, r.end])).toEqual([
      [0, 5],
      [5, 5],
      [6, 7],
    ]);
  });

  it('hard-wraps a word longer than the width', () => {
    expect(rowTexts('abcdefghij', 4)).toEqual(['abcd', 'efgh', 'ij']);
  });

  it('counts CJK characters as two cells', () => {
    const rows = rowTexts('你好世界', 5);
    expect(rows).toEqual(['你好', '世界']);
    for (const r of rows) expect(stringWidth(r)).toBeLessThanOrEqual(5);
  });

  it('keeps an emoji ZWJ sequence whole and two cells wide', () => {
    const family = '👨‍👩‍👧';
    const layout = layoutText(`ab${family}`, 2 + family.length, 3);
    expect(layout.rows.map((r) => r.spans.map((s) => s.text).join(''))).toEqual(['ab', family]);
    expect(layout.caret).toEqual({ row: 1, col: 2 });
  });

  it('combining marks take no cell of their own', () => {
    const text = 'e\u0301e\u0301e\u0301';
    const layout = layoutText(text, text.length, 10);
    expect(layout.rows[0]!.width).toBe(3);
    expect(layout.caret).toEqual({ row: 0, col: 3 });
  });

  it('places the caret by display width after CJK text', () => {
    expect(layoutText('你好', 1, 20).caret).toEqual({ row: 0, col: 2 });
    expect(layoutText('a\n你好x', 4, 20).caret).toEqual({ row: 1, col: 4 });
  });

  it('puts the caret at the start of the next row at a soft wrap', () => {
    const layout = layoutText('hello world', 6, 8);
    expect(layout.caret).toEqual({ row: 1, col: 0 });
  });

  it('gives a caret after a full row a row of its own', () => {
    const layout = layoutText('abcd', 4, 4);
    expect(layout.rows).toHaveLength(2);
    expect(layout.caret).toEqual({ row: 1, col: 0 });
  });

  it('renders empty lines as rows', () => {
    expect(rowTexts('a\n\nb', 10)).toEqual(['a', '', 'b']);
    expect(layoutText('a\n\nb', 2, 10).caret).toEqual({ row: 1, col: 0 });
  });

  it('shows control characters and escape sequences visibly, never raw', () => {
    const text = 'x\u001b[31my\u0007\u007f';
    const layout = layoutText(text, text.length, 40);
    const shown = layout.rows.map((r) => r.spans.map((s) => s.text).join('')).join('');
    expect(shown).toBe('x^[[31my^G^?');
    expect(shown).not.toMatch(/[\u0000-\u001f\u007f]/);
    expect(layout.rows[0]!.spans.some((s) => s.kind === 'control' && s.text === '^[')).toBe(true);
    expect(layout.caret.col).toBe(stringWidth(shown));
  });

  it('renders C1 controls and tabs visibly', () => {
    expect(visibleForm('\u009b').text).toBe('<9b>');
    expect(visibleForm('\t').text).toBe('    ');
  });

  it('marks element spans with their kind', () => {
    const layout = layoutText('see [Image #1] now', 0, 40, [{ start: 4, end: 14, kind: 'image' }]);
    expect(layout.rows[0]!.spans).toEqual([
      { text: 'see ', kind: 'text' },
      { text: '[Image #1]', kind: 'image' },
      { text: ' now', kind: 'text' },
    ]);
  });

  it('never produces a row wider than the width (except a single too-wide cell)', () => {
    const text = 'The 快速 brown 🦊 jumps over the lazy 犬 again and again';
    for (let w = 2; w < 20; w++) {
      for (const row of layoutText(text, 0, w).rows) expect(row.width).toBeLessThanOrEqual(w);
    }
  });
});

describe('layoutAround: the lines within reach of the caret', () => {
  /** What a window of `rows` rows scrolled to the caret shows (as windowRows does). */
  function windowed(layout: Layout, rows: number): { texts: string[]; caret: { row: number; col: number } } {
    const limit = Math.max(1, rows);
    const start = layout.rows.length <= limit ? 0 : Math.min(Math.max(0, layout.caret.row - limit + 1), layout.rows.length - limit);
    return {
      texts: layout.rows.slice(start, start + limit).map((r) => `${r.start}:${r.spans.map((s) => `${s.kind}=${s.text}`).join('|')}`),
      caret: { row: layout.caret.row - start, col: layout.caret.col },
    };
  }

  it('shows exactly what a window over the whole layout shows, for any text, caret, width and height', () => {
    const line = fc.oneof(
      fc.constant(''),
      fc.string({ maxLength: 30 }),
      fc.stringMatching(/^[a-z ]{0,60}$/),
      fc.constant('漢字 emoji 😀 x'.repeat(3)),
    );
    fc.assert(
      fc.property(
        fc.array(line, { minLength: 1, maxLength: 40 }),
        fc.nat(),
        fc.integer({ min: 1, max: 30 }),
        fc.integer({ min: 1, max: 12 }),
        (lines, at, width, rows) => {
          const text = lines.join('\n');
          const cursor = at % (text.length + 1);
          const elements = text.length > 4 ? [{ start: 1, end: 3, kind: 'paste' as const }] : [];
          expect(windowed(layoutAround(text, cursor, width, rows, elements), rows)).toEqual(
            windowed(layoutText(text, cursor, width, elements), rows),
          );
        },
      ),
      { numRuns: 400 },
    );
  });

  it('lays out a screenful, not the whole draft: a 1 MiB draft of 10,000 lines gives rows for a few lines', () => {
    const text = Array.from({ length: 10_000 }, (_, i) => `line ${i} ${'word '.repeat(20)}`).join('\n');
    const layout = layoutAround(text, Math.floor(text.length / 2), 80, 20);
    expect(layout.rows.length).toBeLessThan(80);
    expect(layout.rows.length).toBeGreaterThanOrEqual(40);
  });
});
