import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validateTextElements } from '../../../src/protocol/text-element.js';
import { sliceBytes } from '../../../src/protocol/utf8.js';
import { composerReducer, initialComposerState } from '../../../src/tui/composer/reducer.js';
import type { ComposerState } from '../../../src/tui/composer/state.js';
import { textElementsOf } from '../../../src/tui/composer/textarea.js';
import type { ComposerEvent, InputResult } from '../../../src/tui/composer/types.js';
import { charKey, key, type KeyName } from '../../../src/tui/keys/types.js';
import { fakeImageProbe, image } from './driver.js';

const chars = fc.constantFrom(
  'a',
  'b',
  ' ',
  '.',
  '/',
  '@',
  '!',
  '?',
  '$',
  '你',
  '😀',
  '👨‍👩‍👧',
  'e\u0301',
  '\u001b',
  'x',
  'd',
  'i',
  'w',
  'y',
  'p',
);
const names: KeyName[] = ['backspace', 'delete', 'left', 'right', 'up', 'down', 'home', 'end', 'enter', 'tab', 'escape'];
const ctrlChars = fc.constantFrom('a', 'e', 'k', 'u', 'y', 'w', 'b', 'f', 'd', 'j', 'h', 'c', 'p', 'n', 'r');
const altChars = fc.constantFrom('b', 'f', 'd');

const event: fc.Arbitrary<{ ev: ComposerEvent; dt: number }> = fc.record({
  dt: fc.oneof(fc.constant(1), fc.constant(5), fc.constant(20), fc.integer({ min: 0, max: 300 })),
  ev: fc.oneof(
    { weight: 10, arbitrary: chars.map((c) => charKey(c)) },
    { weight: 4, arbitrary: fc.constantFrom(...names).map((n) => key(n)) },
    {
      weight: 1,
      arbitrary: fc.constantFrom('enter', 'backspace', 'left', 'right', 'delete').map((n) => key(n as KeyName, { shift: true })),
    },
    { weight: 1, arbitrary: fc.constantFrom('backspace', 'delete', 'left', 'right').map((n) => key(n as KeyName, { ctrl: true })) },
    { weight: 2, arbitrary: ctrlChars.map((c) => charKey(c, { ctrl: true })) },
    { weight: 1, arbitrary: altChars.map((c) => charKey(c, { alt: true })) },
    { weight: 1, arbitrary: fc.constant<ComposerEvent>({ type: 'tick' }) },
    {
      weight: 2,
      arbitrary: fc
        .oneof(
          fc.string({ maxLength: 12 }),
          fc.constantFrom('/tmp/a.png', ' /tmp/b.png ', 'a\r\nb', '你好\r世界', 'x'.repeat(1001), 'y'.repeat(1004), '\u001b[31m'),
        )
        .map((text) => ({ type: 'paste', text }) as ComposerEvent),
    },
    { weight: 1, arbitrary: fc.constant<ComposerEvent>({ type: 'attach', attachment: image('/tmp/c.png') }) },
    { weight: 1, arbitrary: fc.boolean().map((enabled) => ({ type: 'setVimEnabled', enabled }) as ComposerEvent) },
    { weight: 1, arbitrary: fc.boolean().map((running) => ({ type: 'setTaskRunning', running }) as ComposerEvent) },
    {
      weight: 1,
      arbitrary: fc.constant<ComposerEvent>({
        type: 'restoreDraft',
        draft: {
          text: '你 [Image #1] x $deploy',
          textElements: [
            { byte_range: { start: 4, end: 14 }, placeholder: '[Image #1]' },
            { byte_range: { start: 17, end: 24 }, placeholder: '$deploy' },
          ],
          attachments: [{ ...image('/tmp/r.png'), placeholder: '[Image #1]' }],
          mentions: [{ name: 'deploy', path: '/s/deploy' }],
        },
      }),
    },
    {
      weight: 1,
      arbitrary: fc.constant<ComposerEvent>({
        type: 'restoreDraft',
        draft: {
          text: 'a [Pasted Content 1200 chars] b\n[Pasted Content 1200 chars] #2',
          textElements: [
            { byte_range: { start: 2, end: 29 }, placeholder: '[Pasted Content 1200 chars]' },
            { byte_range: { start: 32, end: 62 }, placeholder: '[Pasted Content 1200 chars] #2' },
          ],
          attachments: [],
        },
        pendingPastes: [
          { placeholder: '[Pasted Content 1200 chars]', text: 'p'.repeat(1200) },
          { placeholder: '[Pasted Content 1200 chars] #2', text: 'q'.repeat(1200) },
        ],
      }),
    },
    { weight: 2, arbitrary: fc.integer({ min: 1, max: 12 }).map((width) => ({ type: 'setWidth', width }) as ComposerEvent) },
    {
      weight: 1,
      arbitrary: fc.constant<ComposerEvent>({ type: 'fileSearchResult', query: '', paths: ['src/a.ts', 'img.png', 'my file.txt'] }),
    },
  ),
});

function checkState(s: ComposerState): void {
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
  const textElements = textElementsOf(s.ta);
  expect(validateTextElements(text, textElements)).toEqual({ ok: true });
  for (const el of textElements) expect(sliceBytes(text, el.byte_range.start, el.byte_range.end)).toBe(el.placeholder);

  // Every pending paste has its placeholder in the text, and every attachment its label.
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
  for (const m of s.mentions) {
    const el = byId.get(m.elementId);
    expect(el).toBeDefined();
    expect(text.slice(el!.start, el!.end)).toBe(`$${m.name}`);
  }
}

function checkResult(r: InputResult): void {
  if (r.type !== 'submitted' && r.type !== 'queued') return;
  expect(validateTextElements(r.text, r.textElements)).toEqual({ ok: true });
  // An element shows its own text, but for an expanded paste, which keeps its label (TextElement's placeholder).
  for (const el of r.textElements) {
    const covered = sliceBytes(r.text, el.byte_range.start, el.byte_range.end);
    if (covered !== el.placeholder) expect(el.placeholder).toMatch(/^\[Pasted Content \d+ chars\]( #\d+)?$/);
  }
  expect(r.text).toBe(r.text.trim());
}

describe('composer properties', () => {
  it('random keys and pastes never throw and keep elements valid', () => {
    fc.assert(
      fc.property(fc.array(event, { maxLength: 80 }), fc.boolean(), (events, vim) => {
        let state = initialComposerState({ vimEnabled: vim, probeMedia: fakeImageProbe, skills: [{ name: 'deploy', path: '/s/deploy' }] });
        let now = 0;
        for (const { ev, dt } of events) {
          now += dt;
          const out = composerReducer(state, ev, now);
          state = out.state;
          checkState(state);
          checkResult(out.result);
        }
      }),
      { numRuns: 400 },
    );
  });
});
