import { Chalk } from 'chalk';
import stripAnsi from 'strip-ansi';
import { describe, expect, it } from 'vitest';
import { composerView, PLACEHOLDER, windowRows } from '../../../src/tui/components/composer-view.js';
import { composerReducer, initialComposerState, type ComposerState } from '../../../src/tui/composer/reducer.js';
import type { ComposerEvent } from '../../../src/tui/composer/types.js';
import { charKey, key } from '../../../src/tui/keys/types.js';

const plain = new Chalk({ level: 0 });

function composer(events: ComposerEvent[], opts: { vimEnabled?: boolean } = {}): ComposerState {
  let state = initialComposerState({ vimEnabled: opts.vimEnabled ?? false, probeMedia: () => null, disablePasteBurst: true });
  let now = 1_000;
  for (const event of events) {
    state = composerReducer(state, event, (now += 50)).state;
  }
  return state;
}
const typed = (text: string): ComposerEvent[] => [...text].map((ch) => charKey(ch));

describe('composerView', () => {
  it('shows the prompt glyph and the placeholder when empty, caret after the glyph', () => {
    const view = composerView(composer([]), 40, plain);
    expect(view.rows).toEqual([`› ${PLACEHOLDER}`]);
    expect(view.caret).toEqual({ row: 0, col: 2 });
    expect(view.hint).toBe('? for shortcuts');
    expect(view.vim).toBeNull();
  });

  it('wraps the text under the prompt and puts the caret after the last character', () => {
    const view = composerView(composer(typed('hello world again')), 14, plain);
    expect(view.rows).toEqual(['› hello world', '  again']);
    expect(view.caret).toEqual({ row: 1, col: 7 });
  });

  it('measures the caret in cells for wide characters', () => {
    const view = composerView(composer(typed('漢字')), 40, plain);
    expect(view.rows).toEqual(['› 漢字']);
    expect(view.caret).toEqual({ row: 0, col: 6 });
  });

  it('shows a newline as a second row', () => {
    const view = composerView(composer([...typed('a'), key('enter', { shift: true }), ...typed('b')]), 40, plain);
    expect(view.rows).toEqual(['› a', '  b']);
    expect(view.caret).toEqual({ row: 1, col: 3 });
  });

  it('styles a paste placeholder and keeps its text', () => {
    const state = composer([{ type: 'paste', text: 'x'.repeat(1200) }]);
    const color = new Chalk({ level: 1 });
    const view = composerView(state, 60, color);
    expect(stripAnsi(view.rows[0]!)).toBe('› [Pasted Content 1200 chars]');
    expect(view.rows[0]).toContain(color.cyan('[Pasted Content 1200 chars]'));
  });

  it('reports the Vim mode for the footer', () => {
    expect(composerView(composer([], { vimEnabled: true }), 40, plain).hint).toBe('Vim: Normal');
    expect(composerView(composer([charKey('i')], { vimEnabled: true }), 40, plain).hint).toBe('Vim: Insert');
  });

  it('shows shell mode with the ! prompt', () => {
    const view = composerView(composer(typed('!ls')), 40, plain);
    expect(view.rows).toEqual(['! ls']);
    expect(view.hint).toBe('Shell mode');
  });

  it('lists slash commands under the composer with the selection marked', () => {
    const view = composerView(composer(typed('/vi')), 60, plain);
    expect(view.popupRows.length).toBeGreaterThan(0);
    expect(view.popupRows[0]!.startsWith('▸ /vim')).toBe(true);
  });

  it('shows the shortcuts overlay for ? on an empty composer', () => {
    const view = composerView(composer(typed('?')), 60, plain);
    expect(view.popupRows.some((row) => row.includes('for commands'))).toBe(true);
  });
});

describe('windowRows', () => {
  const rows = ['r0', 'r1', 'r2', 'r3', 'r4', 'r5'];
  it('keeps short drafts whole', () => {
    expect(windowRows(rows, 2, 10)).toEqual({ rows, caretRow: 2 });
  });
  it('scrolls so the caret row stays visible', () => {
    expect(windowRows(rows, 5, 3)).toEqual({ rows: ['r3', 'r4', 'r5'], caretRow: 2 });
    expect(windowRows(rows, 0, 3)).toEqual({ rows: ['r0', 'r1', 'r2'], caretRow: 0 });
    expect(windowRows(rows, 3, 2)).toEqual({ rows: ['r2', 'r3'], caretRow: 1 });
  });
});
