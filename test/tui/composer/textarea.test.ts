import { describe, expect, it } from 'vitest';
import {
  beginningOfNextWord,
  cursorByte,
  deleteBackward,
  deleteForward,
  deleteWordBackward,
  deleteWordForward,
  emptyTextArea,
  endOfWordChar,
  insertElement,
  insertText,
  killToLineEnd,
  killToLineStart,
  moveDown,
  moveLeft,
  moveLineEnd,
  moveLineStart,
  moveRight,
  moveUp,
  moveWordLeft,
  moveWordRight,
  replaceElementText,
  setContent,
  setCursor,
  textElementsOf,
  yank,
  type TextArea,
} from '../../../src/tui/composer/textarea.js';

function ta(text: string, cursor = text.length): TextArea {
  return setContent(emptyTextArea(), text, [], cursor);
}

/** `before` + element `label` + `after`, caret at the end. */
function withElement(before: string, label: string, after: string): TextArea {
  const a = insertText(emptyTextArea(), before);
  const { ta: b } = insertElement(a, label, 'paste');
  return insertText(b, after);
}

describe('graphemes', () => {
  it('moves and deletes an emoji ZWJ sequence as one unit', () => {
    const family = '👨‍👩‍👧';
    let t = ta(`a${family}b`, 1);
    t = moveRight(t);
    expect(t.cursor).toBe(1 + family.length);
    t = deleteBackward(t);
    expect(t.text).toBe('ab');
  });

  it('deletes a base letter with its combining mark together', () => {
    const t = deleteBackward(ta('cafe\u0301'));
    expect(t.text).toBe('caf');
  });

  it('deletes forward one CJK character and one flag', () => {
    expect(deleteForward(ta('你好', 0)).text).toBe('好');
    expect(deleteForward(ta('🇯🇵x', 0)).text).toBe('x');
  });

  it('reports the caret as a UTF-8 byte offset', () => {
    expect(cursorByte(ta('你好'))).toBe(6);
    expect(cursorByte(ta('😀'))).toBe(4);
  });
});

describe('elements', () => {
  it('backspace at the end of an element removes it whole', () => {
    const t = withElement('a ', '[Pasted Content 1001 chars]', '');
    const d = deleteBackward(t);
    expect(d.text).toBe('a ');
    expect(d.elements).toEqual([]);
  });

  it('delete at the start of an element removes it whole', () => {
    const t = setCursor(withElement('a', '[X]', 'b'), 1);
    const d = deleteForward(t);
    expect(d.text).toBe('ab');
  });

  it('backspace at the start of an element deletes the character before it', () => {
    const t = setCursor(withElement('ab', '[X]', ''), 2);
    const d = deleteBackward(t);
    expect(d.text).toBe('a[X]');
    expect(d.elements[0]).toMatchObject({ start: 1, end: 4 });
  });

  it('the caret never lands inside an element', () => {
    const t = withElement('a', '[Image #1]', 'b');
    expect(setCursor(t, 4).cursor).toBe(11);
    let m = setCursor(t, 1);
    m = moveRight(m);
    expect(m.cursor).toBe(11);
    m = moveLeft(m);
    expect(m.cursor).toBe(1);
  });

  it('exposes elements as UTF-8 byte ranges with their text as placeholder', () => {
    const t = withElement('你', '[Image #1]', ' now');
    expect(textElementsOf(t)).toEqual([{ byte_range: { start: 3, end: 13 }, placeholder: '[Image #1]' }]);
  });

  it('rewrites an element label in place and shifts what follows', () => {
    const a = insertText(emptyTextArea(), 'x ');
    const { ta: b, id } = insertElement(a, '[Image #2]', 'image');
    const { ta: c } = insertElement(insertText(b, ' '), '[Image #3]', 'image');
    const d = replaceElementText(c, id, '[Image #1]');
    expect(d.text).toBe('x [Image #1] [Image #3]');
    expect(d.elements.map((e) => d.text.slice(e.start, e.end))).toEqual(['[Image #1]', '[Image #3]']);
  });

  it('word motions treat an element as one unit', () => {
    const t = withElement('go ', '[Pasted Content 1200 chars]', '');
    const w = moveWordLeft(t);
    expect(w.cursor).toBe(3);
  });
});

describe('word motions (separators of the Codex keymap)', () => {
  it('Alt+B stops at separator runs and words', () => {
    const t = ta('foo.bar baz');
    const a = moveWordLeft(t);
    expect(a.cursor).toBe(8);
    const b = moveWordLeft(a);
    expect(b.cursor).toBe(4);
    const c = moveWordLeft(b);
    expect(c.cursor).toBe(3);
  });

  it('Alt+F moves to the end of the next word', () => {
    const t = ta('foo bar', 0);
    expect(moveWordRight(t).cursor).toBe(3);
    expect(moveWordRight(moveWordRight(t)).cursor).toBe(7);
  });

  it('Ctrl+W deletes the previous word into the kill buffer; Ctrl+Y yanks it back', () => {
    const t = deleteWordBackward(ta('hello world'));
    expect(t.text).toBe('hello ');
    expect(t.killBuffer).toBe('world');
    expect(yank(t).text).toBe('hello world');
  });

  it('Alt+D deletes the next word', () => {
    const t = deleteWordForward(ta('hello world', 5));
    expect(t.text).toBe('hello');
  });

  it('Vim w lands on the next word start and e on the word end character', () => {
    expect(beginningOfNextWord(ta('foo bar', 0))).toBe(4);
    expect(endOfWordChar(ta('foo bar', 0))).toBe(2);
    expect(endOfWordChar(ta('foo bar', 2))).toBe(6);
  });
});

describe('lines', () => {
  it('Ctrl+A at the start of a line moves to the previous line; Home does not', () => {
    const t = ta('one\ntwo', 4);
    expect(moveLineStart(t, true).cursor).toBe(0);
    expect(moveLineStart(t).cursor).toBe(4);
  });

  it('Ctrl+E at the end of a line moves to the end of the next line', () => {
    const t = ta('one\ntwo', 3);
    expect(moveLineEnd(t, true).cursor).toBe(7);
    expect(moveLineEnd(t).cursor).toBe(3);
  });

  it('Ctrl+K kills to the end of the line, or the newline at its end', () => {
    const t = killToLineEnd(ta('abc\ndef', 1));
    expect(t.text).toBe('a\ndef');
    expect(t.killBuffer).toBe('bc');
    expect(killToLineEnd(t).text).toBe('adef');
  });

  it('Ctrl+U kills to the start of the line, or the newline before it', () => {
    const t = killToLineStart(ta('abc\ndef', 6));
    expect(t.text).toBe('abc\nf');
    expect(t.killBuffer).toBe('de');
    expect(killToLineStart(t).text).toBe('abcf');
  });

  it('Up and Down keep the display column across CJK lines', () => {
    const t = ta('ab你好cd\nxyz\n你好你好', 4);
    const down = moveDown(t);
    expect(down.cursor).toBe(10);
    const down2 = moveDown(down);
    // The preferred column (6 cells) survives the short middle line: after three wide characters.
    expect(down2.cursor).toBe(11 + 3);
    const up = moveUp(moveUp(down2));
    expect(up.cursor).toBe(4);
  });

  it('Up on the first line goes to the start; Down on the last goes to the end', () => {
    expect(moveUp(ta('abc', 2)).cursor).toBe(0);
    expect(moveDown(ta('abc', 1)).cursor).toBe(3);
  });

  it('a caret at 0 before a leading newline is on the first (empty) line', () => {
    expect(moveUp(ta('\nabc', 0)).cursor).toBe(0);
    expect(moveLineEnd(ta('\nabc', 0)).cursor).toBe(0);
    expect(moveDown(ta('\nabc', 0)).cursor).toBe(1);
  });
});

describe('long grapheme clusters', () => {
  it('a cluster longer than the search window is still one unit', () => {
    const zalgo = `a${'\u0301'.repeat(200)}`;
    const t = ta(`x${zalgo}y`, 1);
    expect(moveRight(t).cursor).toBe(1 + zalgo.length);
    expect(deleteBackward(setCursor(t, 1 + zalgo.length)).text).toBe('xy');
  });
});
