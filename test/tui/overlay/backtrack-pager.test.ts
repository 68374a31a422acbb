import { EventEmitter } from 'node:events';
import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { initialComposerState } from '../../../src/tui/composer/state.js';
import { charKey, key } from '../../../src/tui/keys/types.js';
import { attachTranscriptPager } from '../../../src/tui/overlay/pager-screen.js';
import { pagerFrame, topFor, TranscriptLines } from '../../../src/tui/overlay/transcript-pager.js';
import { createChatStore, EMPTY_LIVE, withCells, type TranscriptCell } from '../../../src/tui/store.js';

const plain = new Chalk({ level: 0 });

class FakeTerminal extends EventEmitter {
  readonly writes: string[] = [];
  columns = 40;
  rows = 8;
  write(data: string): boolean {
    this.writes.push(data);
    return true;
  }
}

describe('the pager in backtrack mode', () => {
  it('knows where each cell is, and draws the highlighted prompt (not its separator row) in reverse video', () => {
    const cells: TranscriptCell[] = [
      { kind: 'user', id: 1, text: 'first', textElements: [], attachmentLabels: [], turnId: 't1' },
      { kind: 'agent', id: 2, markdown: 'answer' },
      { kind: 'user', id: 3, text: 'second', textElements: [], attachmentLabels: [], turnId: 't2' },
    ];
    const transcript = new TranscriptLines(plain);
    const lines = transcript.lines(cells, EMPTY_LIVE, 40);
    expect(transcript.rangeOf(3)).toEqual({ start: 4, end: 6 });
    expect(transcript.rangeOf(9)).toBeNull();
    const frame = pagerFrame(lines, { top: 0, highlight: 3 }, 20, 8, plain, transcript.rangeOf(3));
    expect(frame).toContain(`\x1b[6;1H\x1b[7m› second${' '.repeat(12)}\x1b[27m\x1b[K`);
    expect(frame).toContain('\x1b[5;1H\x1b[K');
    expect(frame).toContain('\x1b[2;1H› first\x1b[K');
    expect(frame).toContain('q cancel');
  });

  it('scrolls a highlighted prompt to the top of the view unless the end is in view', () => {
    expect(topFor({ start: 10, end: 12 }, 100, 10)).toBe(11);
    expect(topFor({ start: 95, end: 97 }, 100, 10)).toBeNull();
    expect(topFor({ start: 0, end: 2 }, 100, 10)).toBe(1);
  });

  it('on screen: opens at the highlight, leaves backtrack keys to the chat and still scrolls', () => {
    const store = createChatStore(initialComposerState({ vimEnabled: false, probeMedia: () => null }));
    store.setState((s) =>
      withCells(s, [
        ...Array.from({ length: 12 }, (_, i) => ({ kind: 'info' as const, text: `note ${i}` })),
        { kind: 'user', text: 'the prompt', textElements: [], attachmentLabels: [], turnId: 't1' },
        ...Array.from({ length: 12 }, (_, i) => ({ kind: 'info' as const, text: `later ${i}` })),
      ]),
    );
    const terminal = new FakeTerminal();
    const pager = attachTranscriptPager(store, terminal);
    store.setState({ pager: { top: null, highlight: 13 } });
    // 12 notes of 2 rows, then the prompt's separator row: its text is the first row shown.
    expect(store.getState().pager).toEqual({ top: 25, highlight: 13 });
    expect(terminal.writes.at(-1)).toContain('\x1b[1;1H\x1b[7m› the prompt');
    for (const k of [key('escape'), key('left'), key('right'), key('enter'), charKey('q'), charKey('c', { ctrl: true })])
      expect(pager.handleInput(k)).toBe(false);
    expect(pager.handleInput(key('up'))).toBe(true);
    expect(store.getState().pager).toEqual({ top: 24, highlight: 13 });
    pager.dispose();
  });
});
