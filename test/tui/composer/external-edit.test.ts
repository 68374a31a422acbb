/** Ctrl+G (docs/codex-parity.md#external-editor): what the editor gets, and how its text replaces the draft. */
import { describe, expect, it } from 'vitest';
import { validateTextElements } from '../../../src/protocol/text-element.js';
import { Driver, image } from './driver.js';

function editorRequest(d: Driver): string {
  const effect = d.effects.findLast((e) => e.type === 'openExternalEditor');
  if (effect?.type !== 'openExternalEditor') throw new Error('no openExternalEditor effect');
  return effect.text;
}

describe('Ctrl+G external editor', () => {
  it('asks for the editor with the draft, large pastes expanded, and leaves the draft as it is', () => {
    const d = new Driver();
    d.type('before ');
    d.paste('x'.repeat(1001));
    d.ctrl('g');
    expect(editorRequest(d)).toBe(`before ${'x'.repeat(1001)}`);
    expect(d.text).toBe('before [Pasted Content 1001 chars]');
    expect(d.last.handled).toBe(true);
  });

  it('replaces the draft with what the editor saved: pending pastes gone, caret at the end, final newline dropped', () => {
    const d = new Driver();
    d.paste('y'.repeat(1200));
    d.ctrl('g');
    d.send({ type: 'externalEditResult', text: 'a new\r\nmessage\n\n' });
    expect(d.text).toBe('a new\nmessage');
    expect(d.state.pendingPastes).toEqual([]);
    expect(d.state.ta.elements).toEqual([]);
    expect(d.cursor).toBe(d.text.length);
    d.enter();
    expect(d.lastResult()).toEqual({ type: 'submitted', mode: 'enter', text: 'a new\nmessage', textElements: [], attachments: [] });
  });

  it('keeps the attachments whose labels are still there, one per occurrence, and renumbers them', () => {
    const d = new Driver();
    d.send({ type: 'attach', attachment: image('/tmp/a.png') });
    d.send({ type: 'attach', attachment: image('/tmp/b.png') });
    d.send({ type: 'attach', attachment: image('/tmp/c.png') });
    d.ctrl('g');
    expect(editorRequest(d)).toBe('[Image #1] [Image #2] [Image #3] ');
    d.send({ type: 'externalEditResult', text: 'compare [Image #3] with [Image #2]\n' });
    expect(d.text).toBe('compare [Image #1] with [Image #2]');
    expect(d.state.attachments.map((a) => [a.path, a.placeholder])).toEqual([
      ['/tmp/c.png', '[Image #1]'],
      ['/tmp/b.png', '[Image #2]'],
    ]);
    d.enter();
    const r = d.lastResult();
    if (r?.type !== 'submitted') throw new Error('not submitted');
    expect(validateTextElements(r.text, r.textElements)).toEqual({ ok: true });
    expect(r.textElements.map((e) => e.placeholder)).toEqual(['[Image #1]', '[Image #2]']);
  });

  it('a label typed twice binds one attachment; the second stays text', () => {
    const d = new Driver();
    d.send({ type: 'attach', attachment: image('/tmp/a.png') });
    d.send({ type: 'externalEditResult', text: '[Image #1] and again [Image #1]' });
    expect(d.state.attachments).toHaveLength(1);
    expect(d.state.ta.elements).toHaveLength(1);
    expect(d.state.ta.elements[0]!.start).toBe(0);
  });

  it('a leading ! comes back as shell mode', () => {
    const d = new Driver();
    d.send({ type: 'externalEditResult', text: '!ls -la\n' });
    expect(d.state.bashMode).toBe(true);
    expect(d.text).toBe('ls -la');
  });
});
