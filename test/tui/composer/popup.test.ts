import { describe, expect, it } from 'vitest';
import { hasPopup, popupRows } from '../../../src/tui/composer/reducer.js';
import { charKey } from '../../../src/tui/keys/types.js';
import { Driver, fakeImageProbe } from './driver.js';

const skills = [
  { name: 'deploy', path: '/skills/deploy/SKILL.md', description: 'ship it' },
  { name: 'review', path: '/skills/review/SKILL.md' },
];

describe('slash command popup', () => {
  it('`/di` lists /diff; Tab completes `/diff `; Enter dispatches it', () => {
    const d = new Driver();
    d.type('/di');
    d.settle();
    const view = popupRows(d.state);
    expect(view?.kind).toBe('command');
    expect(view?.rows[0]?.label).toBe('/diff');
    d.key('tab');
    expect(d.text).toBe('/diff ');
    expect(hasPopup(d.state)).toBe(false);
    d.enter();
    expect(d.lastResult()).toEqual({ type: 'command', command: 'diff' });
  });

  it('`/` typed with a selected row completes it as text `/cmd ` (nothing dispatched)', () => {
    const d = new Driver();
    d.type('/di');
    d.settle();
    d.type('/');
    expect(d.text).toBe('/diff ');
    expect(d.cursor).toBe(6);
    expect(hasPopup(d.state)).toBe(false);
    expect(d.results).toEqual([]);
  });

  it('`/` after a complete command name inserts nothing and moves the caret to the end', () => {
    const d = new Driver();
    d.type('/diff');
    d.settle();
    d.key('home');
    d.key('right');
    expect(popupRows(d.state)?.rows[0]?.label).toBe('/diff');
    d.type('/');
    expect(d.text).toBe('/diff');
    expect(d.cursor).toBe(5);
    expect(d.results).toEqual([]);
  });

  it('`/` arriving inside a paste burst is pasted text, not a completion', () => {
    const d = new Driver();
    d.type('/');
    d.settle();
    expect(hasPopup(d.state)).toBe(true);
    d.type('usr/bin', 1);
    d.settle();
    expect(d.text).toBe('/usr/bin');
  });

  it('`/` completion keeps the lines below the command', () => {
    const d = new Driver();
    d.type('/di');
    d.key('enter', { shift: true });
    d.type('notes');
    d.settle();
    d.key('up');
    d.key('end');
    expect(popupRows(d.state)?.kind).toBe('command');
    d.type('/');
    expect(d.text).toBe('/diff \nnotes');
  });

  it('bare `/` shows every command; Up/Down move the selection with wrap-around', () => {
    const d = new Driver();
    d.type('/');
    d.settle();
    const n = popupRows(d.state)!.rows.length;
    expect(n).toBeGreaterThan(3);
    d.key('up');
    expect(popupRows(d.state)!.selected).toBe(n - 1);
    d.key('down');
    expect(popupRows(d.state)!.selected).toBe(0);
  });

  it('Enter on a selected row dispatches it and clears the text', () => {
    const d = new Driver();
    d.type('/sta');
    d.settle();
    d.enter();
    expect(d.lastResult()).toEqual({ type: 'command', command: 'status' });
    expect(d.text).toBe('');
  });

  it('Esc closes the popup and leaves the text; the same token does not reopen it', () => {
    const d = new Driver();
    d.type('/di');
    d.settle();
    d.key('escape');
    expect(hasPopup(d.state)).toBe(false);
    expect(d.text).toBe('/di');
    d.key('left');
    expect(hasPopup(d.state)).toBe(false);
    d.key('end');
    d.type('f');
    d.settle();
    expect(hasPopup(d.state)).toBe(true);
  });

  it('a name that matches no command keeps the popup with no rows; no popup once the caret left the token', () => {
    const d = new Driver();
    d.type('/zzz');
    d.settle();
    expect(popupRows(d.state)).toEqual({ kind: 'command', rows: [], selected: null });
    const e = new Driver();
    e.type('/diff x');
    e.settle();
    expect(hasPopup(e.state)).toBe(false);
  });

  it('an unavailable command selected while a task runs shows the error', () => {
    const d = new Driver();
    d.send({ type: 'setTaskRunning', running: true });
    d.type('/new');
    d.settle();
    expect(popupRows(d.state)?.rows[0]).toMatchObject({ label: '/new', disabled: true });
    const out = d.enter();
    expect(out.effects).toContainEqual({ type: 'error', text: "'/new' is disabled while a task is in progress." });
    expect(d.text).toBe('/new');
  });

  it('Tab completion keeps an attachment that follows the command', () => {
    const d = new Driver({ probeMedia: fakeImageProbe });
    d.type('/di ');
    d.settle();
    d.paste('/tmp/a.png');
    d.key('home');
    d.key('right');
    d.key('right');
    expect(hasPopup(d.state)).toBe(true);
    d.key('tab');
    expect(d.text).toBe('/diff [Image #1] ');
    expect(d.state.attachments.map((a) => a.placeholder)).toEqual(['[Image #1]']);
  });

  it('Tab on a command already typed out queues it while a task runs', () => {
    const d = new Driver();
    d.send({ type: 'setTaskRunning', running: true });
    d.type('/diff');
    d.settle();
    d.key('tab');
    expect(d.lastResult()).toMatchObject({ type: 'queued', action: 'parseSlash', text: '/diff' });
  });
});

describe('popups follow a held character flushed by the next key', () => {
  it('a key after a held char acts on the text on screen, not on the popup of one key earlier', () => {
    // Found by the property test: `/`, Alt+B (caret to 0), `a` held by the burst detector, Tab.
    const d = new Driver();
    d.send(charKey('/'), 1);
    d.alt('b', 1);
    d.send(charKey('a'), 5);
    expect(() => d.key('tab', {}, 20)).not.toThrow();
    // The screen shows `a/`: no command popup, so an idle Tab sends it like Enter.
    expect(d.results).toMatchObject([{ type: 'submitted', text: 'a/' }]);
    expect(hasPopup(d.state)).toBe(false);
  });
});

describe('file popup', () => {
  it('`@que` asks for a file search and shows the answer', () => {
    const d = new Driver();
    d.type('see @src');
    d.settle();
    expect(d.effects).toContainEqual({ type: 'fileSearch', query: 'src' });
    d.send({ type: 'fileSearchResult', query: 'src', paths: ['src/a.ts', 'src/b.ts'] });
    expect(popupRows(d.state)).toMatchObject({ kind: 'file', rows: [{ label: 'src/a.ts' }, { label: 'src/b.ts' }], selected: 0 });
    d.key('down');
    d.key('tab');
    expect(d.text).toBe('see src/b.ts ');
    expect(hasPopup(d.state)).toBe(false);
  });

  it('results for a stale query are ignored unless the token still starts with it', () => {
    const d = new Driver();
    d.type('@abc');
    d.settle();
    d.send({ type: 'fileSearchResult', query: 'xyz', paths: ['x'] });
    expect(popupRows(d.state)?.rows).toEqual([]);
    d.send({ type: 'fileSearchResult', query: 'ab', paths: ['abc.ts'] });
    expect(popupRows(d.state)?.rows).toEqual([{ label: 'abc.ts', highlight: [0, 1, 2] }]);
  });

  it('Enter with no match closes the popup and submits the text', () => {
    const d = new Driver();
    d.type('@zzzz');
    d.settle();
    d.send({ type: 'fileSearchResult', query: 'zzzz', paths: [] });
    d.enter();
    expect(d.lastResult()).toMatchObject({ type: 'submitted', text: '@zzzz' });
  });

  it('Tab with no match just closes the popup', () => {
    const d = new Driver();
    d.type('@zzzz');
    d.settle();
    d.key('tab');
    expect(d.results).toEqual([]);
    expect(hasPopup(d.state)).toBe(false);
    expect(d.text).toBe('@zzzz');
  });

  it('Enter with a selection inserts the path (quoted when it has spaces)', () => {
    const d = new Driver();
    d.type('@my');
    d.settle();
    d.send({ type: 'fileSearchResult', query: 'my', paths: ['my docs/notes.md'] });
    d.enter();
    expect(d.results).toEqual([]);
    expect(d.text).toBe('"my docs/notes.md" ');
  });

  it('an image path is attached instead of inserted', () => {
    const d = new Driver({ probeMedia: fakeImageProbe });
    d.type('@shot');
    d.settle();
    d.send({ type: 'fileSearchResult', query: 'shot', paths: ['shot.png'] });
    d.enter();
    expect(d.text).toBe('[Image #1] ');
    expect(d.state.attachments[0]?.path).toBe('shot.png');
  });

  it('a file completion keeps an earlier large-paste placeholder and its payload', () => {
    const d = new Driver();
    d.paste('z'.repeat(1001));
    d.type(' @a');
    d.settle();
    d.send({ type: 'fileSearchResult', query: 'a', paths: ['a.ts'] });
    d.key('tab');
    expect(d.text).toBe('[Pasted Content 1001 chars] a.ts ');
    d.enter();
    expect(d.lastResult()).toMatchObject({ text: `${'z'.repeat(1001)} a.ts` });
  });

  it('`foo@bar` is not a file token', () => {
    const d = new Driver();
    d.type('foo@bar');
    d.settle();
    expect(hasPopup(d.state)).toBe(false);
  });
});

describe('skill popup', () => {
  it('`$` lists skills only when some are known', () => {
    const d = new Driver();
    d.type('$de');
    d.settle();
    expect(hasPopup(d.state)).toBe(false);
    const e = new Driver({ skills });
    e.type('$de');
    e.settle();
    expect(popupRows(e.state)).toMatchObject({ kind: 'skill', rows: [{ label: '$deploy', description: 'ship it' }] });
  });

  it('Enter inserts an atomic mention bound to the skill, and never submits', () => {
    const d = new Driver({ skills });
    d.type('use $dep');
    d.settle();
    d.enter();
    expect(d.results).toEqual([]);
    expect(d.text).toBe('use $deploy ');
    expect(d.state.ta.elements).toMatchObject([{ kind: 'mention', start: 4, end: 11 }]);
    d.enter();
    expect(d.lastResult()).toMatchObject({
      type: 'submitted',
      text: 'use $deploy',
      textElements: [{ byte_range: { start: 4, end: 11 }, placeholder: '$deploy' }],
      mentions: [{ name: 'deploy', path: '/skills/deploy/SKILL.md' }],
    });
  });

  it('a recalled message keeps its mention binding', () => {
    const d = new Driver({ skills });
    d.type('$dep');
    d.settle();
    d.key('tab');
    d.type('now');
    d.settle();
    d.enter();
    d.key('up');
    d.enter();
    expect(d.lastResult()).toMatchObject({ text: '$deploy now', mentions: [{ name: 'deploy' }] });
  });

  it('deleting the mention drops its binding', () => {
    const d = new Driver({ skills });
    d.type('$rev');
    d.settle();
    d.key('tab');
    d.key('backspace');
    d.key('backspace');
    expect(d.state.mentions).toEqual([]);
  });
});
