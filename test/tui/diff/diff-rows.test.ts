/**
 * The patch cell's diff rows: syntax colour, changed words marked inside a changed pair, collapse
 * past a screenful (Ctrl+T draws it whole), binary and huge files summarised, nothing raw drawn.
 */
import { Chalk } from 'chalk';
import stripAnsi from 'strip-ansi';
import { beforeAll, describe, expect, it } from 'vitest';
import { diffRows, DIFF_RENDER_LIMIT_CHARS, languageOf } from '../../../src/tui/diff/diff-rows.js';
import { cellLines } from '../../../src/tui/components/lines.js';
import { PATCH_CELL_CHROME_ROWS, PATCH_CELL_MAX_ROWS, patchCellRows, patchLines } from '../../../src/tui/components/patch-lines.js';
import { loadHighlighter } from '../../../src/tui/markdown.js';
import type { PatchCellFile, TranscriptCell } from '../../../src/tui/store-types.js';

const c = new Chalk({ level: 1 });
const INVERSE = '\u001b[7m';

function file(diff: string, path = 'src/a.ts', kind: PatchCellFile['kind'] = 'update'): PatchCellFile {
  return { path, kind, movePath: null, diff, added: 1, removed: 1 };
}

function cell(files: PatchCellFile[]): Extract<TranscriptCell, { kind: 'patch' }> {
  return { kind: 'patch', id: 1, status: 'completed', files };
}

beforeAll(async () => {
  await loadHighlighter();
});

describe('diff rows', () => {
  it('colours the code by its language, taken from the path', () => {
    expect(languageOf('src/a.ts')).toBe('ts');
    expect(languageOf('Makefile')).toBe('makefile');
    const { rows } = diffRows(file('@@ -1,1 +1,1 @@\n const x = 1;\n'), 80, c);
    // `const` is a keyword: styled although the line is only context.
    expect(rows[0]).toMatch(/\u001b\[[0-9;]+mconst/);
    expect(stripAnsi(rows[0]!)).toBe('    1  const x = 1;');
  });

  it('marks the changed words of a changed pair, and only those', () => {
    const { rows } = diffRows(file('@@ -1,1 +1,1 @@\n-let total = price * count;\n+let total = price * amount;\n'), 80, c);
    expect(stripAnsi(rows[0]!)).toBe('    1 -let total = price * count;');
    expect(stripAnsi(rows[1]!)).toBe('    1 +let total = price * amount;');
    const marked = (row: string): string[] => [...row.matchAll(/\u001b\[7m(.*?)\u001b\[27m/g)].map((m) => stripAnsi(m[1]!));
    expect(marked(rows[0]!)).toEqual(['count']);
    expect(marked(rows[1]!)).toEqual(['amount']);
  });

  it('does not mark words in a line that has no partner', () => {
    const { rows } = diffRows(file('@@ -1,2 +1,3 @@\n keep\n+brand new line\n tail\n', 'notes'), 80, c);
    expect(rows.some((row) => row.includes(INVERSE))).toBe(false);
  });

  it('wraps a wide line under its gutter and draws control characters visibly', () => {
    const { rows } = diffRows(file(`hello\u001b[2J ${'y'.repeat(100)}\n`, 'x.txt', 'add'), 40, c);
    expect(rows.join('')).not.toContain('\u001b[2J');
    expect(rows.every((row) => stripAnsi(row).length <= 40)).toBe(true);
    expect(stripAnsi(rows.join('')).replace(/[^y]/g, '')).toBe('y'.repeat(100));
  });

  it('shows a binary file as such', () => {
    const { rows } = diffRows(file('PNG\u0000\u0001\u0002\n', 'logo.png', 'add'), 80, c);
    expect(rows.map((row) => stripAnsi(row))).toEqual(['    binary file, not shown']);
  });

  it('summarises a 100 MB file instead of drawing it', () => {
    const line = `${'z'.repeat(1023)}\n`;
    const huge = line.repeat((100 * 1024 * 1024) / 1024);
    expect(huge.length).toBeGreaterThan(DIFF_RENDER_LIMIT_CHARS);
    const started = performance.now();
    const { rows } = diffRows(file(huge, 'big.log', 'add'), 80, c);
    expect(rows.map((row) => stripAnsi(row))).toEqual(['    100.0 MB of changes, too big to show']);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});

describe('a long patch in the transcript', () => {
  const long = file(`@@ -1,0 +1,500 @@\n${Array.from({ length: 500 }, (_, i) => `+line ${i}`).join('\n')}\n`, 'big.txt');

  it('stops after a screenful with the hint of the key that shows it all', () => {
    const rows = patchLines(cell([long]), 80, c).map((row) => stripAnsi(row));
    expect(rows.length).toBeLessThanOrEqual(PATCH_CELL_MAX_ROWS + 2);
    expect(rows.at(-1)).toBe(`    … ${500 - PATCH_CELL_MAX_ROWS} more lines (Ctrl+T shows all)`);
  });

  it("collapses past the terminal's height, not a fixed count", () => {
    for (const screenRows of [24, 60]) {
      const rows = cellLines(cell([long]), 80, c, false, screenRows).map((row) => stripAnsi(row));
      const shown = screenRows - PATCH_CELL_CHROME_ROWS;
      expect(rows.filter((row) => /^ +\d+ \+line/.test(row))).toHaveLength(shown);
      expect(rows.at(-1)).toBe(`    … ${500 - shown} more lines (Ctrl+T shows all)`);
    }
    expect(patchCellRows(0)).toBe(PATCH_CELL_MAX_ROWS);
  });

  it('is whole in the Ctrl+T pager', () => {
    const rows = cellLines(cell([long]), 80, c, true).map((row) => stripAnsi(row));
    expect(rows).toContain('    500 +line 499');
    expect(rows.some((row) => row.includes('more lines'))).toBe(false);
  });

  it('counts the files the screenful left out in the hint', () => {
    const rows = patchLines(cell([long, file('@@ -1,1 +1,1 @@\n-a\n+b\n', 'two.txt')]), 80, c).map((row) => stripAnsi(row));
    expect(rows.at(-1)).toBe(`    … ${500 - PATCH_CELL_MAX_ROWS + 2} more lines (Ctrl+T shows all)`);
    expect(rows).not.toContain('  Edited two.txt (+1 -1)');
  });
});
