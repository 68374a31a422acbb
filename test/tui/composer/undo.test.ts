import { describe, expect, it } from 'vitest';
import { KeyParser } from '../../../src/tui/keys/parser.js';
import { charKey, key, type KeyEvent } from '../../../src/tui/keys/types.js';
import { COALESCE_MS, EMPTY_UNDO, recordChange, redo, sealRun, undo } from '../../../src/tui/composer/undo.js';
import type { DraftSnapshot, UndoHistory } from '../../../src/tui/composer/draft-types.js';
import { Driver, fakeImageProbe, image } from './driver.js';

function snap(text: string, cursor = text.length): DraftSnapshot {
  return { text, cursor, elements: [], bashMode: false, pendingPastes: [], attachments: [], mentions: [] };
}

/** Types `text` one char at a time into the pure history, `stepMs` apart from `t0`. */
function typeInto(h0: UndoHistory, from: string, text: string, t0: number, stepMs = 100): { h: UndoHistory; text: string; t: number } {
  let h = h0;
  let cur = from;
  let t = t0;
  for (const ch of text) {
    t += stepMs;
    h = recordChange(h, snap(cur), snap(cur + ch), 'type', t);
    cur += ch;
  }
  return { h, text: cur, t };
}

function undoAll(h0: UndoHistory, current: DraftSnapshot): string[] {
  const seen: string[] = [];
  let h = h0;
  let cur = current;
  for (;;) {
    const r = undo(h, cur);
    if (r === null) return seen;
    seen.push(r.draft.text);
    h = r.history;
    cur = r.draft;
  }
}

describe('undo history (pure)', () => {
  it('a typed run undoes a word at a time: a non-blank after a blank starts a step', () => {
    const { h, text } = typeInto(EMPTY_UNDO, '', 'hello world', 0);
    expect(undoAll(h, snap(text))).toEqual(['hello ', '']);
  });

  it('a pause longer than COALESCE_MS ends a run; exactly COALESCE_MS does not', () => {
    let h = recordChange(EMPTY_UNDO, snap(''), snap('a'), 'type', 0);
    h = recordChange(h, snap('a'), snap('ab'), 'type', COALESCE_MS);
    h = recordChange(h, snap('ab'), snap('abc'), 'type', 2 * COALESCE_MS + 1);
    expect(undoAll(h, snap('abc'))).toEqual(['ab', '']);
  });

  it('a caret move ends a run (the next char starts from elsewhere)', () => {
    let h = recordChange(EMPTY_UNDO, snap(''), snap('a'), 'type', 0);
    h = recordChange(h, snap('a'), snap('ab'), 'type', 10);
    // Caret moved to 1 (no text change), then a char typed there.
    h = recordChange(h, snap('ab', 2), snap('ab', 1), 'edit', 20);
    h = recordChange(h, snap('ab', 1), snap('axb', 2), 'type', 30);
    expect(undoAll(h, snap('axb', 2))).toEqual(['ab', '']);
  });

  it('sealRun ends a run explicitly', () => {
    let h = recordChange(EMPTY_UNDO, snap(''), snap('a'), 'type', 0);
    h = sealRun(h);
    h = recordChange(h, snap('a'), snap('ab'), 'type', 10);
    expect(undoAll(h, snap('ab'))).toEqual(['a', '']);
  });

  it('paste, attach, completion, kill and yank are one step each, never joined', () => {
    let h = EMPTY_UNDO;
    const texts = ['', 'p', 'pp', 'ppp', 'pppp', 'ppppp', 'pppppp'];
    const kinds = ['paste', 'paste', 'attach', 'completion', 'kill', 'yank'] as const;
    kinds.forEach((kind, i) => {
      h = recordChange(h, snap(texts[i]!), snap(texts[i + 1]!), kind, i);
    });
    expect(h.past).toHaveLength(6);
  });

  it('Backspaces coalesce into one delete step', () => {
    let h = recordChange(EMPTY_UNDO, snap('abc'), snap('ab'), 'delete', 0);
    h = recordChange(h, snap('ab'), snap('a'), 'delete', 50);
    expect(undoAll(h, snap('a'))).toEqual(['abc']);
  });

  it('a history browse is one step, and one that ends where it started leaves none', () => {
    let h = recordChange(EMPTY_UNDO, snap('draft'), snap('older'), 'recall', 0);
    h = recordChange(h, snap('older'), snap('oldest'), 'recall', 5_000);
    expect(undoAll(h, snap('oldest'))).toEqual(['draft']);
    const back = recordChange(h, snap('oldest'), snap('draft'), 'recall', 6_000);
    expect(back.past).toEqual([]);
  });

  it('redo replays what undo took back; a new change drops the redo list', () => {
    const { h, text } = typeInto(EMPTY_UNDO, '', 'ab cd', 0);
    const u1 = undo(h, snap(text))!;
    expect(u1.draft.text).toBe('ab ');
    const r1 = redo(u1.history, u1.draft)!;
    expect(r1.draft.text).toBe('ab cd');
    expect(redo(r1.history, r1.draft)).toBeNull();
    const changed = recordChange(u1.history, u1.draft, snap('ab x'), 'type', 10_000);
    expect(redo(changed, snap('ab x'))).toBeNull();
  });

  it('a change that only moves the caret records nothing', () => {
    const h = recordChange(EMPTY_UNDO, snap('ab', 2), snap('ab', 0), 'edit', 0);
    expect(h.past).toEqual([]);
    expect(undo(h, snap('ab', 0))).toBeNull();
  });
});

const CTRL_Z = charKey('z', { ctrl: true });
const REDO = charKey('z', { ctrl: true, shift: true });

describe('undo in the composer', () => {
  it('Ctrl+Z takes back typed words, Ctrl+Shift+Z brings them back', () => {
    const d = new Driver();
    d.type('hello big world');
    d.settle();
    d.send(CTRL_Z);
    expect(d.text).toBe('hello big ');
    d.send(CTRL_Z);
    expect(d.text).toBe('hello ');
    d.send(REDO);
    expect(d.text).toBe('hello big ');
    expect(d.cursor).toBe(10);
    d.send(charKey('_', { alt: true }));
    expect(d.text).toBe('hello big world');
  });

  it('Ctrl+Z just after a held character stays undoes it with its word, as after the tick; a burst that just went idle as one paste', () => {
    // 'hello wor', then 'l' and 'd' typed (each held, drawn), then Ctrl+Z with no tick between,
    // 9 ms after the 'd' (past the 8 ms hold) or read with it: the whole word goes, as it would later.
    for (const gap of [9, 0, 50]) {
      const d = new Driver();
      d.type('hello world');
      if (gap === 50) d.tick(50);
      d.send(CTRL_Z, gap === 50 ? 100 : gap);
      expect(d.text, `Ctrl+Z ${gap} ms after the last key`).toBe('hello ');
      d.send(REDO);
      expect(d.text).toBe('hello world');
    }
    const p = new Driver();
    for (const ch of 'pasted words') p.send(charKey(ch), 1);
    p.send(CTRL_Z, 200);
    expect(p.text).toBe('');
    p.send(REDO);
    expect(p.text).toBe('pasted words');
  });

  it('Ctrl+_ undoes too; a pause over a second splits a word', () => {
    const d = new Driver();
    d.type('ab');
    d.settle();
    d.type('cd', 1_500);
    d.settle();
    d.send(charKey('_', { ctrl: true }));
    expect(d.text).toBe('ab');
  });

  it('a caret move splits a run', () => {
    const d = new Driver();
    d.type('abc');
    d.key('left');
    d.type('X');
    d.settle();
    expect(d.text).toBe('abXc');
    d.send(CTRL_Z);
    expect(d.text).toBe('abc');
    d.send(CTRL_Z);
    expect(d.text).toBe('');
  });

  it('a paste is one step, apart from the typing before it', () => {
    const d = new Driver();
    d.type('see');
    d.settle();
    d.paste(' the whole thing');
    d.send(CTRL_Z);
    expect(d.text).toBe('see');
    d.send(CTRL_Z);
    expect(d.text).toBe('');
  });

  it('a large paste comes back as a placeholder with its payload', () => {
    const d = new Driver();
    const big = 'x'.repeat(1200);
    d.paste(big);
    d.key('backspace');
    expect(d.state.pendingPastes).toEqual([]);
    d.send(CTRL_Z);
    expect(d.text).toBe('[Pasted Content 1200 chars]');
    expect(d.state.pendingPastes).toEqual([{ placeholder: '[Pasted Content 1200 chars]', text: big }]);
    d.enter();
    expect(d.lastResult()).toMatchObject({ type: 'submitted', text: big });
  });

  it('an unbracketed paste burst (taking back the chars typed fast before it) is one step', () => {
    const d = new Driver();
    d.type('hi ');
    d.settle();
    for (const ch of 'pasted text here') d.send(charKey(ch), 1);
    d.settle();
    expect(d.text).toBe('hi pasted text here');
    d.send(CTRL_Z);
    expect(d.text).toBe('hi ');
  });

  it('an attachment is one step; undo after deleting one restores it with its number', () => {
    const d = new Driver({ probeMedia: fakeImageProbe });
    d.send({ type: 'attach', attachment: image('/a.png') });
    d.send({ type: 'attach', attachment: image('/b.png') });
    expect(d.text).toBe('[Image #1] [Image #2] ');
    // Delete image 1: image 2 becomes #1.
    d.key('home');
    d.key('delete');
    expect(d.text).toBe(' [Image #1] ');
    expect(d.state.attachments.map((a) => [a.placeholder, a.path])).toEqual([['[Image #1]', '/b.png']]);
    d.send(CTRL_Z);
    expect(d.text).toBe('[Image #1] [Image #2] ');
    expect(d.state.attachments.map((a) => [a.placeholder, a.path])).toEqual([
      ['[Image #1]', '/a.png'],
      ['[Image #2]', '/b.png'],
    ]);
    expect(d.state.ta.elements.map((e) => d.text.slice(e.start, e.end))).toEqual(['[Image #1]', '[Image #2]']);
    d.send(CTRL_Z);
    expect(d.text).toBe('[Image #1] ');
    expect(d.state.attachments.map((a) => a.path)).toEqual(['/a.png']);
    d.send(CTRL_Z);
    expect(d.text).toBe('');
    expect(d.state.attachments).toEqual([]);
  });

  it('a popup completion is one step', () => {
    const d = new Driver();
    d.type('/di');
    d.settle();
    d.key('tab');
    expect(d.text).toBe('/diff ');
    d.send(CTRL_Z);
    expect(d.text).toBe('/di');
    const skills = [{ name: 'deploy', path: '/s/deploy/SKILL.md' }];
    const e = new Driver({ skills });
    e.type('use $de');
    e.settle();
    e.key('tab');
    expect(e.state.mentions).toHaveLength(1);
    e.send(CTRL_Z);
    expect(e.text).toBe('use $de');
    expect(e.state.mentions).toEqual([]);
    e.send(REDO);
    expect(e.text).toBe('use $deploy ');
    expect(e.state.mentions.map((m) => m.name)).toEqual(['deploy']);
  });

  it('submitting clears the history', () => {
    const d = new Driver();
    d.type('one');
    d.settle();
    d.enter();
    expect(d.lastResult()).toMatchObject({ type: 'submitted', text: 'one' });
    d.send(CTRL_Z);
    expect(d.text).toBe('');
    expect(d.state.undo.past).toEqual([]);
  });

  it('undo flushes a burst in flight first, then takes it back', () => {
    const d = new Driver();
    for (const ch of 'abcdef') d.send(charKey(ch), 1);
    d.send(CTRL_Z, 1);
    expect(d.text).toBe('');
    d.send(REDO);
    expect(d.text).toBe('abcdef');
  });
});

describe('the undo keys from the terminal', () => {
  function parse(bytes: string): KeyEvent[] {
    const p = new KeyParser();
    return p.feed(bytes, 0).filter((e): e is KeyEvent => e.type === 'key');
  }

  it('0x1a (Ctrl+Z in raw mode) and 0x1f (Ctrl+_) undo; kitty Ctrl+Shift+Z and Alt+_ redo', () => {
    const d = new Driver();
    d.type('a b');
    d.settle();
    for (const ev of parse('\x1a')) d.send(ev);
    expect(d.text).toBe('a ');
    for (const ev of parse('\x1f')) d.send(ev);
    expect(d.text).toBe('');
    for (const ev of parse('\x1b[122;6u')) d.send(ev);
    expect(d.text).toBe('a ');
    for (const ev of parse('\x1b[27;6;90~')) d.send(ev);
    expect(d.text).toBe('a b');
    d.send(CTRL_Z);
    expect(d.text).toBe('a ');
    // Alt+_ is ESC _ (an APC introducer): it counts once nothing follows (the parser's timeout).
    const p = new KeyParser();
    const evs = [...p.feed('\x1b_', 0), ...p.flushTimeout(1_000)].filter((e): e is KeyEvent => e.type === 'key');
    expect(evs).toMatchObject([{ name: 'char', char: '_', alt: true }]);
    for (const ev of evs) d.send(ev);
    expect(d.text).toBe('a b');
    expect(parse('\x1b[122;5u')).toMatchObject([{ char: 'z', ctrl: true, shift: false }]);
  });

  it('a key release never undoes', () => {
    const d = new Driver();
    d.type('x');
    d.settle();
    d.send(key('char', { char: 'z', ctrl: true, kind: 'release' }));
    expect(d.text).toBe('x');
  });
});
