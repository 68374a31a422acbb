/**
 * /inspect runs on the draft wherever it is typed: the popup opens for a `/` that starts a word,
 * accepting it takes out only the `/ins…` typed, and the draft (text, caret, placeholders with their
 * payloads, attachments, undo history) is as it was before the `/`.
 */
import { describe, expect, it } from 'vitest';
import { hasPopup, popupRows } from '../../../src/tui/composer/reducer.js';
import { draftSubmission } from '../../../src/tui/composer/submission.js';
import type { ComposerState } from '../../../src/tui/composer/state.js';
import { Driver, image } from './driver.js';

const PASTE = 'p'.repeat(5000);

/** Everything the user sees of the draft, and its undo history. */
function draftOf(s: ComposerState) {
  return {
    text: s.ta.text,
    cursor: s.ta.cursor,
    elements: s.ta.elements,
    pendingPastes: s.pendingPastes,
    attachments: s.attachments,
    undo: s.undo,
  };
}

/** `look at ` + a 5,000-char paste + an image + ` and this`, the caret before `and`. */
function draft(): Driver {
  const d = new Driver();
  d.type('look at ');
  d.paste(PASTE);
  d.send({ type: 'attach', attachment: image('/tmp/shot.png') });
  d.type('and this');
  d.settle();
  for (let i = 0; i < 'and this'.length; i++) d.key('left');
  d.settle();
  return d;
}

describe('/inspect inside a draft', () => {
  it('a `/` and a letter after a blank open the popup with /inspect; Enter runs it and the draft is exactly as before the `/`', () => {
    const d = draft();
    const before = draftOf(d.state);
    expect(d.text).toBe('look at [Pasted Content 5000 chars][Image #1] and this');
    d.type('/');
    d.settle();
    // A bare `/` in a message is text: Enter there still sends.
    expect(hasPopup(d.state)).toBe(false);
    d.type('i');
    d.settle();
    expect(popupRows(d.state)).toMatchObject({ kind: 'command', rows: [{ label: '/inspect' }], selected: 0 });
    d.type('ns');
    d.settle();
    expect(popupRows(d.state)?.rows.map((r) => r.label)).toEqual(['/inspect']);
    d.enter();
    expect(d.lastResult()).toEqual({ type: 'command', command: 'inspect' });
    expect(draftOf(d.state)).toEqual(before);
    expect(hasPopup(d.state)).toBe(false);
    // The paste stays one placeholder with its payload; sent, it is the whole text.
    expect(d.state.pendingPastes).toEqual([{ placeholder: '[Pasted Content 5000 chars]', text: PASTE }]);
    expect(draftSubmission(d.state)?.text).toBe(`look at ${PASTE}[Image #1] and this`);
  });

  it('Tab runs it too; a `/` typed in it is text (a path)', () => {
    const d = draft();
    const before = draftOf(d.state);
    d.type('/in');
    d.settle();
    d.key('tab');
    expect(d.lastResult()).toEqual({ type: 'command', command: 'inspect' });
    expect(draftOf(d.state)).toEqual(before);
    d.type('/in/x');
    d.settle();
    expect(d.text).toBe('look at [Pasted Content 5000 chars][Image #1] /in/xand this');
    expect(d.state.pendingPastes).toHaveLength(1);
    expect(hasPopup(d.state)).toBe(false);
  });

  it('leaves no undo step: Ctrl+Z after it undoes the typing before the `/`', () => {
    const d = new Driver();
    d.type('hello /ins');
    d.settle();
    d.enter();
    expect(d.text).toBe('hello ');
    d.ctrl('z');
    expect(d.text).toBe('');
  });

  it('no popup for a `/` inside a word, a path, a name no draft command starts, or in Vim Normal mode', () => {
    for (const typed of ['a/b', 'see /usr', 'see /usr/bin', 'x /status']) {
      const d = new Driver();
      d.type(typed);
      d.settle();
      expect(hasPopup(d.state)).toBe(false);
    }
    const v = new Driver({ vimEnabled: true });
    v.type('ia /');
    v.key('escape');
    v.settle();
    expect(hasPopup(v.state)).toBe(false);
  });

  it('a `/` typed before the first word of a draft offers /inspect, and Enter keeps the draft', () => {
    const d = new Driver();
    d.type('look');
    d.key('home');
    d.settle();
    const before = draftOf(d.state);
    d.type('/i');
    d.settle();
    expect(popupRows(d.state)?.rows.map((r) => r.label)).toEqual(['/inspect']);
    d.enter();
    expect(d.lastResult()).toEqual({ type: 'command', command: 'inspect' });
    expect(draftOf(d.state)).toEqual(before);
  });
});

describe('/inspect at the start', () => {
  it('from the popup on an empty draft: the command, nothing left', () => {
    const d = new Driver();
    d.type('/insp');
    d.settle();
    d.enter();
    expect(d.lastResult()).toEqual({ type: 'command', command: 'inspect' });
    expect(d.text).toBe('');
  });

  it('on its own line above a draft: only that line goes', () => {
    const d = new Driver();
    d.type('/inspect');
    d.key('enter', { shift: true });
    d.type('look');
    d.paste(PASTE);
    d.settle();
    d.enter();
    expect(d.lastResult()).toEqual({ type: 'command', command: 'inspect' });
    expect(d.text).toBe('look[Pasted Content 5000 chars]');
    expect(d.cursor).toBe(d.text.length);
    expect(d.state.pendingPastes).toHaveLength(1);
  });

  it('the other commands still clear the draft; `/zzz` still says no matches', () => {
    const d = new Driver();
    d.type('/sta');
    d.settle();
    d.enter();
    expect(d.lastResult()).toEqual({ type: 'command', command: 'status' });
    expect(d.text).toBe('');
    d.type('/zzz');
    d.settle();
    expect(popupRows(d.state)).toEqual({ kind: 'command', rows: [], selected: null });
  });
});
