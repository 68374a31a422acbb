/**
 * Property: any sequence of editing events (typing at any speed, named keys, kills and yanks, pastes,
 * attachments, popup completions, history browsing, Ctrl+C) followed by undo until nothing is left
 * gives back the starting draft exactly: text, elements, pending pastes, attachments with their
 * numbers, mentions, shell mode. A submit (Enter, Tab) clears the history, so the draft it leaves is
 * the new start. Redo all the way then gives back the edited draft.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { composerReducer, initialComposerState, isHistorySearching } from '../../../src/tui/composer/reducer.js';
import type { ComposerState } from '../../../src/tui/composer/state.js';
import type { ComposerEvent } from '../../../src/tui/composer/types.js';
import { EMPTY_UNDO } from '../../../src/tui/composer/undo.js';
import { isDraftCommand } from '../../../src/tui/composer/slash-commands.js';
import { charKey, key, type KeyName } from '../../../src/tui/keys/types.js';
import { fakeImageProbe, image } from './driver.js';

const chars = fc.constantFrom('a', 'b', ' ', '.', '/', '@', '!', '$', '你', '😀', 'e\u0301', 'x', '\n');
// No Ctrl+S: the stash swaps histories by design (stash.test.ts).
const names: KeyName[] = ['backspace', 'delete', 'left', 'right', 'up', 'down', 'home', 'end', 'escape', 'enter', 'tab'];
const ctrlChars = fc.constantFrom('a', 'e', 'k', 'u', 'y', 'w', 'b', 'f', 'd', 'h', 'c', 'p', 'n', 'j');
const altChars = fc.constantFrom('b', 'f', 'd', 'y');

const event: fc.Arbitrary<{ ev: ComposerEvent; dt: number }> = fc.record({
  dt: fc.oneof(fc.constant(0), fc.constant(1), fc.constant(20), fc.integer({ min: 0, max: 2_000 })),
  ev: fc.oneof(
    { weight: 10, arbitrary: chars.map((c) => (c === '\n' ? key('enter', { shift: true }) : charKey(c))) },
    { weight: 4, arbitrary: fc.constantFrom(...names).map((n) => key(n)) },
    { weight: 1, arbitrary: fc.constantFrom('backspace', 'delete').map((n) => key(n as KeyName, { alt: true })) },
    { weight: 3, arbitrary: ctrlChars.map((c) => charKey(c, { ctrl: true })) },
    { weight: 2, arbitrary: altChars.map((c) => charKey(c, { alt: true })) },
    { weight: 1, arbitrary: fc.constant<ComposerEvent>({ type: 'tick' }) },
    {
      weight: 2,
      arbitrary: fc
        .oneof(fc.string({ maxLength: 8 }), fc.constantFrom('/tmp/a.png', 'a\r\nb', 'x'.repeat(1001), 'y'.repeat(1200)))
        .map((text) => ({ type: 'paste', text }) as ComposerEvent),
    },
    { weight: 1, arbitrary: fc.constant<ComposerEvent>({ type: 'attach', attachment: image('/tmp/c.png') }) },
    {
      weight: 1,
      arbitrary: fc.constant<ComposerEvent>({ type: 'fileSearchResult', query: '', paths: ['src/a.ts', 'img.png', 'my file.txt'] }),
    },
  ),
});

const START: ComposerEvent = {
  type: 'restoreDraft',
  draft: {
    text: 'a [Image #1] b $deploy [Pasted Content 1200 chars] [Image #2]',
    textElements: [
      { byte_range: { start: 2, end: 12 }, placeholder: '[Image #1]' },
      { byte_range: { start: 15, end: 22 }, placeholder: '$deploy' },
      { byte_range: { start: 23, end: 50 }, placeholder: '[Pasted Content 1200 chars]' },
      { byte_range: { start: 51, end: 61 }, placeholder: '[Image #2]' },
    ],
    attachments: [
      { ...image('/tmp/one.png'), placeholder: '[Image #1]' },
      { ...image('/tmp/two.png'), placeholder: '[Image #2]' },
    ],
    mentions: [{ name: 'deploy', path: '/s/deploy' }],
  },
  pendingPastes: [{ placeholder: '[Pasted Content 1200 chars]', text: 'p'.repeat(1200) }],
};

/** The draft as plain data, element ids left out (positions and kinds are what the user sees). */
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

describe('undo property', () => {
  it('random edits then undo-all give back the starting draft; redo-all gives back the edited one', () => {
    fc.assert(
      fc.property(fc.array(event, { maxLength: 60 }), fc.boolean(), (events, startEmpty) => {
        const skills = [{ name: 'deploy', path: '/s/deploy' }];
        let state = initialComposerState({ vimEnabled: false, probeMedia: fakeImageProbe, skills });
        let now = 1_000;
        let start: ReturnType<typeof draftOf> | null = null;
        const send = (ev: ComposerEvent, dt = 1): void => {
          now += dt;
          const out = composerReducer(state, ev, now);
          state = out.state;
          // A command that acts on the draft (/inspect) keeps it, and its history.
          if (out.result.type !== 'none' && !(out.result.type === 'command' && isDraftCommand(out.result.command))) {
            expect(state.undo).toEqual(EMPTY_UNDO);
            start = draftOf(state);
          }
        };
        if (!startEmpty) send(START);
        state = { ...state, undo: EMPTY_UNDO };
        start = draftOf(state);
        for (const { ev, dt } of events) send(ev, dt);
        // Let a burst flush, leave a Ctrl+R search.
        send({ type: 'tick' }, 5_000);
        if (isHistorySearching(state)) send(key('escape'));
        const edited = draftOf(state);
        const steps = state.undo.past.length;
        for (let i = 0; i < steps; i++) send(charKey('z', { ctrl: true }));
        expect(state.undo.past).toEqual([]);
        expect(draftOf(state)).toEqual(start);
        for (let i = 0; i < steps; i++) send(charKey('z', { ctrl: true, shift: true }));
        expect(draftOf(state)).toEqual(edited);
      }),
      { numRuns: 300 },
    );
  });
});
