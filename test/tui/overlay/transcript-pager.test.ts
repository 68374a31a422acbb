import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { appendOutput, NO_OUTPUT } from '../../../src/tui/chat/turn/live-command-output.js';
import { charKey, key } from '../../../src/tui/keys/types.js';
import { pagerFrame, pagerKey, TranscriptLines, type PagerState } from '../../../src/tui/overlay/transcript-pager.js';
import { EMPTY_LIVE, type TranscriptCell } from '../../../src/tui/store.js';

const plain = new Chalk({ level: 0 });
const FOLLOW: PagerState = { top: null };

/** The rows a frame paints, by row number, without escape sequences. */
function paint(frame: string, rows: number): string[] {
  const out = Array.from({ length: rows }, () => '');
  for (const m of frame.matchAll(/\x1b\[(\d+);1H(.*?)\x1b\[K/g)) out[Number(m[1]) - 1] = m[2]!;
  return out;
}

describe('pagerKey', () => {
  it('starts following the end; up, page up and home scroll back; end follows again', () => {
    let s = pagerKey(FOLLOW, key('up'), 100, 10);
    expect(s).toEqual({ top: 89 });
    s = pagerKey(s as PagerState, key('pageup'), 100, 10);
    expect(s).toEqual({ top: 79 });
    s = pagerKey(s as PagerState, charKey('g'), 100, 10);
    expect(s).toEqual({ top: 0 });
    expect(pagerKey(s as PagerState, key('up'), 100, 10)).toEqual({ top: 0 });
    expect(pagerKey(s as PagerState, charKey(' '), 100, 10)).toEqual({ top: 10 });
    expect(pagerKey(s as PagerState, key('end'), 100, 10)).toEqual(FOLLOW);
    expect(pagerKey({ top: 89 }, charKey('j'), 100, 10)).toEqual(FOLLOW);
  });

  it('q, Esc, Ctrl+T and Ctrl+C close it; other keys change nothing', () => {
    for (const k of [charKey('q'), key('escape'), charKey('t', { ctrl: true }), charKey('c', { ctrl: true })])
      expect(pagerKey(FOLLOW, k, 5, 10)).toBe('close');
    expect(pagerKey({ top: 3 }, charKey('x'), 100, 10)).toEqual({ top: 3 });
  });
});

describe('pagerFrame', () => {
  const lines = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`);

  it('shows the last page and a status bar when following the end', () => {
    const rows = paint(pagerFrame(lines, FOLLOW, 80, 6, plain), 6);
    expect(rows.slice(0, 5)).toEqual(['line 26', 'line 27', 'line 28', 'line 29', 'line 30']);
    expect(rows[5]).toBe(' Transcript · 26–30 of 30 · ↑/↓ scroll · PgUp/PgDn page · Home/End · q close ');
  });

  it('shows from the scrolled line and blanks rows past the end; a narrow bar keeps the essentials', () => {
    const rows = paint(pagerFrame(lines.slice(0, 3), { top: 0 }, 30, 6, plain), 6);
    expect(rows.slice(0, 5)).toEqual(['line 1', 'line 2', 'line 3', '', '']);
    expect(rows[5]).toBe(' Transcript · 1–3 of 3 · q close ');
  });
});

describe('TranscriptLines', () => {
  it('renders cells as the screen does, then the streaming answer and the running command', () => {
    const cells: TranscriptCell[] = [
      { kind: 'user', id: 1, text: 'question', textElements: [], attachmentLabels: [], turnId: null },
      { kind: 'agent', id: 2, markdown: 'answer' },
    ];
    const lines = new TranscriptLines(plain).lines(
      cells,
      { agentText: 'more', agentItemId: 'm', command: { itemId: 'c', command: 'ls', output: appendOutput(NO_OUTPUT, 'a\n') } },
      40,
    );
    expect(lines).toEqual(['', '› question', '', '• answer', '', '• more', '', '⋯ $ ls', '  │ a']);
    expect(new TranscriptLines(plain).lines([], EMPTY_LIVE, 40)).toEqual([]);
  });
});
