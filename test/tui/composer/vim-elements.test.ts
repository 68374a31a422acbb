/**
 * Elements under Vim: a pasted-content placeholder, an `[Image #N]` or a `$skill` is one character
 * to every motion and operator. Deleting over one removes it whole (with its payload or file);
 * yanking and putting one makes a new element with the same payload (a new numbered placeholder, a
 * new attachment numbered as attachments are); undo brings a deleted one back with its payload.
 */
import { describe, expect, it } from 'vitest';
import { textElementsOf } from '../../../src/tui/composer/textarea.js';
import type { ComposerEvent } from '../../../src/tui/composer/types.js';
import { image } from './driver.js';
import { VimRun, vimDraft } from './vim-harness.js';

const PAYLOAD = 'p'.repeat(1200);
const LABEL = '[Pasted Content 1200 chars]';

/** `a [Pasted Content 1200 chars] b [Image #1] c` with both elements bound, caret at 0. */
function withElements(): VimRun {
  const draft: ComposerEvent = {
    type: 'restoreDraft',
    draft: {
      text: `a ${LABEL} b [Image #1] c`,
      textElements: [
        { byte_range: { start: 2, end: 2 + LABEL.length }, placeholder: LABEL },
        { byte_range: { start: LABEL.length + 5, end: LABEL.length + 15 }, placeholder: '[Image #1]' },
      ],
      attachments: [{ ...image('/tmp/one.png'), placeholder: '[Image #1]' }],
    },
    pendingPastes: [{ placeholder: LABEL, text: PAYLOAD }],
  };
  const r = new VimRun(vimDraft(''));
  r.send(draft);
  return r.keys('0');
}

function labels(r: VimRun): string[] {
  return textElementsOf(r.state.ta).map((e) => e.placeholder ?? '');
}

describe('Vim keeps elements atomic', () => {
  it('motions step over an element as one character', () => {
    const r = withElements();
    r.keys('w');
    expect(r.state.ta.cursor).toBe(2);
    r.keys('l');
    expect(r.state.ta.cursor).toBe(2 + LABEL.length);
    r.keys('h');
    expect(r.state.ta.cursor).toBe(2);
    // A one-character word: `e` goes on to the end of the next word.
    r.keys('e');
    expect(r.text[r.state.ta.cursor]).toBe('b');
    r.keys('W');
    expect(r.state.ta.elements.find((e) => e.start === r.state.ta.cursor)?.kind).toBe('image');
    r.keys('b');
    expect(r.text[r.state.ta.cursor]).toBe('b');
  });

  it('x on a placeholder deletes it whole, with its payload', () => {
    const r = withElements().keys('wx');
    expect(r.text).toBe('a  b [Image #1] c');
    expect(r.state.pendingPastes).toEqual([]);
    expect(labels(r)).toEqual(['[Image #1]']);
  });

  it('dw over an image removes the attachment; the register keeps the file', () => {
    const r = withElements().keys('3wdw');
    expect(r.text).toBe(`a ${LABEL} b c`);
    expect(r.state.attachments).toEqual([]);
    expect(r.state.vim.registers.unnamed?.elements[0]?.attachment?.path).toBe('/tmp/one.png');
  });

  it('d$ from inside the text deletes both elements whole', () => {
    const r = withElements().keys('ld$');
    expect(r.text).toBe('a');
    expect(r.state.ta.elements).toEqual([]);
    expect(r.state.attachments).toEqual([]);
    expect(r.state.pendingPastes).toEqual([]);
  });

  it('yiw then P on a placeholder makes a second numbered placeholder with the same payload', () => {
    const r = withElements().keys('wyiwP');
    expect(labels(r)).toEqual([`${LABEL} #2`, LABEL, '[Image #1]']);
    expect(r.state.pendingPastes).toEqual([
      { placeholder: LABEL, text: PAYLOAD },
      { placeholder: `${LABEL} #2`, text: PAYLOAD },
    ]);
  });

  it('yy then p of a line with an image attaches the same file again as the next image', () => {
    const r = withElements().keys('yyp');
    expect(r.text).toBe(`a ${LABEL} b [Image #1] c\na ${LABEL} #2 b [Image #2] c`);
    expect(r.state.attachments.map((a) => [a.placeholder, a.path])).toEqual([
      ['[Image #1]', '/tmp/one.png'],
      ['[Image #2]', '/tmp/one.png'],
    ]);
    expect(r.state.pendingPastes.map((p) => p.text)).toEqual([PAYLOAD, PAYLOAD]);
  });

  it('after the original image is deleted, putting it back numbers it by the existing rules', () => {
    const r = withElements().keys('$bdiwP');
    expect(r.state.attachments.map((a) => a.placeholder)).toEqual(['[Image #1]']);
    expect(r.text).toBe(`a ${LABEL} b [Image #1] c`);
    r.keys('0wyiw$p');
    expect(labels(r)).toEqual([LABEL, '[Image #1]', `${LABEL} #2`]);
  });

  it('r on an element replaces the whole element; ~ and gU leave elements as they are', () => {
    const r = withElements().keys('wrX');
    expect(r.text).toBe('a X b [Image #1] c');
    expect(r.state.pendingPastes).toEqual([]);
    const u = withElements().keys('gU$');
    expect(u.text).toBe(`A ${LABEL} B [Image #1] C`);
    expect(labels(u)).toEqual([LABEL, '[Image #1]']);
  });

  it('Visual mode selects elements whole', () => {
    const r = withElements().keys('wvd');
    expect(r.text).toBe('a  b [Image #1] c');
    const y = withElements().keys('wvley');
    expect(y.state.vim.registers.unnamed?.text).toBe(`${LABEL} b`);
    expect(y.state.vim.registers.unnamed?.elements).toHaveLength(1);
  });

  it('undo brings a deleted element back with its payload and its attachment', () => {
    const r = withElements().keys('wxu');
    expect(r.text).toBe(`a ${LABEL} b [Image #1] c`);
    expect(r.state.pendingPastes).toEqual([{ placeholder: LABEL, text: PAYLOAD }]);
    const i = withElements().keys('3wxu');
    expect(i.state.attachments.map((a) => [a.placeholder, a.path])).toEqual([['[Image #1]', '/tmp/one.png']]);
  });

  it('. after an insert that pasted a placeholder pastes a new one with the same payload', () => {
    const r = new VimRun(vimDraft('|x'));
    r.keys('a');
    r.send({ type: 'paste', text: 'q'.repeat(1500) });
    r.keys('<Esc>.');
    expect(labels(r)).toEqual(['[Pasted Content 1500 chars]', '[Pasted Content 1500 chars] #2']);
    expect(r.state.pendingPastes.map((p) => p.text)).toEqual(['q'.repeat(1500), 'q'.repeat(1500)]);
  });

  it('a register keeps a mention bound to its skill', () => {
    const draft: ComposerEvent = {
      type: 'restoreDraft',
      draft: {
        text: 'use $deploy now',
        textElements: [{ byte_range: { start: 4, end: 11 }, placeholder: '$deploy' }],
        attachments: [],
        mentions: [{ name: 'deploy', path: '/s/deploy' }],
      },
    };
    const r = new VimRun(vimDraft(''));
    r.send(draft);
    r.keys('0wyw$p');
    expect(
      r.state.mentions.map((m) => [m.name, r.text.slice(r.state.ta.elements.find((e) => e.id === m.elementId)!.start).slice(0, 7)]),
    ).toEqual([
      ['deploy', '$deploy'],
      ['deploy', '$deploy'],
    ]);
  });
});
