import { describe, expect, it } from 'vitest';
import { validateTextElements } from '../../../src/protocol/text-element.js';
import { nextLargePastePlaceholder } from '../../../src/tui/composer/paste.js';
import { Driver, fakeImageProbe, image } from './driver.js';

const big = (n: number, ch = 'x') => ch.repeat(n);

describe('large paste placeholders', () => {
  it('a paste over 1000 chars becomes a placeholder and is expanded on submit', () => {
    const d = new Driver();
    d.paste(big(1001));
    expect(d.text).toBe('[Pasted Content 1001 chars]');
    expect(d.state.ta.elements).toHaveLength(1);
    d.enter();
    // The paste goes out as text; its element keeps the label, so the message can come back as typed.
    expect(d.lastResult()).toEqual({
      type: 'submitted',
      mode: 'enter',
      text: big(1001),
      textElements: [{ byte_range: { start: 0, end: 1001 }, placeholder: '[Pasted Content 1001 chars]' }],
      attachments: [],
    });
  });

  it('exactly 1000 chars is inserted literally', () => {
    const d = new Driver();
    d.paste(big(1000));
    expect(d.text).toBe(big(1000));
    expect(d.state.pendingPastes).toEqual([]);
  });

  it('counts characters, not UTF-16 units', () => {
    const d = new Driver();
    d.paste('😀'.repeat(1000));
    expect(d.state.pendingPastes).toEqual([]);
    d.paste('😀'.repeat(1001));
    expect(d.text.endsWith('[Pasted Content 1001 chars]')).toBe(true);
  });

  it('same-size pastes are numbered after the bracket', () => {
    const d = new Driver();
    d.paste(big(1004, 'a'));
    d.paste(big(1004, 'b'));
    expect(d.text).toBe('[Pasted Content 1004 chars][Pasted Content 1004 chars] #2');
  });

  it('numbering continues from the highest suffix after the first is deleted', () => {
    const d = new Driver();
    d.paste(big(1004, 'a'));
    d.paste(big(1004, 'b'));
    d.key('home');
    d.key('right');
    d.key('backspace');
    expect(d.text).toBe('[Pasted Content 1004 chars] #2');
    expect(d.state.pendingPastes.map((p) => p.text[0])).toEqual(['b']);
    d.key('end');
    d.paste(big(1004, 'c'));
    expect(d.text).toBe('[Pasted Content 1004 chars] #2[Pasted Content 1004 chars] #3');
  });

  it('the base label is reused after all same-size placeholders are deleted', () => {
    expect(nextLargePastePlaceholder([], 1200)).toBe('[Pasted Content 1200 chars]');
    const d = new Driver();
    d.paste(big(1200));
    d.paste(big(1200));
    d.key('backspace');
    d.key('backspace');
    expect(d.text).toBe('');
    d.paste(big(1200));
    expect(d.text).toBe('[Pasted Content 1200 chars]');
  });

  it('deleting one of two pastes expands only the other at submit', () => {
    const d = new Driver();
    d.paste(big(1004, 'a'));
    d.type(' and ');
    d.paste(big(1004, 'b'));
    d.key('backspace');
    d.enter();
    expect(d.lastResult()).toMatchObject({ type: 'submitted', text: `${big(1004, 'a')} and` });
  });

  it('Backspace with the caret at the end of a placeholder removes it whole; then nothing is sent', () => {
    const d = new Driver();
    d.paste(big(1001));
    d.key('left');
    expect(d.cursor).toBe(0);
    d.key('right');
    expect(d.cursor).toBe(d.text.length);
    d.key('backspace');
    expect(d.text).toBe('');
    expect(d.state.pendingPastes).toEqual([]);
    d.enter();
    expect(d.results).toEqual([]);
  });

  it('several pastes and text expand in order', () => {
    const d = new Driver();
    d.type('A ');
    d.paste(big(1001, 'p'));
    d.type(' B ');
    d.paste(big(1002, 'q'));
    d.settle();
    d.enter();
    expect(d.lastResult()).toMatchObject({ text: `A ${big(1001, 'p')} B ${big(1002, 'q')}` });
  });

  it('leading whitespace in a paste is trimmed and image elements shift with it', () => {
    const d = new Driver();
    d.paste(`   ${big(1001)}`);
    d.type(' ');
    d.send({ type: 'attach', attachment: image('/tmp/a.png') });
    d.enter();
    const r = d.lastResult();
    const text = `${big(1001)} [Image #1]`;
    expect(r).toMatchObject({ text });
    if (r?.type === 'submitted') {
      const start = Buffer.byteLength(big(1001)) + 1;
      expect(r.textElements).toEqual([
        { byte_range: { start: 0, end: start - 1 }, placeholder: '[Pasted Content 1004 chars]' },
        { byte_range: { start, end: start + 10 }, placeholder: '[Image #1]' },
      ]);
      expect(validateTextElements(r.text, r.textElements)).toEqual({ ok: true });
    }
  });

  it('CRLF and lone CR in a paste become LF', () => {
    const d = new Driver();
    d.paste('a\r\nb\rc');
    expect(d.text).toBe('a\nb\nc');
    d.paste(`\r\n${'y'.repeat(1001)}`);
    expect(d.state.pendingPastes[0]!.text.startsWith('\ny')).toBe(true);
    expect(d.state.pendingPastes[0]!.text.length).toBe(1002);
  });

  it('a refused submission keeps the pending paste payload', () => {
    const d = new Driver();
    d.type('/nope ');
    d.paste(big(1001));
    d.enter();
    expect(d.results).toEqual([]);
    expect(d.text).toBe('/nope [Pasted Content 1001 chars]');
    expect(d.state.pendingPastes).toHaveLength(1);
    d.key('home');
    d.key('delete');
    d.enter();
    expect(d.lastResult()).toMatchObject({ type: 'submitted', text: `nope ${big(1001)}` });
  });

  it('Ctrl+C keeps the pending paste in history so Up restores label and payload', () => {
    const d = new Driver();
    d.paste(big(1001));
    d.ctrl('c');
    expect(d.text).toBe('');
    d.key('up');
    expect(d.text).toBe('[Pasted Content 1001 chars]');
    d.enter();
    expect(d.lastResult()).toMatchObject({ text: big(1001) });
  });

  it('numbering starts again at the base label after a Ctrl+C clear', () => {
    const d = new Driver();
    d.paste(big(1001));
    d.ctrl('c');
    d.paste(big(1001));
    expect(d.text).toBe('[Pasted Content 1001 chars]');
  });
});

describe('images', () => {
  it('a pasted image path attaches `[Image #1]` and a space', () => {
    const d = new Driver({ probeMedia: fakeImageProbe });
    d.paste('/tmp/a.png');
    expect(d.text).toBe('[Image #1] ');
    d.type('describe');
    d.settle();
    d.enter();
    const r = d.lastResult();
    expect(r).toMatchObject({
      type: 'submitted',
      text: '[Image #1] describe',
      textElements: [{ byte_range: { start: 0, end: 10 }, placeholder: '[Image #1]' }],
    });
    expect(r?.type === 'submitted' && r.attachments[0]).toMatchObject({ path: '/tmp/a.png', placeholder: '[Image #1]' });
  });

  it('a path that is not media is pasted as text', () => {
    const d = new Driver({ probeMedia: fakeImageProbe });
    d.paste('/tmp/a.txt');
    expect(d.text).toBe('/tmp/a.txt');
    expect(d.state.attachments).toEqual([]);
  });

  it('the same path attached twice gets two labels', () => {
    const d = new Driver({ probeMedia: fakeImageProbe });
    d.paste('/tmp/a.png');
    d.paste('/tmp/a.png');
    expect(d.text).toBe('[Image #1] [Image #2] ');
  });

  it('deleting the first image renumbers the others in place', () => {
    const d = new Driver({ probeMedia: fakeImageProbe });
    d.paste('/tmp/a.png');
    d.paste('/tmp/b.png');
    d.key('home');
    d.key('delete');
    expect(d.text).toBe(' [Image #1] ');
    expect(d.state.attachments.map((a) => [a.path, a.placeholder])).toEqual([['/tmp/b.png', '[Image #1]']]);
    d.enter();
    expect(d.lastResult()).toMatchObject({ text: '', attachments: [{ path: '/tmp/b.png', placeholder: '[Image #1]' }] });
  });

  it('renumbering follows attachment order, not position', () => {
    const d = new Driver({ probeMedia: fakeImageProbe });
    d.type('x');
    d.settle();
    d.paste('/tmp/a.png');
    d.key('home');
    d.paste('/tmp/b.png');
    expect(d.text).toBe('[Image #2] x[Image #1] ');
    d.key('end');
    d.key('left');
    d.key('backspace');
    expect(d.text).toBe('[Image #1] x ');
  });

  it('Backspace after multibyte text before a placeholder removes just the placeholder', () => {
    const d = new Driver({ probeMedia: fakeImageProbe });
    d.type('你好');
    d.settle();
    d.paste('/tmp/a.png');
    d.key('backspace');
    d.key('backspace');
    expect(d.text).toBe('你好');
    expect(d.state.attachments).toEqual([]);
  });

  it('audio gets its own `[Audio #N]` sequence', () => {
    const d = new Driver();
    d.send({ type: 'attach', attachment: { ...image('/tmp/a.wav'), kind: 'audio', mime: 'audio/wav' } });
    d.send({ type: 'attach', attachment: image('/tmp/a.png') });
    expect(d.text).toBe('[Audio #1] [Image #1] ');
  });
});
