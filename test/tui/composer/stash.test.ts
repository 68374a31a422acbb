import { describe, expect, it } from 'vitest';
import { footerHint } from '../../../src/tui/composer/reducer.js';
import { STASH_HINT } from '../../../src/tui/composer/stash.js';
import { charKey } from '../../../src/tui/keys/types.js';
import { Driver, image } from './driver.js';

describe('prompt stash (Ctrl+S)', () => {
  it('stashes the whole draft and clears the composer; Ctrl+S on the empty composer brings it back', () => {
    const d = new Driver();
    d.paste('q'.repeat(1100));
    d.type(' look ');
    d.settle();
    d.send({ type: 'attach', attachment: image('/shot.png') });
    const text = d.text;
    const cursor = d.cursor;
    expect(text).toBe('[Pasted Content 1100 chars] look [Image #1] ');
    d.ctrl('s');
    expect(d.text).toBe('');
    expect(d.state.attachments).toEqual([]);
    expect(d.state.pendingPastes).toEqual([]);
    expect(footerHint(d.state)).toBe(STASH_HINT);
    expect(STASH_HINT).toBe('Stashed — Ctrl+S brings it back');
    d.ctrl('s');
    expect(d.text).toBe(text);
    expect(d.cursor).toBe(cursor);
    expect(d.state.attachments.map((a) => [a.placeholder, a.path])).toEqual([['[Image #1]', '/shot.png']]);
    expect(d.state.ta.elements.map((e) => d.text.slice(e.start, e.end))).toEqual(['[Pasted Content 1100 chars]', '[Image #1]']);
    expect(footerHint(d.state)).toBe('? for shortcuts');
    d.enter();
    expect(d.lastResult()).toMatchObject({
      type: 'submitted',
      text: `${'q'.repeat(1100)} look [Image #1]`,
      attachments: [{ path: '/shot.png' }],
    });
  });

  it('the next submit brings the stash back after it', () => {
    const d = new Driver();
    d.type('long draft');
    d.settle();
    d.ctrl('s');
    d.type('quick question');
    d.settle();
    d.enter();
    expect(d.lastResult()).toMatchObject({ type: 'submitted', text: 'quick question' });
    expect(d.text).toBe('long draft');
    expect(d.state.stash).toBeNull();
  });

  it('a command submit brings it back too', () => {
    const d = new Driver();
    d.type('draft');
    d.settle();
    d.ctrl('s');
    d.type('/diff');
    d.settle();
    d.enter();
    expect(d.lastResult()).toEqual({ type: 'command', command: 'diff' });
    expect(d.text).toBe('draft');
  });

  it('Ctrl+S on another draft swaps it with the stash', () => {
    const d = new Driver();
    d.type('first');
    d.settle();
    d.ctrl('s');
    d.type('second');
    d.settle();
    d.ctrl('s');
    expect(d.text).toBe('first');
    expect(footerHint(d.state)).toBe(STASH_HINT);
    d.ctrl('s');
    expect(d.text).toBe('second');
  });

  it('Ctrl+S on an empty composer with no stash does nothing', () => {
    const d = new Driver();
    d.ctrl('s');
    expect(d.text).toBe('');
    expect(d.state.stash).toBeNull();
  });

  it('the stashed draft keeps its own undo history; the composer starts a fresh one', () => {
    const d = new Driver();
    d.type('ab cd');
    d.settle();
    d.ctrl('s');
    d.send(charKey('z', { ctrl: true }));
    expect(d.text).toBe('');
    d.ctrl('s');
    expect(d.text).toBe('ab cd');
    d.send(charKey('z', { ctrl: true }));
    expect(d.text).toBe('ab ');
  });

  it('shell mode is stashed with the draft', () => {
    const d = new Driver();
    d.type('!ls');
    d.settle();
    expect(d.state.bashMode).toBe(true);
    d.ctrl('s');
    expect(d.state.bashMode).toBe(false);
    d.ctrl('s');
    expect(d.state.bashMode).toBe(true);
    expect(d.text).toBe('ls');
  });

  it('in Ctrl+R search, Ctrl+S still searches newer', () => {
    const d = new Driver();
    d.type('old');
    d.settle();
    d.enter();
    d.type('draft');
    d.settle();
    d.ctrl('r');
    d.ctrl('s');
    expect(d.state.stash).toBeNull();
  });
});
