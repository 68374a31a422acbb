import { describe, expect, it } from 'vitest';
import { footerHint, vimIndicator, vimInsertOwnsEscape } from '../../../src/tui/composer/reducer.js';
import { emptyTextArea, setContent, type TextArea } from '../../../src/tui/composer/textarea.js';
import { normalModeKey, VIM_NORMAL, type VimState } from '../../../src/tui/composer/vim.js';
import { charKey, key } from '../../../src/tui/keys/types.js';
import { Driver } from './driver.js';

function vimDriver(): Driver {
  return new Driver({ vimEnabled: true });
}

/** Runs Normal-mode keys (single chars, or names like '<enter>') over a textarea. */
function keys(text: string, cursor: number, seq: string[]): { ta: TextArea; vim: VimState } {
  let ta = setContent(emptyTextArea(), text, [], cursor);
  let vim: VimState = VIM_NORMAL;
  for (const k of seq) {
    const ev = k === '<enter>' ? key('enter') : k === '<esc>' ? key('escape') : charKey(k);
    ({ ta, vim } = normalModeKey(ta, vim, ev));
  }
  return { ta, vim };
}

describe('Vim textarea operations', () => {
  it('dw deletes a word into the kill buffer', () => {
    const { ta } = keys('foo bar baz', 4, ['d', 'w']);
    expect(ta.text).toBe('foo baz');
    expect(ta.killBuffer).toBe('bar ');
  });

  it('an operator followed by an invalid motion is consumed and cancelled', () => {
    const { ta, vim } = keys('hello', 1, ['d', 'z']);
    expect(ta.text).toBe('hello');
    expect(vim).toEqual(VIM_NORMAL);
  });

  it('e lands on the last character of the word', () => {
    const { ta } = keys('hello world', 0, ['e']);
    expect(ta.cursor).toBe(4);
    expect(keys('hello world', 4, ['e']).ta.cursor).toBe(10);
  });

  it('de deletes through the end of the word', () => {
    expect(keys('hello world', 0, ['d', 'e']).ta.text).toBe(' world');
  });

  it('yy then p puts the line below the current line', () => {
    const { ta } = keys('one\ntwo', 0, ['y', 'y', 'p']);
    expect(ta.text).toBe('one\none\ntwo');
    expect(ta.cursor).toBe(4);
  });

  it('dd deletes the line; p puts it back below', () => {
    const { ta } = keys('one\ntwo\nthree', 4, ['d', 'd']);
    expect(ta.text).toBe('one\nthree');
    expect(keys('one\ntwo\nthree', 4, ['d', 'd', 'p']).ta.text).toBe('one\nthree\ntwo');
  });

  it('dd on the last line removes the newline before it', () => {
    expect(keys('one\ntwo', 5, ['d', 'd']).ta.text).toBe('one');
  });

  it('dj deletes two lines', () => {
    expect(keys('a\nb\nc', 0, ['d', 'j']).ta.text).toBe('c');
  });

  it('x deletes the character under the caret; D kills to the end of line', () => {
    expect(keys('abc', 1, ['x']).ta.text).toBe('ac');
    const d = keys('abc def', 3, ['D']).ta;
    expect(d.text).toBe('abc');
    expect(d.killBuffer).toBe(' def');
    expect(d.cursor).toBe(2);
  });

  it('Y yanks the line linewise; charwise yank pastes after the caret', () => {
    expect(keys('ab', 0, ['Y', 'p']).ta.text).toBe('ab\nab');
    expect(keys('ab cd', 0, ['y', 'w', '$', 'p']).ta.text).toBe('ab cdab ');
  });

  it('0, $, h, l, w, b move within the line; l stops at the last char', () => {
    expect(keys('abc def', 5, ['0']).ta.cursor).toBe(0);
    expect(keys('abc def', 0, ['$']).ta.cursor).toBe(6);
    expect(keys('abc', 2, ['l']).ta.cursor).toBe(2);
    expect(keys('abc', 0, ['h']).ta.cursor).toBe(0);
    expect(keys('abc def', 0, ['w']).ta.cursor).toBe(4);
    expect(keys('abc def', 6, ['b']).ta.cursor).toBe(4);
  });

  it('o and O open lines below and above in Insert mode', () => {
    const o = keys('ab', 0, ['o']);
    expect(o.ta.text).toBe('ab\n');
    expect(o.vim.mode).toBe('insert');
    const O = keys('ab', 1, ['O']);
    expect(O.ta.text).toBe('\nab');
    expect(O.ta.cursor).toBe(0);
  });

  it('I goes to the first non-blank; A to the line end; a after the caret', () => {
    expect(keys('  ab', 3, ['I']).ta.cursor).toBe(2);
    expect(keys('ab\ncd', 0, ['A']).ta.cursor).toBe(2);
    expect(keys('ab', 0, ['a']).ta.cursor).toBe(1);
  });
});

describe('Vim mode in the composer', () => {
  it('starts in Normal mode with the indicator; i enters Insert', () => {
    const d = vimDriver();
    expect(footerHint(d.state)).toBe('Vim: Normal');
    d.type('i');
    expect(vimIndicator(d.state)).toBe('Vim: Insert');
    expect(vimInsertOwnsEscape(d.state)).toBe(true);
  });

  it('Normal-mode letters are commands, never text', () => {
    const d = vimDriver();
    d.type('zq');
    d.settle();
    expect(d.text).toBe('');
  });

  it('Esc in Insert mode steps left and enters Normal (the composer owns that Esc)', () => {
    const d = vimDriver();
    d.type('ihello');
    const out = d.key('escape');
    expect(out.handled).toBe(true);
    expect(d.state.vim.mode).toBe('normal');
    expect(d.cursor).toBe(4);
    expect(vimInsertOwnsEscape(d.state)).toBe(false);
  });

  it('scenario 25: d then Enter submits nothing; A, text, Enter submits and returns to Normal', () => {
    const d = vimDriver();
    d.type('ihello');
    d.key('escape');
    d.type('d');
    const out = d.enter();
    expect(out.result).toEqual({ type: 'none' });
    expect(d.results).toEqual([]);
    expect(d.text).toBe('hello');
    expect(footerHint(d.state)).toBe('Vim: Normal');
    expect(d.state.vim.pending).toBeNull();
    d.type('A world');
    d.settle();
    d.enter();
    expect(d.lastResult()).toMatchObject({ type: 'submitted', text: 'hello world' });
    expect(d.state.vim.mode).toBe('normal');
  });

  it('returns to Normal after a queued submission', () => {
    const d = vimDriver();
    d.send({ type: 'setTaskRunning', running: true });
    d.type('inext');
    d.settle();
    d.key('tab');
    expect(d.lastResult()).toMatchObject({ type: 'queued', text: 'next' });
    expect(d.state.vim.mode).toBe('normal');
  });

  it('stays in Insert after a suppressed submission', () => {
    const d = vimDriver();
    d.type('i   ');
    d.settle();
    d.enter();
    expect(d.results).toEqual([]);
    expect(d.state.vim.mode).toBe('insert');
  });

  it('`/` on an empty composer in Normal mode types it, enters Insert and opens the popup', () => {
    const d = vimDriver();
    d.type('/');
    expect(d.text).toBe('/');
    expect(d.state.vim.mode).toBe('insert');
    expect(d.state.popup?.kind).toBe('command');
  });

  it('`!` on an empty composer in Normal mode enters shell mode and Insert', () => {
    const d = vimDriver();
    d.type('!');
    expect(d.state.bashMode).toBe(true);
    expect(d.state.vim.mode).toBe('insert');
  });

  it('k and j browse history at its boundaries', () => {
    const d = vimDriver();
    d.type('ifirst');
    d.settle();
    d.enter();
    d.type('isecond');
    d.settle();
    d.enter();
    d.type('k');
    expect(d.text).toBe('second');
    d.type('k');
    expect(d.text).toBe('first');
    d.type('j');
    expect(d.text).toBe('second');
  });

  it('disabling Vim mode gives plain typing', () => {
    const d = vimDriver();
    d.send({ type: 'setVimEnabled', enabled: false });
    d.type('dd');
    d.settle();
    expect(d.text).toBe('dd');
    expect(vimIndicator(d.state)).toBeNull();
  });
});
