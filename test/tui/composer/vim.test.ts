import { describe, expect, it } from 'vitest';
import { footerHint, isHistorySearching, vimIndicator, vimInsertOwnsEscape } from '../../../src/tui/composer/reducer.js';
import { renderComposer } from '../../../src/tui/composer/selectors.js';
import { SHIFT_WIDTH } from '../../../src/tui/composer/vim.js';
import { Driver } from './driver.js';
import { run } from './vim-harness.js';

function vimDriver(): Driver {
  return new Driver({ vimEnabled: true });
}

describe('Vim and clearing the draft', () => {
  it('Ctrl+C in Visual mode clears the draft and ends the selection', () => {
    const d = vimDriver();
    d.type('ihello');
    d.key('escape');
    d.type('v');
    expect(footerHint(d.state)).toBe('Vim: Visual');
    d.ctrl('c');
    expect(d.text).toBe('');
    expect(d.state.vim.mode).toBe('normal');
    expect(d.state.vim.anchor).toBeNull();
  });
});

describe('Vim textarea operations', () => {
  it('dw deletes a word into the unnamed register', () => {
    const r = run('foo |bar baz', 'dw');
    expect(r.text).toBe('foo baz');
    expect(r.reg('"')).toBe('bar ');
  });

  it('an operator followed by an invalid motion is consumed and cancelled', () => {
    const r = run('h|ello', 'dz');
    expect(r.text).toBe('hello');
    expect(r.state.vim.pending).toBeNull();
    expect(r.mode).toBe('normal');
  });

  it('e lands on the last character of the word', () => {
    expect(run('hello world', 'e').marked).toBe('hell|o world');
    expect(run('hell|o world', 'e').marked).toBe('hello worl|d');
  });

  it('de deletes through the end of the word', () => {
    expect(run('hello world', 'de').text).toBe(' world');
  });

  it('yy then p puts the line below the current line', () => {
    expect(run('one\ntwo', 'yyp').marked).toBe('one\n|one\ntwo');
  });

  it('dd deletes the line; p puts it back below', () => {
    expect(run('one\n|two\nthree', 'dd').text).toBe('one\nthree');
    expect(run('one\n|two\nthree', 'ddp').text).toBe('one\nthree\ntwo');
  });

  it('dd on the last line removes the newline before it', () => {
    expect(run('one\nt|wo', 'dd').text).toBe('one');
  });

  it('dj deletes two lines', () => {
    expect(run('a\nb\nc', 'dj').text).toBe('c');
  });

  it('x deletes the character under the caret; D kills to the end of line', () => {
    expect(run('a|bc', 'x').text).toBe('ac');
    const d = run('abc| def', 'D');
    expect(d.text).toBe('abc');
    expect(d.reg('"')).toBe(' def');
    expect(d.marked).toBe('ab|c');
  });

  it('Y yanks the line linewise; charwise yank pastes after the caret', () => {
    expect(run('ab', 'Yp').text).toBe('ab\nab');
    expect(run('ab cd', 'yw$p').text).toBe('ab cdab ');
  });

  it('0, $, h, l, w, b move within the line; l stops at the last char', () => {
    expect(run('abc d|ef', '0').marked).toBe('|abc def');
    expect(run('abc def', '$').marked).toBe('abc de|f');
    expect(run('ab|c', 'l').marked).toBe('ab|c');
    expect(run('abc', 'h').marked).toBe('|abc');
    expect(run('abc def', 'w').marked).toBe('abc |def');
    expect(run('abc de|f', 'b').marked).toBe('abc |def');
  });

  it('o and O open lines below and above in Insert mode', () => {
    const o = run('ab', 'o');
    expect(o.text).toBe('ab\n');
    expect(o.mode).toBe('insert');
    const O = run('a|b', 'O');
    expect(O.marked).toBe('|\nab');
  });

  it('I goes to the first non-blank; A to the line end; a after the caret', () => {
    expect(run('  a|b', 'I').marked).toBe('  |ab');
    expect(run('ab\ncd', 'A').marked).toBe('ab|\ncd');
    expect(run('ab', 'a').marked).toBe('a|b');
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

  it("Visual mode: the footer says so, Esc is the composer's, Enter submits nothing, the selection is drawn", () => {
    const d = vimDriver();
    d.type('ihello world');
    d.settle();
    d.key('escape');
    d.type('0v');
    expect(footerHint(d.state)).toBe('Vim: Visual');
    expect(vimInsertOwnsEscape(d.state)).toBe(true);
    d.type('e');
    const rows = renderComposer(d.state, 40).rows;
    expect(rows[0]!.spans).toEqual([
      { text: 'hello', kind: 'text', selected: true },
      { text: ' world', kind: 'text' },
    ]);
    d.enter();
    expect(d.results).toEqual([]);
    d.type('V');
    expect(vimIndicator(d.state)).toBe('Vim: Visual Line');
    expect(d.key('escape').handled).toBe(true);
    expect(footerHint(d.state)).toBe('Vim: Normal');
    expect(renderComposer(d.state, 40).rows[0]!.spans).toEqual([{ text: 'hello world', kind: 'text' }]);
  });

  it('a count or a register being typed consumes Enter, as a pending operator does', () => {
    const d = vimDriver();
    d.type('ihi');
    d.settle();
    d.key('escape');
    d.type('3');
    d.enter();
    d.type('"');
    d.enter();
    expect(d.results).toEqual([]);
    expect(d.state.vim.pending).toBeNull();
    expect(d.text).toBe('hi');
  });

  it('Ctrl+R is redo in Normal mode and the history search in Insert mode', () => {
    const d = vimDriver();
    d.type('iabc');
    d.settle();
    d.key('escape');
    d.type('xu');
    expect(d.text).toBe('abc');
    d.ctrl('r');
    expect(d.text).toBe('ab');
    expect(isHistorySearching(d.state)).toBe(false);
    d.type('i');
    d.ctrl('r');
    expect(isHistorySearching(d.state)).toBe(true);
  });

  it('registers outlive a submission; the unnamed register is also what Ctrl+Y puts', () => {
    const d = vimDriver();
    d.type('ione two');
    d.settle();
    d.key('escape');
    d.type('0yw');
    d.enter();
    expect(d.lastResult()).toMatchObject({ type: 'submitted', text: 'one two' });
    d.type('p');
    expect(d.text).toBe('one ');
    d.type('A');
    d.ctrl('y');
    expect(d.text).toBe('one one ');
  });

  it('a count before j moves the caret instead of browsing the history', () => {
    const d = vimDriver();
    d.type('iold');
    d.settle();
    d.enter();
    d.type('ia');
    d.send({ type: 'key', name: 'enter', shift: true, ctrl: false, alt: false, meta: false, kind: 'press' });
    d.type('b');
    d.send({ type: 'key', name: 'enter', shift: true, ctrl: false, alt: false, meta: false, kind: 'press' });
    d.type('c');
    d.settle();
    d.key('escape');
    d.type('gg2j');
    expect(d.text).toBe('a\nb\nc');
    expect(d.cursor).toBe(4);
  });

  it('>> indents by two spaces (shiftwidth 2, spaces), << takes them off', () => {
    expect(SHIFT_WIDTH).toBe(2);
    expect(run('\tx', '>>').text).toBe('          x');
    expect(run('   x', '<<').text).toBe(' x');
  });
});
