/** A frame of a long session looks at the cells added since the last one, not at all of them. */
import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { firstAfter, PRINT_ROWS_PER_FRAME, TranscriptPrinter } from '../../../src/tui/components/printer.js';
import { EMPTY_LIVE, type TranscriptCell } from '../../../src/tui/store.js';

const plain = new Chalk({ level: 0 });
const agent = (id: number): TranscriptCell => ({ kind: 'agent', id, markdown: `answer ${id}` });

/** The cells, with a count of the elements read through the array. */
function counted(cells: TranscriptCell[]): { cells: TranscriptCell[]; reads: () => number } {
  let reads = 0;
  const proxy = new Proxy(cells, {
    get(target, key, receiver) {
      if (typeof key === 'string' && /^\d+$/u.test(key)) reads++;
      return Reflect.get(target, key, receiver);
    },
  });
  return { cells: proxy, reads: () => reads };
}

describe('the printer with 20,000 cells', () => {
  it('finds the first new cell by halving: about log2(n) reads, then one per new cell', () => {
    const cells = Array.from({ length: 20_000 }, (_, i) => agent(i + 1));
    expect(firstAfter(cells, 0)).toBe(0);
    expect(firstAfter(cells, 12_345)).toBe(12_345);
    expect(firstAfter(cells, 20_000)).toBe(20_000);
    expect(firstAfter([], 5)).toBe(0);

    const printer = new TranscriptPrinter(plain);
    let first = printer.update(cells, 0, EMPTY_LIVE, 80, 10);
    // Two rows a cell: PRINT_ROWS_PER_FRAME / 2 cells a frame.
    let frames = 1;
    while (first.more) {
      first = printer.update(cells, 0, EMPTY_LIVE, 80, 10);
      frames += 1;
    }
    expect(first.items).toHaveLength(20_000);
    expect(frames).toBe(Math.ceil(40_000 / PRINT_ROWS_PER_FRAME));
    const more = counted([...cells, agent(20_001)]);
    const frame = printer.update(more.cells, 0, EMPTY_LIVE, 80, 10);
    expect(frame.items.at(-1)!.lines).toEqual(['', '• answer 20001']);
    expect(more.reads()).toBeLessThanOrEqual(Math.ceil(Math.log2(20_001)) + 2);
    const idle = counted([...cells, agent(20_001)]);
    printer.update(idle.cells, 0, EMPTY_LIVE, 80, 10);
    expect(idle.reads()).toBeLessThanOrEqual(Math.ceil(Math.log2(20_001)) + 1);
  });
});
