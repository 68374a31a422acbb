/**
 * A burst of answer text released at the same moment as a resize, over and over in the real bin in a
 * pty: every row of every answer is in scrollback + screen exactly once, in order. The moment moves
 * round the resize (with the SIGWINCH, while the size settles, as the redraw at the new size begins,
 * just after it), since a lost or repeated row showed up only in some runs.
 */
import { describe, expect, it } from 'vitest';
import { RESIZE_SETTLE_MS } from '../../src/tui/components/hooks.js';
import type { Gate } from '../support/fake-responses-server.js';
import type { TillerPty } from '../support/pty.js';
import { holdsAfter, sessionPerTest, typeSlowly } from './helpers.js';

const start = sessionPerTest();

/** The bin's redraw at a new size begins by clearing the screen and the scrollback (app.tsx). */
const CLEAR_SCROLLBACK = '\x1b[3J';
const ITERATIONS = 12;
const ROWS_PER_ANSWER = 24;
/** Rows streamed before the hold; the rest is the burst. */
const BEFORE_BURST = 3;

const row = (turn: number, i: number): string => `R${turn}x${i}Q`;
const answer = (turn: number, upTo = ROWS_PER_ANSWER): string =>
  Array.from({ length: upTo }, (_, i) => `${row(turn, i)} a row of answer text long enough to wrap at the narrower widths.`).join('\n\n');

type Moment = 'with the resize' | 'while it settles' | 'as the redraw begins' | 'just after the redraw began';
const MOMENTS: Moment[] = ['with the resize', 'while it settles', 'as the redraw begins', 'just after the redraw began'];

/** Resizes and releases `gate` at `moment`; resolves once the redraw at the new size has begun. */
async function resizeReleasing(pty: TillerPty, cols: number, rows: number, gate: Gate, moment: Moment): Promise<void> {
  const redrawing = new Promise<void>((resolve) => {
    const stop = pty.onOutput((data) => {
      if (!data.includes(CLEAR_SCROLLBACK)) return;
      stop();
      if (moment === 'as the redraw begins') gate.release();
      if (moment === 'just after the redraw began') setTimeout(() => gate.release(), 5);
      resolve();
    });
  });
  pty.resize(cols, rows);
  if (moment === 'with the resize') gate.release();
  if (moment === 'while it settles') setTimeout(() => gate.release(), RESIZE_SETTLE_MS / 2);
  await redrawing;
}

const countOf = (text: string, needle: string): number => text.split(needle).length - 1;

describe('a burst of answer text during a resize', { timeout: 240_000 }, () => {
  it(`${ITERATIONS} bursts, each released round a resize: every row once, in order, one composer`, async () => {
    const sizes: Array<[number, number]> = [
      [80, 24],
      [120, 40],
      [60, 18],
      [140, 30],
    ];
    const { server, pty } = await start({ cols: 100, rows: 30 });
    for (let turn = 0; turn < ITERATIONS; turn++) {
      const { gates, hold } = holdsAfter(server, [answer(turn, BEFORE_BURST)]);
      server.enqueue({ text: answer(turn), hold });
      await typeSlowly(pty, `q${turn}.`);
      pty.press('enter');
      await pty.waitFor(() => pty.logicalText().includes(row(turn, BEFORE_BURST - 1)), 20_000);
      const [cols, rows] = sizes[turn % sizes.length]!;
      await resizeReleasing(pty, cols, rows, gates[0]!, MOMENTS[turn % MOMENTS.length]!);
      await pty.waitFor((s) => !s.includes('esc to interrupt') && pty.logicalText().includes(row(turn, ROWS_PER_ANSWER - 1)), 20_000);
    }
    const text = pty.logicalText();
    const at: number[] = [];
    for (let turn = 0; turn < ITERATIONS; turn++) {
      for (let i = 0; i < ROWS_PER_ANSWER; i++) {
        expect(countOf(text, row(turn, i)), `${row(turn, i)} (burst ${MOMENTS[turn % MOMENTS.length]}) in:\n${text}`).toBe(1);
        at.push(text.indexOf(row(turn, i)));
      }
      expect(countOf(text, `› q${turn}.`), `› q${turn}.`).toBe(1);
    }
    expect(at).toEqual([...at].sort((a, b) => a - b));
    expect(countOf(text, 'Ask Tiller to do anything')).toBe(1);
  });
});
