/**
 * Properties of Vim mode over random key sequences (motions, operators with counts and registers,
 * text objects, Visual mode, `.`, `u`, Ctrl+R, Insert-mode typing at any speed, pastes that become
 * placeholders, attachments) from a draft with every kind of element, CJK and emoji:
 * - after every event the elements are valid: byte ranges on character boundaries, inside the
 *   text, not overlapping, each one's text still its placeholder, payloads and attachments bound;
 * - Esc, then `u` until nothing is left, gives back the starting draft exactly, and Ctrl+R all the
 *   way gives back the edited one.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validateTextElements } from '../../../src/protocol/text-element.js';
import { sliceBytes } from '../../../src/protocol/utf8.js';
import { composerReducer, initialComposerState } from '../../../src/tui/composer/reducer.js';
import type { ComposerState } from '../../../src/tui/composer/state.js';
import { textElementsOf } from '../../../src/tui/composer/textarea.js';
import type { ComposerEvent } from '../../../src/tui/composer/types.js';
import { EMPTY_UNDO } from '../../../src/tui/composer/undo.js';
import { charKey, key } from '../../../src/tui/keys/types.js';
import { fakeImageProbe, image } from './driver.js';

const vimKeys = fc.constantFrom(
  ...'hjklwbeWBE0^$xXdcypPrsSCDYJ~oOiaIAu.vVfFtT;,%Gg><"_123(){}[]\'`bBpsq'.split(''),
  ' ',
  'U',
  '你',
  '😀',
  'e\u0301',
  '👨‍👩‍👧',
);
const typed = fc.constantFrom('a', 'b', ' ', '.', '(', ')', '"', '你', '😀', 'x', 'j');
/** Whole commands, so yanks meet puts and changes meet `.` often. */
const commands = fc.constantFrom(
  'dd',
  'yy',
  'p',
  'P',
  'yiw',
  'diw',
  'daw',
  'x',
  '3x',
  'u',
  '.',
  'gg',
  'G',
  'k',
  'j',
  'w',
  'b',
  'e',
  'dw',
  'd2w',
  'cwab<Esc>',
  'vjd',
  'Vy',
  'Vd',
  '"ayy',
  '"Ayw',
  '"ap',
  '"_dd',
  'ciwz<Esc>',
  'de',
  'yyp',
  'ddP',
  'J',
  '>>',
  '<<',
  '~',
  '2dd',
  'viwy',
  'vep',
  'vlly',
  'yl',
  'yW',
  'D',
  'C<Esc>',
  'S<Esc>',
  'Ax<Esc>',
  'o<Esc>',
  'ci(<Esc>',
  'da"',
  'dap',
  'yip',
  'r_',
  'gUiw',
  '%',
  'f)',
  't ',
  ';',
);
const NAMED: Record<string, ComposerEvent> = { '<Esc>': key('escape') };
const commandEvents = commands.map((c) =>
  c.split(/(<Esc>)/).flatMap((part) => (part === '<Esc>' ? [NAMED[part]!] : [...part].map((ch) => charKey(ch)))),
);

function events(submits: boolean): fc.Arbitrary<{ ev: ComposerEvent; dt: number }[]> {
  const named = submits
    ? fc.constantFrom(key('escape'), key('backspace'), key('enter'), key('tab'))
    : fc.constantFrom(key('escape'), key('backspace'));
  const one = fc.record({
    dt: fc.oneof(fc.constant(1), fc.constant(5), fc.constant(100), fc.integer({ min: 0, max: 600 })),
    ev: fc.oneof(
      { weight: 14, arbitrary: vimKeys.map((c) => charKey(c)) },
      { weight: 5, arbitrary: typed.map((c) => charKey(c)) },
      { weight: 5, arbitrary: named },
      { weight: 2, arbitrary: fc.constant(charKey('r', { ctrl: true })) },
      { weight: 1, arbitrary: fc.constantFrom('k', 'u', 'w', 'y', 'c', 'z').map((c) => charKey(c, { ctrl: true })) },
      { weight: 1, arbitrary: fc.constant<ComposerEvent>({ type: 'tick' }) },
      {
        weight: 2,
        arbitrary: fc
          .constantFrom('ab', 'x y\nz', 'q'.repeat(1001), 'r'.repeat(1200), '/tmp/p.png')
          .map((text) => ({ type: 'paste', text }) as ComposerEvent),
      },
      { weight: 1, arbitrary: fc.constant<ComposerEvent>({ type: 'attach', attachment: image('/tmp/c.png') }) },
    ),
  });
  const command = commandEvents.map((evs) => evs.map((ev) => ({ ev, dt: 100 })));
  return fc.oneof({ weight: 3, arbitrary: one.map((e) => [e]) }, { weight: 2, arbitrary: command });
}

const START: ComposerEvent = {
  type: 'restoreDraft',
  draft: {
    text: 'a [Image #1] b(c) "d" $deploy\n\n你好😀 [Pasted Content 1200 chars] [Image #2]\ne\u0301 end.',
    textElements: [
      { byte_range: { start: 2, end: 12 }, placeholder: '[Image #1]' },
      { byte_range: { start: 22, end: 29 }, placeholder: '$deploy' },
      { byte_range: { start: 42, end: 69 }, placeholder: '[Pasted Content 1200 chars]' },
      { byte_range: { start: 70, end: 80 }, placeholder: '[Image #2]' },
    ],
    attachments: [
      { ...image('/tmp/one.png'), placeholder: '[Image #1]' },
      { ...image('/tmp/two.png'), placeholder: '[Image #2]' },
    ],
    mentions: [{ name: 'deploy', path: '/s/deploy' }],
  },
  pendingPastes: [{ placeholder: '[Pasted Content 1200 chars]', text: 'p'.repeat(1200) }],
};

function fresh(): ComposerState {
  const state = initialComposerState({
    vimEnabled: true,
    probeMedia: fakeImageProbe,
    skills: [{ name: 'deploy', path: '/s/deploy' }],
    vimEscapeSequence: 'jj',
  });
  const loaded = composerReducer(state, START, 0).state;
  return { ...loaded, undo: EMPTY_UNDO };
}

function checkElements(s: ComposerState): void {
  const { text, cursor, elements } = s.ta;
  expect(cursor).toBeGreaterThanOrEqual(0);
  expect(cursor).toBeLessThanOrEqual(text.length);
  let prevEnd = 0;
  for (const el of elements) {
    expect(el.start).toBeGreaterThanOrEqual(prevEnd);
    expect(el.end).toBeGreaterThan(el.start);
    expect(el.end).toBeLessThanOrEqual(text.length);
    expect(cursor <= el.start || cursor >= el.end).toBe(true);
    prevEnd = el.end;
  }
  const te = textElementsOf(s.ta);
  expect(validateTextElements(text, te)).toEqual({ ok: true });
  for (const el of te) expect(sliceBytes(text, el.byte_range.start, el.byte_range.end)).toBe(el.placeholder);
  const pasteLabels = elements
    .filter((e) => e.kind === 'paste')
    .map((e) => text.slice(e.start, e.end))
    .sort();
  expect(s.pendingPastes.map((p) => p.placeholder).sort()).toEqual(pasteLabels);
  const byId = new Map(elements.map((e) => [e.id, e]));
  const counters = { image: 0, audio: 0 };
  for (const a of s.attachments) {
    const el = byId.get(a.elementId);
    expect(el).toBeDefined();
    expect(text.slice(el!.start, el!.end)).toBe(a.placeholder);
    counters[a.kind] += 1;
    expect(a.placeholder).toBe(a.kind === 'image' ? `[Image #${counters.image}]` : `[Audio #${counters.audio}]`);
  }
  expect(elements.filter((e) => e.kind === 'image' || e.kind === 'audio')).toHaveLength(s.attachments.length);
  for (const m of s.mentions) expect(text.slice(byId.get(m.elementId)!.start, byId.get(m.elementId)!.end)).toBe(`$${m.name}`);
  // A register's elements lie inside its text.
  for (const reg of [s.vim.registers.unnamed, ...Object.values(s.vim.registers.named)]) {
    for (const e of reg?.elements ?? []) {
      expect(e.start).toBeGreaterThanOrEqual(0);
      expect(e.end).toBeLessThanOrEqual(reg!.text.length);
    }
  }
}

/** The draft as the user sees it (element ids left out). */
function draftOf(s: ComposerState) {
  const id = new Map(s.ta.elements.map((e, i) => [e.id, i]));
  return {
    text: s.ta.text,
    bashMode: s.bashMode,
    elements: s.ta.elements.map(({ start, end, kind }) => ({ start, end, kind })),
    pendingPastes: s.pendingPastes,
    attachments: s.attachments.map(({ elementId, ...a }) => ({ ...a, element: id.get(elementId) })),
    mentions: s.mentions.map(({ elementId, ...m }) => ({ ...m, element: id.get(elementId) })),
  };
}

describe('Vim properties', () => {
  it('random Vim keys keep every element valid', () => {
    fc.assert(
      fc.property(fc.array(events(true), { maxLength: 40 }), (groups) => {
        let state = fresh();
        let now = 1_000;
        for (const { ev, dt } of groups.flat()) {
          now += dt;
          state = composerReducer(state, ev, now).state;
          checkElements(state);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('undo of everything gives back the starting draft exactly; redo of everything the edited one', () => {
    fc.assert(
      fc.property(fc.array(events(false), { maxLength: 40 }), (groups) => {
        let state = fresh();
        const start = draftOf(state);
        let now = 1_000;
        const send = (ev: ComposerEvent, dt = 100): void => {
          now += dt;
          state = composerReducer(state, ev, now).state;
        };
        for (const { ev, dt } of groups.flat()) send(ev, dt);
        // Leave a popup, a pending command, Insert or Visual mode; let a burst flush.
        for (let i = 0; i < 3; i++) send(key('escape'));
        send({ type: 'tick' }, 1_000);
        expect(state.vim.mode).toBe('normal');
        const edited = draftOf(state);
        const steps = state.undo.past.length;
        for (let i = 0; i < steps; i++) send(charKey('u'));
        expect(state.undo.past).toEqual([]);
        expect(draftOf(state)).toEqual(start);
        for (let i = 0; i < steps; i++) send(charKey('r', { ctrl: true }));
        expect(draftOf(state)).toEqual(edited);
      }),
      { numRuns: 300 },
    );
  });
});
