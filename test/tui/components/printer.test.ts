import { Chalk } from 'chalk';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cellLines } from '../../../src/tui/components/lines.js';
import { PRINT_ROWS_PER_FRAME, TranscriptPrinter } from '../../../src/tui/components/printer.js';
import { EMPTY_LIVE, type LiveState, type TranscriptCell } from '../../../src/tui/store.js';

const plain = new Chalk({ level: 0 });
const user = (id: number, text: string): TranscriptCell => ({
  kind: 'user',
  id,
  text,
  textElements: [],
  attachmentLabels: [],
  turnId: null,
});
const agent = (id: number, markdown: string): TranscriptCell => ({ kind: 'agent', id, markdown });
const live = (agentText: string, agentItemId = 'm1'): LiveState => ({ ...EMPTY_LIVE, agentText, agentItemId });
const paragraphs = (n: number): string => Array.from({ length: n }, (_, i) => `p${i + 1}`).join('\n\n');
const printed = (p: ReturnType<TranscriptPrinter['update']>): string[] => p.items.flatMap((i) => i.lines);

describe('TranscriptPrinter', () => {
  it('prints each finished cell once, in order', () => {
    const printer = new TranscriptPrinter(plain);
    const cells = [user(1, 'hi')];
    const first = printer.update(cells, 0, EMPTY_LIVE, 40, 10);
    expect(printed(first)).toEqual(['', '› hi']);
    const again = printer.update(cells, 0, EMPTY_LIVE, 40, 10);
    expect(again.items).toBe(first.items);
    const next = printer.update([...cells, agent(2, 'hello')], 0, EMPTY_LIVE, 40, 10);
    expect(printed(next)).toEqual(['', '› hi', '', '• hello']);
  });

  it('prints a long transcript over frames: in order, each once, about PRINT_ROWS_PER_FRAME rows a frame, a streaming answer held back meanwhile', () => {
    const printer = new TranscriptPrinter(plain);
    const cells = Array.from({ length: 1_000 }, (_, i) => (i % 2 === 0 ? user(i + 1, `q${i + 1}`) : agent(i + 1, `a${i + 1}`)));
    const answer = live(paragraphs(30));
    let frame = printer.update(cells, 0, answer, 40, 4);
    expect(printed(frame).length).toBeLessThanOrEqual(PRINT_ROWS_PER_FRAME + 2);
    expect(frame.more).toBe(true);
    // The answer's last rows that fit the live area, none printed yet.
    expect(frame.liveAgentRows).toEqual(['', '  p29', '', '  p30']);
    let frames = 1;
    while (frame.more) {
      frame = printer.update(cells, 0, answer, 40, 4);
      frames += 1;
      if (frame.more) expect(printed(frame).join('\n')).not.toContain('p1');
    }
    expect(frames).toBe(Math.ceil(2_000 / PRINT_ROWS_PER_FRAME));
    const rows = printed(frame);
    expect(rows.slice(0, 2_000)).toEqual(cells.flatMap((c) => ['', c.kind === 'user' ? `› q${c.id}` : `• a${c.id}`]));
    // Then the answer's rows go up as they would have.
    expect(rows.slice(2_000, 2_002)).toEqual(['', '• p1']);
  });

  it('keeps a short streaming answer in the live area', () => {
    const printer = new TranscriptPrinter(plain);
    const frame = printer.update([], 0, live('one\n\ntwo'), 40, 10);
    expect(frame.items).toEqual([]);
    expect(frame.liveAgentRows).toEqual(['', '• one', '', '  two']);
  });

  it('prints the stable rows of a tall streaming answer early and skips those rows when the answer finishes', () => {
    const printer = new TranscriptPrinter(plain);
    let frame = printer.update([], 0, live(paragraphs(5)), 40, 4);
    expect(printed(frame)).toEqual(['', '• p1', '', '  p2', '', '  p3', '', '  p4']);
    expect(frame.liveAgentRows).toEqual(['', '  p5']);
    frame = printer.update([], 0, live(paragraphs(6)), 40, 4);
    expect(printed(frame)).toEqual(['', '• p1', '', '  p2', '', '  p3', '', '  p4', '', '  p5']);
    expect(frame.liveAgentRows).toEqual(['', '  p6']);
    const final = printer.update([agent(1, `${paragraphs(6)}`)], 0, EMPTY_LIVE, 40, 4);
    expect(final.liveAgentRows).toEqual([]);
    expect(printed(final)).toEqual(['', '• p1', '', '  p2', '', '  p3', '', '  p4', '', '  p5', '', '  p6']);
  });

  it('never flushes only blank rows (Ink would drop them)', () => {
    const printer = new TranscriptPrinter(plain);
    const frame = printer.update([], 0, live('a\n\nb'), 40, 3);
    expect(printed(frame)).toEqual(['', '• a']);
    expect(frame.liveAgentRows).toEqual(['', '  b']);
  });

  it('prints an unrelated later answer in full', () => {
    const printer = new TranscriptPrinter(plain);
    printer.update([], 0, live(paragraphs(5)), 40, 4);
    // The stream ended without its cell (interrupted); the next answer is a different text.
    printer.update([], 0, EMPTY_LIVE, 40, 4);
    const frame = printer.update([agent(1, 'other')], 0, EMPTY_LIVE, 40, 4);
    expect(printed(frame).slice(-2)).toEqual(['', '• other']);
  });

  it('starts over after /clear (a new generation)', () => {
    const printer = new TranscriptPrinter(plain);
    printer.update([user(1, 'old')], 0, EMPTY_LIVE, 40, 10);
    const before = printer.update([user(1, 'old')], 0, EMPTY_LIVE, 40, 10).epoch;
    const frame = printer.update([user(2, 'new')], 1, EMPTY_LIVE, 40, 10);
    expect(frame.epoch).toBe(before + 1);
    expect(printed(frame)).toEqual(['', '› new']);
  });

  it("a new width prints the transcript again once, laid out at that width; Ctrl+L's cleared cells stay off", () => {
    const printer = new TranscriptPrinter(plain);
    const cells = [user(1, 'one two three four five six')];
    const wide = printer.update(cells, 0, EMPTY_LIVE, 40, 10, 20);
    expect(printed(wide)).toEqual(['', '› one two three four five six']);
    const narrow = printer.update(cells, 0, EMPTY_LIVE, 14, 10, 20);
    expect(narrow.epoch).toBe(wide.epoch + 1);
    expect(printed(narrow)).toEqual(['', '› one two', '  three four', '  five six']);
    const shorter = printer.update(cells, 0, EMPTY_LIVE, 14, 10, 12);
    expect(shorter.epoch).toBe(narrow.epoch + 1);
    expect(printed(shorter)).toEqual(printed(narrow));
    // Ctrl+L: a new generation with the cells kept; a later resize must not bring them back.
    const cleared = printer.update(cells, 1, EMPTY_LIVE, 14, 10, 12);
    expect(printed(cleared)).toEqual([]);
    const later = printer.update([...cells, agent(2, 'after')], 1, EMPTY_LIVE, 30, 10, 12);
    expect(printed(later)).toEqual(['', '• after']);
  });

  it("re-flushes a streaming answer's top rows at a new width (once), not the old rows again", () => {
    const printer = new TranscriptPrinter(plain);
    printer.update([], 0, live(paragraphs(8)), 40, 4, 20);
    const resized = printer.update([], 0, live(paragraphs(8)), 30, 4, 20);
    const again = printer.update([], 0, live(paragraphs(9)), 30, 4, 20);
    const rows = printed(again);
    for (let i = 1; i <= 5; i++) expect(rows.filter((r) => r.trim().endsWith(`p${i}`))).toHaveLength(1);
    expect(printed(resized).length).toBeLessThanOrEqual(rows.length);
  });

  it('never prints a line still arriving: `1.` printed early would lose `1. text` (a tiny live area)', () => {
    const printer = new TranscriptPrinter(plain);
    const answer = 'You sent a message with 1 content item:\n\n1. text, 14 chars: first\n\nI am the offline model.';
    for (let end = 1; end <= answer.length; end++) printer.update([], 0, live(answer.slice(0, end)), 40, 1);
    const final = printer.update([agent(1, answer)], 0, EMPTY_LIVE, 40, 1);
    expect(printed(final)).toEqual(cellLines(agent(1, answer), 40, plain));
  });

  it('keeps the live area within its room even when the rows above it cannot be printed yet', () => {
    const printer = new TranscriptPrinter(plain);
    const frame = printer.update([], 0, live('one very long line that wraps over several rows of a narrow window'), 20, 2);
    expect(frame.items).toEqual([]);
    expect(frame.liveAgentRows).toHaveLength(2);
  });

  it('prints every row of any streamed answer exactly once, whatever the deltas and the room', () => {
    const line = fc.constantFrom(
      '',
      'plain words in a paragraph that may wrap',
      '1. a numbered item',
      '- a bullet',
      '  indented',
      '```',
      'code()',
      '# Heading',
      '> quote',
      'x',
      '***',
      '---',
      '===',
      '| a | b |',
      '|---|---|',
      'some **bold** and `code`',
      '你好世界你好世界你好世界你好世界',
    );
    fc.assert(
      fc.property(
        fc.array(line, { minLength: 1, maxLength: 20 }),
        fc.array(fc.integer({ min: 1, max: 25 }), { minLength: 1, maxLength: 40 }),
        fc.integer({ min: 1, max: 6 }),
        (lines, steps, room) => {
          const answer = lines.join('\n');
          fc.pre(answer.trim() !== '');
          const printer = new TranscriptPrinter(plain);
          let end = 0;
          for (const step of steps) {
            end = Math.min(answer.length, end + step);
            const frame = printer.update([], 0, live(answer.slice(0, end)), 30, room);
            expect(frame.liveAgentRows.length).toBeLessThanOrEqual(room);
          }
          const final = printer.update([agent(1, answer)], 0, EMPTY_LIVE, 30, room);
          expect(printed(final)).toEqual(cellLines(agent(1, answer), 30, plain));
        },
      ),
      { numRuns: 300 },
    );
  });
});
