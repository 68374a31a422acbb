import { describe, expect, it } from 'vitest';
import { charKey } from '../../../src/tui/keys/types.js';
import { isInPasteBurst } from '../../../src/tui/composer/reducer.js';
import { Driver } from './driver.js';

/** Sends `text` as key presses `stepMs` apart (a terminal without bracketed paste). */
function burst(d: Driver, text: string, stepMs = 1): void {
  for (const ch of text) {
    if (ch === '\n') d.key('enter', {}, stepMs);
    else d.send(charKey(ch), stepMs);
  }
}

describe('paste bursts in the composer', () => {
  it('shows the first ASCII char at once while the detector holds it; it stays typed when no burst follows', () => {
    const d = new Driver();
    const out = d.send(charKey('a'));
    expect(d.text).toBe('a');
    expect(isInPasteBurst(d.state)).toBe(true);
    expect(out.effects).toContainEqual({ type: 'scheduleTick', delayMs: 9 });
    d.tick(9);
    expect(d.text).toBe('a');
    expect(isInPasteBurst(d.state)).toBe(false);
  });

  it('a burst that begins with the shown char takes it back: the paste goes in once, whole', () => {
    const d = new Driver();
    d.type('x ');
    d.settle();
    d.send(charKey('p'), 20);
    expect(d.text).toBe('x p');
    d.send(charKey('a'), 1);
    expect(d.text).toBe('x ');
    d.send(charKey('s'), 1);
    d.send(charKey('t'), 1);
    d.tick(9);
    expect(d.text).toBe('x past');
  });

  it('Enter right after the shown char joins the burst (a pasted line), not a submit; the char is not doubled', () => {
    const d = new Driver();
    d.send(charKey('a'), 20);
    d.key('enter', {}, 1);
    d.send(charKey('b'), 1);
    d.tick(9);
    expect(d.text).toBe('a\nb');
    expect(d.lastResult()).toBeUndefined();
  });

  it('! as the held first char of a paste is text, not shell mode', () => {
    const d = new Driver();
    d.send(charKey('!'), 20);
    expect(d.state.bashMode).toBe(true);
    for (const ch of 'ls -la') d.send(charKey(ch), 1);
    d.tick(9);
    expect(d.state.bashMode).toBe(false);
    expect(d.text).toBe('!ls -la');
  });

  it('a fast small burst stays invisible, then flushes as one paste when it stops', () => {
    const d = new Driver();
    burst(d, 'hello');
    expect(d.text).toBe('');
    expect(isInPasteBurst(d.state)).toBe(true);
    d.tick(9);
    expect(d.text).toBe('hello');
  });

  it('1001 chars at 1 ms steps become exactly one placeholder after the flush', () => {
    const d = new Driver();
    burst(d, 'x'.repeat(1001));
    expect(d.text).toBe('');
    d.tick(9);
    expect(d.text).toBe('[Pasted Content 1001 chars]');
    expect(d.state.pendingPastes).toEqual([{ placeholder: '[Pasted Content 1001 chars]', text: 'x'.repeat(1001) }]);
  });

  it('human-speed typing of 1000 chars appears live without a placeholder', () => {
    const d = new Driver();
    d.type('y'.repeat(1000), 30);
    d.settle();
    expect(d.text).toBe('y'.repeat(1000));
    expect(d.state.pendingPastes).toEqual([]);
  });

  it('50 chars at 1 ms with an Enter inside submit nothing; the text arrives as two lines', () => {
    const d = new Driver();
    burst(d, `${'a'.repeat(25)}\n${'b'.repeat(24)}`);
    expect(d.results).toEqual([]);
    expect(d.text).toBe('');
    d.tick(9);
    expect(d.text).toBe(`${'a'.repeat(25)}\n${'b'.repeat(24)}`);
    expect(d.results).toEqual([]);
    d.enter(200);
    expect(d.lastResult()).toMatchObject({ type: 'submitted', text: `${'a'.repeat(25)}\n${'b'.repeat(24)}` });
  });

  it('Enter within 120 ms after a flushed burst inserts a newline; after that it submits', () => {
    const d = new Driver();
    burst(d, 'pasted');
    d.tick(9);
    d.enter(50);
    expect(d.results).toEqual([]);
    expect(d.text).toBe('pasted\n');
    d.key('backspace', {}, 10);
    d.enter(121);
    expect(d.lastResult()).toMatchObject({ type: 'submitted', text: 'pasted' });
  });

  it('the Enter window is 120 ms after the last burst activity', () => {
    const d = new Driver();
    burst(d, 'abc');
    d.tick(9);
    d.enter(112); // 121 ms after the last char
    expect(d.lastResult()).toMatchObject({ type: 'submitted', text: 'abc' });
  });

  it('non-ASCII (IME) bursts buffer Enter and flush multiline', () => {
    const d = new Driver();
    const line = '这是一个很长的中文句子用来测试粘贴检测功能';
    burst(d, `${line}\n再见`);
    expect(d.results).toEqual([]);
    d.tick(9);
    expect(d.text).toBe(`${line}\n再见`);
  });

  it("a short IME commit followed by a person's Enter still submits", () => {
    const d = new Driver();
    burst(d, '你好');
    // The commit shows at once (never held) …
    expect(d.text).toBe('你好');
    // … and an Enter pressed after it (outside the 120 ms window a burst opens) sends it.
    d.enter(200);
    expect(d.lastResult()).toMatchObject({ type: 'submitted', text: '你好' });
  });

  it('a CJK-only burst with a CR inside (one write) does not submit half-way', () => {
    const d = new Driver();
    // Everything in one read: the same instant for every key.
    burst(d, '你好世界你好世界\n第二行', 0);
    expect(d.results).toEqual([]);
    d.settle();
    expect(d.results).toEqual([]);
    expect(d.text).toBe('你好世界你好世界\n第二行');
    // A person's Enter later submits both lines.
    d.enter(500);
    expect(d.lastResult()).toMatchObject({ type: 'submitted', text: '你好世界你好世界\n第二行' });
  });

  it('CJK typed at human speed (one char per commit) then Enter submits', () => {
    const d = new Driver();
    d.type('你好', 150);
    d.enter(150);
    expect(d.lastResult()).toMatchObject({ type: 'submitted', text: '你好' });
  });

  it('a single non-ASCII char is shown at once (never held)', () => {
    const d = new Driver();
    d.send(charKey('你'));
    expect(d.text).toBe('你');
  });

  it('a non-character key flushes the burst before it acts', () => {
    const d = new Driver();
    burst(d, 'abcdef');
    d.key('left', {}, 1);
    expect(d.text).toBe('abcdef');
    expect(d.cursor).toBe(5);
  });

  it('a modified key flushes the held first char before acting', () => {
    const d = new Driver();
    d.send(charKey('a'));
    d.ctrl('a', 1);
    expect(d.text).toBe('a');
    expect(d.cursor).toBe(0);
  });

  it('enabling Vim mode flushes a held char and turns the detector off in Normal mode', () => {
    const d = new Driver();
    d.send(charKey('a'));
    d.send({ type: 'setVimEnabled', enabled: true }, 1);
    expect(d.text).toBe('a');
    burst(d, 'ii');
    expect(d.state.vim.mode).toBe('insert');
  });

  it('`?` during a burst is text, not the shortcut toggle', () => {
    const d = new Driver();
    burst(d, 'a??');
    d.tick(9);
    expect(d.state.showShortcuts).toBe(false);
    expect(d.text).toBe('a??');
  });

  it('in slash context Enter dispatches even inside the Enter window', () => {
    const d = new Driver();
    burst(d, '/diff');
    d.tick(9);
    expect(d.text).toBe('/diff');
    d.enter(20);
    expect(d.lastResult()).toEqual({ type: 'command', command: 'diff' });
  });

  it('a slash line typed first keeps Enter a dispatch after a burst on the next line', () => {
    const d = new Driver();
    d.type('/diff');
    d.settle();
    d.key('escape');
    d.key('enter', { shift: true });
    burst(d, 'xyz');
    d.tick(9);
    d.key('backspace', {}, 1);
    d.key('backspace', {}, 1);
    d.key('backspace', {}, 1);
    d.key('backspace', {}, 1);
    expect(d.text).toBe('/diff');
    d.enter(1);
    expect(d.lastResult()).toEqual({ type: 'command', command: 'diff' });
  });

  it('fast typing of a short word is not grabbed as a paste', () => {
    const d = new Driver();
    d.type('ab', 100);
    // Three chars within 8 ms of each other after slow ones: no whitespace, short → typed normally.
    d.send(charKey('c'), 3);
    d.send(charKey('d'), 3);
    d.send(charKey('e'), 3);
    d.tick(9);
    expect(d.text).toBe('abcde');
  });

  it('asks for a 9 ms tick while bursting and none when idle', () => {
    const d = new Driver();
    const out = d.send(charKey('a'));
    expect(out.effects.filter((e) => e.type === 'scheduleTick')).toEqual([{ type: 'scheduleTick', delayMs: 9 }]);
    const idle = d.tick(20);
    expect(idle.effects.filter((e) => e.type === 'scheduleTick')).toEqual([]);
  });

  it('an explicit paste during a burst keeps the burst text before it', () => {
    const d = new Driver();
    burst(d, 'abc');
    d.paste('XYZ');
    expect(d.text).toBe('abcXYZ');
  });
});
