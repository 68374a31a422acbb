/**
 * Answers with code are printed into the scrollback once, so the first one must not be printed
 * before the syntax highlighter it triggered has loaded (it would stay uncoloured for good).
 * This file has its own module instance, so the highlighter starts unloaded here.
 */
import { Chalk } from 'chalk';
import stripAnsi from 'strip-ansi';
import { describe, expect, it } from 'vitest';
import { TranscriptPrinter } from '../../src/tui/components/printer.js';
import { hasLanguageFence, highlighterLoaded, highlighterPending, loadHighlighter } from '../../src/tui/markdown.js';
import { EMPTY_LIVE, type TranscriptCell } from '../../src/tui/store.js';

const color = new Chalk({ level: 1 });
const user = (id: number, text: string): TranscriptCell => ({
  kind: 'user',
  id,
  text,
  textElements: [],
  attachmentLabels: [],
  turnId: null,
});
const agent = (id: number, markdown: string): TranscriptCell => ({ kind: 'agent', id, markdown });
const printed = (p: ReturnType<TranscriptPrinter['update']>): string[] => p.items.flatMap((i) => i.lines);

describe('hasLanguageFence', () => {
  it('finds backtick and tilde fences that name a language, indented up to three spaces', () => {
    expect(hasLanguageFence('x\n\n```js\nconst a = 1;\n```')).toBe(true);
    expect(hasLanguageFence('~~~ python\nx = 1\n~~~')).toBe(true);
    expect(hasLanguageFence('   ```ts\nlet a\n```')).toBe(true);
    expect(hasLanguageFence('```\nplain\n```')).toBe(false);
    expect(hasLanguageFence('    ```js (indented code, not a fence)')).toBe(false);
    expect(hasLanguageFence('inline ```js``` is not a fence')).toBe(false);
  });
});

describe('a finished answer with code while the highlighter loads', () => {
  it('is held back, with everything after it, and printed highlighted once loading settles', async () => {
    const printer = new TranscriptPrinter(color);
    expect(highlighterLoaded()).toBe(false);
    const cells = [
      user(1, 'show code'),
      agent(2, '```\nplain code\n```'),
      agent(3, 'Here:\n\n```js\nconst answer = 42;\n```'),
      user(4, 'thanks'),
    ];
    const first = printer.update(cells, 0, EMPTY_LIVE, 60, 20);
    expect(highlighterPending()).toBe(true);
    // A fence without a language needs no highlighter: printed at once.
    expect(printed(first).map((l) => stripAnsi(l))).toEqual(['', '› show code', '', '•   plain code']);

    await loadHighlighter();
    expect(highlighterPending()).toBe(false);
    const after = printer.update(cells, 0, EMPTY_LIVE, 60, 20);
    const rows = printed(after).map((l) => stripAnsi(l));
    expect(rows.slice(4)).toEqual(['', '• Here:', '', '    const answer = 42;', '', '› thanks']);
    const codeRow = printed(after).find((l) => stripAnsi(l).includes('const answer'))!;
    // `const` coloured on its own, not the whole row in one colour as plain code is.
    expect(codeRow).toMatch(/\x1b\[\d+mconst\x1b\[39m answer/);
  });
});
