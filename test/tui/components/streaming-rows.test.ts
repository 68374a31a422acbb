import { Chalk, type ChalkInstance } from 'chalk';
import { stripVTControlCharacters } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { agentLines, FENCE_LINE, markdownBlocks } from '../../../src/tui/components/lines.js';
import { StreamingRows } from '../../../src/tui/components/streaming-rows.js';

const plain = new Chalk({ level: 0 });
const color = new Chalk({ level: 1 });

/** The whole-text answer (what the printer computed every frame before): rows, and how many are final. */
function oracle(text: string, width: number, c: ChalkInstance): { rows: string[]; stable: number; closed: number } {
  const render = (markdown: string): string[] => ['', ...agentLines(markdown, width, c, true)];
  const same = (a: readonly string[], b: readonly string[]): number => {
    let n = 0;
    while (n < a.length && n < b.length && stripVTControlCharacters(a[n]!) === stripVTControlCharacters(b[n]!)) n++;
    return n;
  };
  const rows = render(text);
  const blocks = markdownBlocks(text);
  const closed = blocks.length > 1 ? same(rows, render(blocks.slice(0, -1).join('\n\n'))) : 0;
  if (!FENCE_LINE.test(blocks.at(-1) ?? '')) return { rows, stable: closed, closed };
  const complete = text.slice(0, text.lastIndexOf('\n') + 1);
  const settled = complete.slice(0, complete.lastIndexOf('\n', complete.length - 2) + 1);
  return { rows, stable: Math.max(closed, same(rows, render(settled))), closed };
}

const pieces = [
  'word ',
  'two words ',
  '\n',
  '\n\n',
  '- item ',
  '  indented ',
  '```\n',
  '```ts\n',
  'code();\n',
  '| a | b |\n| - | - |\n',
  '# head\n',
  '1. one\n',
  '中文 ',
  '**bold** ',
];

describe('StreamingRows', () => {
  it('gives the rows of a whole-text render at every prefix of any stream; rows it calls final never change', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...pieces), { minLength: 1, maxLength: 40 }),
        fc.integer({ min: 10, max: 90 }),
        (parts, width) => {
          const streaming = new StreamingRows(plain);
          let text = '';
          const frames: Array<{ rows: string[]; stable: number }> = [];
          for (const part of parts) {
            text += part;
            const frame = streaming.update(text, width);
            const expected = oracle(text, width, plain);
            expect(frame.rows).toEqual(expected.rows);
            // Every closed block's rows are final, as the whole-text check found (the old check also
            // trusted the lines after a closed fence, which a later table row could change).
            expect(frame.stable).toBeGreaterThanOrEqual(expected.closed);
            frames.push(frame);
          }
          const last = oracle(text, width, plain).rows;
          for (const frame of frames) expect(frame.rows.slice(0, frame.stable)).toEqual(last.slice(0, frame.stable));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('a table after a closed code fence is not final while it may still grow a column', () => {
    const streaming = new StreamingRows(plain);
    let text = '';
    const frames: Array<{ rows: string[]; stable: number }> = [];
    for (const part of ['```\n', '```\n', '| a | b |\n| - | - |\n', '| a | b |\n| - | - |\n', 'word '])
      frames.push(streaming.update((text += part), 10));
    const last = frames.at(-1)!.rows;
    for (const frame of frames) expect(frame.rows.slice(0, frame.stable)).toEqual(last.slice(0, frame.stable));
  });

  it('counts every closed block final, as the whole-text check does', () => {
    const streaming = new StreamingRows(color);
    const text = 'one\n\ntwo\n\nthree';
    const { rows, stable } = oracle(text, 40, color);
    expect(streaming.update(text, 40)).toEqual({ rows, stable });
  });

  it('lays each closed block out once: a frame costs the open block, not the answer so far', () => {
    const streaming = new StreamingRows(plain);
    let text = '';
    for (let i = 0; i < 300; i++) {
      text += `paragraph ${i} words\n\n`;
      streaming.update(text, 60);
    }
    const before = (streaming as unknown as { closed: string[] }).closed;
    streaming.update(`${text}more`, 60);
    // The same array, only appended to: earlier rows were not laid out again.
    expect((streaming as unknown as { closed: string[] }).closed).toBe(before);
    expect(before.filter((r) => r.includes('paragraph')).length).toBe(300);
  });

  it('starts over at a new width or when the text is not a continuation', () => {
    const streaming = new StreamingRows(plain);
    streaming.update('aaa bbb ccc\n\nddd', 40);
    expect(streaming.update('aaa bbb ccc\n\nddd', 8).rows).toEqual(oracle('aaa bbb ccc\n\nddd', 8, plain).rows);
    expect(streaming.update('other\n\ntext', 8).rows).toEqual(oracle('other\n\ntext', 8, plain).rows);
  });
});
