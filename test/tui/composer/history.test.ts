import { describe, expect, it } from 'vitest';
import { footerHint, isHistorySearching } from '../../../src/tui/composer/reducer.js';
import { Driver, fakeImageProbe } from './driver.js';

function submitAll(d: Driver, texts: string[]): void {
  for (const t of texts) {
    d.type(t);
    d.settle();
    d.enter();
  }
}

describe('history navigation in the composer', () => {
  it('Up on an empty composer recalls the newest entry, caret at the end', () => {
    const d = new Driver();
    submitAll(d, ['one', 'two']);
    d.key('up');
    expect(d.text).toBe('two');
    expect(d.cursor).toBe(3);
    d.key('up');
    expect(d.text).toBe('one');
    d.key('down');
    expect(d.text).toBe('two');
    d.key('down');
    expect(d.text).toBe('');
  });

  it('Up with edited text moves the caret instead of navigating', () => {
    const d = new Driver();
    submitAll(d, ['old']);
    d.type('line1');
    d.key('enter', { shift: true });
    d.type('line2');
    d.settle();
    d.key('up');
    expect(d.text).toBe('line1\nline2');
    expect(d.cursor).toBe(5);
  });

  it('navigates only with the caret at the start or end of the recalled entry', () => {
    const d = new Driver();
    submitAll(d, ['first', 'second entry']);
    d.key('up');
    d.key('left');
    d.key('up');
    expect(d.text).toBe('second entry');
    d.key('home');
    d.key('up');
    expect(d.text).toBe('first');
  });

  it('editing a recalled entry ends browsing, so popups work again', () => {
    const d = new Driver();
    submitAll(d, ['hello']);
    d.key('up');
    d.type(' @sr');
    d.settle();
    expect(d.state.popup?.kind).toBe('file');
  });

  it('recalled entries bring their images back', () => {
    const d = new Driver({ probeMedia: fakeImageProbe });
    d.paste('/tmp/a.png');
    d.type('look');
    d.settle();
    d.enter();
    d.key('up');
    expect(d.text).toBe('[Image #1] look');
    expect(d.state.attachments.map((a) => a.path)).toEqual(['/tmp/a.png']);
    d.enter();
    expect(d.lastResult()).toMatchObject({ attachments: [{ path: '/tmp/a.png' }] });
  });

  it('an image-only entry is recalled with its label', () => {
    const d = new Driver({ probeMedia: fakeImageProbe });
    d.paste('/tmp/a.png');
    d.enter();
    d.key('up');
    expect(d.text).toBe('[Image #1] ');
    expect(d.state.attachments).toHaveLength(1);
  });

  it('persistent entries come before this session’s and are recalled as text', () => {
    const d = new Driver();
    d.send({ type: 'loadPersistentHistory', entries: ['from yesterday'] });
    submitAll(d, ['today']);
    d.key('up');
    d.key('up');
    expect(d.text).toBe('from yesterday');
  });

  it('slash commands are recorded after dispatch', () => {
    const d = new Driver();
    d.type('/diff');
    d.settle();
    d.enter();
    d.key('up');
    expect(d.text).toBe('/diff');
  });

  it('a recalled `!` entry comes back in shell mode', () => {
    const d = new Driver();
    submitAll(d, ['!ls']);
    d.key('up');
    expect(d.state.bashMode).toBe(true);
    expect(d.text).toBe('ls');
  });
});

describe('Ctrl+R history search', () => {
  it('finds the newest match, older ones on Ctrl+R, and Enter makes it the draft', () => {
    const d = new Driver();
    submitAll(d, ['alpha build', 'beta', 'gamma build']);
    d.type('draft');
    d.settle();
    d.ctrl('r');
    expect(footerHint(d.state)).toBe('reverse-i-search: ');
    d.type('build');
    expect(footerHint(d.state)).toBe('reverse-i-search: build');
    expect(d.text).toBe('gamma build');
    d.ctrl('r');
    expect(d.text).toBe('alpha build');
    d.enter();
    expect(d.results.filter((r) => r.type === 'submitted')).toHaveLength(3);
    expect(d.text).toBe('alpha build');
    expect(isHistorySearching(d.state)).toBe(false);
  });

  it('Esc restores the draft from before the search', () => {
    const d = new Driver();
    submitAll(d, ['alpha']);
    d.type('mine');
    d.settle();
    d.ctrl('r');
    d.type('alp');
    expect(d.text).toBe('alpha');
    d.key('escape');
    expect(d.text).toBe('mine');
  });

  it('Ctrl+C cancels the search before anything else', () => {
    const d = new Driver();
    submitAll(d, ['alpha']);
    d.type('mine');
    d.settle();
    d.ctrl('r');
    d.type('a');
    const out = d.ctrl('c');
    expect(out.handled).toBe(true);
    expect(d.text).toBe('mine');
  });
});
