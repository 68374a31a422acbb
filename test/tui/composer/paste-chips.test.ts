/** Paste chips: the preview of the placeholder under the caret, Ctrl+X expanding it in place and collapsing it back. */
import { Chalk } from 'chalk';
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { validateTextElements } from '../../../src/protocol/text-element.js';
import { sliceBytes } from '../../../src/protocol/utf8.js';
import { composerView } from '../../../src/tui/components/composer-view.js';
import { chipPreview, chipUnderCursor } from '../../../src/tui/composer/paste-chips.js';
import type { ComposerState } from '../../../src/tui/composer/state.js';
import { setCursor, textElementsOf } from '../../../src/tui/composer/textarea.js';
import { charKey } from '../../../src/tui/keys/types.js';
import { Driver, image } from './driver.js';

const plain = new Chalk({ level: 0 });

/** `n` lines `line 1`…`line n`, padded with `x` to `chars` characters. */
function lines(n: number, chars = 1200): string {
  const body = Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n');
  return body + 'x'.repeat(Math.max(0, chars - body.length));
}

/** The draft without element ids (ids are never reused, so a round trip gets new ones). */
function draftOf(s: ComposerState) {
  return {
    text: s.ta.text,
    cursor: s.ta.cursor,
    elements: s.ta.elements.map(({ start, end, kind }) => ({ start, end, kind })),
    pendingPastes: s.pendingPastes,
    attachments: s.attachments.map(({ elementId: _, ...a }) => a),
  };
}

/** Every element's byte range is valid and shows its own label. */
function expectValidElements(s: ComposerState): void {
  const els = textElementsOf(s.ta);
  expect(validateTextElements(s.ta.text, els)).toEqual({ ok: true });
  for (const el of els) expect(sliceBytes(s.ta.text, el.byte_range.start, el.byte_range.end)).toBe(el.placeholder);
  for (const p of s.pendingPastes) expect(s.ta.text).toContain(p.placeholder);
}

const LABEL = '[Pasted Content 1200 chars]';

/** Puts the caret at `pos` (the keys move by line, and the expanded pastes have many). */
function caret(d: Driver, pos: number): void {
  d.state = { ...d.state, ta: setCursor(d.state.ta, pos) };
}

describe('the preview of the placeholder under the caret', () => {
  it('shows the label, the line count and the key, then the first line, … and the last line', () => {
    const d = new Driver();
    d.paste(lines(120));
    expect(chipPreview(d.state, 200)).toEqual({
      header: `${LABEL} · 120 lines · ctrl + x expand`,
      lines: ['line 1', '…', `line 120${'x'.repeat(1200 - lines(120, 0).length)}`.slice(0, 200) + '…'],
    });
  });

  it('counts a final newline as the end of the last line; one or two lines need no …', () => {
    const d = new Driver();
    d.paste(`${'a'.repeat(1200)}\n`);
    expect(chipPreview(d.state, 5)).toEqual({ header: '[Pasted Content 1201 chars] · 1 line · ctrl + x expand', lines: ['aaaaa…'] });
    const two = new Driver();
    two.paste(`first\n${'b'.repeat(1200)}`);
    expect(chipPreview(two.state, 3)?.lines).toEqual(['fir…', 'bbb…']);
  });

  it('is there with the caret at the start of or just after the placeholder, not elsewhere', () => {
    const d = new Driver({ disablePasteBurst: true });
    d.type('ab ');
    d.paste(lines(3));
    d.type(' cd');
    expect(chipPreview(d.state, 80)).toBeNull();
    d.key('left');
    d.key('left');
    d.key('left');
    expect(chipPreview(d.state, 80)?.header).toBe(`${LABEL} · 3 lines · ctrl + x expand`);
    d.key('left');
    expect(d.cursor).toBe(3);
    expect(chipPreview(d.state, 80)?.header).toBe(`${LABEL} · 3 lines · ctrl + x expand`);
    d.key('left');
    expect(chipPreview(d.state, 80)).toBeNull();
  });

  it('on screen: rows in the attachment area, control characters visible, each row within the width', () => {
    const d = new Driver();
    d.paste(`${'你'.repeat(1200)}\nmiddle\nend\x1b[2J\t!\x07`);
    const rows = composerView(d.state, 30, plain).attachmentRows;
    expect(rows).toEqual(['  [Pasted Content 1218 chars]…', `    ${'你'.repeat(12)}…`, '    …', '    end^[[2J    !^G']);
    expect(rows.every((r) => stringWidth(r) <= 30)).toBe(true);
    // A small screen (the composer window under 8 rows) keeps only the header.
    expect(composerView(d.state, 30, plain, 6).attachmentRows).toEqual(['  [Pasted Content 1218 chars]…']);
  });

  it('marks the image chip under the caret in its row', () => {
    const d = new Driver();
    d.send({ type: 'attach', attachment: image('/tmp/a.png') });
    d.send({ type: 'attach', attachment: image('/tmp/b.png') });
    expect(composerView(d.state, 80, plain).attachmentRows.map((r) => r.slice(0, 12))).toEqual(['  [Image #1]', '  [Image #2]']);
    d.key('left');
    d.key('left');
    expect(chipUnderCursor(d.state)).toMatchObject({ kind: 'attachment', attachment: { placeholder: '[Image #2]' } });
    expect(composerView(d.state, 80, plain).attachmentRows.map((r) => r.slice(0, 12))).toEqual(['  [Image #1]', '▸ [Image #2]']);
    expect(chipPreview(d.state, 80)).toBeNull();
  });

  it('Ctrl+X on an image chip opens the inspector and leaves the draft as it is', () => {
    const d = new Driver();
    d.send({ type: 'attach', attachment: image('/tmp/a.png') });
    d.key('left');
    const text = d.state.ta.text;
    d.ctrl('x');
    expect(d.lastResult()).toEqual({ type: 'command', command: 'inspect' });
    expect(d.state.ta.text).toBe(text);
    expect(d.state.attachments).toHaveLength(1);
  });
});

describe('Ctrl+X expands a placeholder in place and collapses it back', () => {
  function twoPastes(): Driver {
    const d = new Driver({ disablePasteBurst: true });
    d.type('a ');
    d.paste(lines(3, 1200));
    d.type(' b ');
    d.paste(lines(5, 1300));
    d.type(' c');
    d.key('home');
    for (let i = 0; i < 2; i++) d.key('right');
    return d;
  }

  it('round trip: the draft comes back exactly (text, elements, payloads, caret); other placeholders stay valid', () => {
    const d = twoPastes();
    const before = draftOf(d.state);
    expect(d.cursor).toBe(2);
    d.ctrl('x');
    expect(d.text).toBe(`a ${lines(3, 1200)} b [Pasted Content 1300 chars] c`);
    // The caret stays before the text; the second placeholder moved by the difference.
    expect(d.cursor).toBe(2);
    expect(d.state.pendingPastes.map((p) => p.placeholder)).toEqual(['[Pasted Content 1300 chars]']);
    expect(d.state.ta.elements).toHaveLength(1);
    expectValidElements(d.state);
    expect(chipPreview(d.state, 80)?.header).toBe(`${LABEL} expanded · 3 lines · ctrl + x collapse`);
    d.ctrl('x');
    expect(draftOf(d.state)).toEqual(before);
    expectValidElements(d.state);
  });

  it('the later placeholder expands and collapses too, with the caret after it', () => {
    const d = twoPastes();
    d.key('end');
    d.key('left');
    d.key('left');
    const before = draftOf(d.state);
    d.ctrl('x');
    expect(d.text).toBe(`a ${LABEL} b ${lines(5, 1300)} c`);
    expect(d.cursor).toBe(d.text.length - 2);
    expectValidElements(d.state);
    // Moving around inside the text is no edit.
    d.key('up');
    d.key('left');
    d.ctrl('x');
    expect(draftOf(d.state)).toEqual(before);
  });

  it('both expanded, then both collapsed: each placeholder gets its own payload back', () => {
    const d = twoPastes();
    const before = draftOf(d.state);
    d.ctrl('x');
    caret(d, d.text.length - 2);
    d.ctrl('x');
    expect(d.text).toBe(`a ${lines(3, 1200)} b ${lines(5, 1300)} c`);
    expect(d.state.pendingPastes).toEqual([]);
    d.ctrl('x');
    caret(d, 2);
    d.ctrl('x');
    expect(draftOf(d.state)).toEqual(before);
    expectValidElements(d.state);
  });

  it('an edit inside the expanded text makes it ordinary text: Ctrl+X does nothing then', () => {
    const d = twoPastes();
    d.ctrl('x');
    d.key('right');
    d.type('Z');
    expect(d.state.pasteExpansions).toEqual([]);
    const edited = d.text;
    d.ctrl('x');
    expect(d.text).toBe(edited);
    d.enter();
    expect(d.lastResult()).toMatchObject({
      type: 'submitted',
      text: `a lZine 1\nline 2\nline 3${'x'.repeat(1200 - 20)} b ${lines(5, 1300)} c`,
    });
  });

  it('edits before and after the expanded text leave it collapsible', () => {
    const d = twoPastes();
    d.ctrl('x');
    caret(d, 0);
    d.type('😀 ');
    caret(d, d.text.length);
    d.type(' 你好');
    caret(d, 5);
    expectValidElements(d.state);
    d.ctrl('x');
    expect(d.text).toBe(`😀 a ${LABEL} b [Pasted Content 1300 chars] c 你好`);
    expect(d.state.pendingPastes.map((p) => p.text)).toEqual([lines(3, 1200), lines(5, 1300)]);
    expectValidElements(d.state);
  });

  it('multi-byte text in the paste: byte ranges of the placeholders after it stay valid', () => {
    const d = new Driver({ disablePasteBurst: true });
    const emoji = `👩‍👩‍👧 日本語\n${'漢字😀'.repeat(400)}`;
    d.paste(emoji);
    d.type(' ');
    d.paste(lines(2, 1100));
    d.key('home');
    const before = draftOf(d.state);
    d.ctrl('x');
    expect(d.text.startsWith(emoji)).toBe(true);
    expectValidElements(d.state);
    expect(d.state.ta.elements[0]!.start).toBe(emoji.length + 1);
    d.ctrl('x');
    expect(draftOf(d.state)).toEqual(before);
  });

  it('one undo step each way; what undo or redo gives back still toggles', () => {
    const d = twoPastes();
    const before = draftOf(d.state);
    d.ctrl('x');
    const expanded = draftOf(d.state);
    d.ctrl('z');
    expect(draftOf(d.state)).toEqual(before);
    d.send(charKey('z', { ctrl: true, shift: true }));
    expect(draftOf(d.state)).toEqual(expanded);
    d.ctrl('x');
    expect(draftOf(d.state)).toEqual(before);
    d.ctrl('z');
    expect(draftOf(d.state)).toEqual(expanded);
    d.ctrl('x');
    expect(draftOf(d.state)).toEqual(before);
  });

  it('sends an expanded paste as the text it is', () => {
    const d = new Driver();
    d.paste(lines(4));
    d.ctrl('x');
    d.enter();
    expect(d.lastResult()).toEqual({ type: 'submitted', mode: 'enter', text: lines(4), textElements: [], attachments: [] });
  });

  it('collapses to the next free label when a newer paste took its label meanwhile', () => {
    const d = new Driver({ disablePasteBurst: true });
    d.paste(lines(2));
    d.ctrl('x');
    d.type(' ');
    d.paste(lines(3));
    expect(d.text.endsWith(` ${LABEL}`)).toBe(true);
    d.key('home');
    d.ctrl('x');
    expect(d.text).toBe(`${LABEL} #2 ${LABEL}`);
    expect(d.state.pendingPastes).toEqual([
      { placeholder: `${LABEL} #2`, text: lines(2) },
      { placeholder: LABEL, text: lines(3) },
    ]);
    d.enter();
    expect(d.lastResult()).toMatchObject({ text: `${lines(2)} ${lines(3)}` });
  });

  it('does nothing with no chip under the caret, or on an image', () => {
    const d = new Driver();
    d.type('hello');
    d.ctrl('x');
    expect(d.text).toBe('hello');
    d.send({ type: 'attach', attachment: image('/tmp/a.png') });
    d.key('left');
    const before = draftOf(d.state);
    d.ctrl('x');
    expect(draftOf(d.state)).toEqual(before);
  });

  it("Vim's Normal mode: the caret on the placeholder expands it, and again collapses it", () => {
    const d = new Driver({ vimEnabled: true });
    d.type('i');
    d.paste(lines(3));
    d.key('escape');
    expect(d.state.vim.mode).toBe('normal');
    expect(d.cursor).toBe(0);
    const before = draftOf(d.state);
    d.ctrl('x');
    expect(d.text).toBe(lines(3));
    expect(d.state.vim.mode).toBe('normal');
    d.type('w');
    d.ctrl('x');
    // The caret after the placeholder is past the line's end: Normal mode puts it back on the placeholder.
    expect(draftOf(d.state)).toEqual(before);
    d.type('u');
    expect(d.text).toBe(lines(3));
  });
});
