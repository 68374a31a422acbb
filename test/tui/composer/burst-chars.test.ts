/**
 * A run of plain characters read together joins a buffering paste burst in one step (`burstChars`),
 * and the composer ends up exactly as if each had come as its own key; anything else refuses the run.
 */
import { describe, expect, it } from 'vitest';
import { charKey } from '../../../src/tui/keys/types.js';
import { composerReducer, initialComposerState, type ComposerState } from '../../../src/tui/composer/reducer.js';
import { takesCharRun } from '../../../src/tui/composer/input.js';
import { appendRunIfActive, initialPasteBurst } from '../../../src/tui/composer/paste-burst.js';
import { noMedia } from './driver.js';

const AT = 5_000;

function fresh(): ComposerState {
  return initialComposerState({ vimEnabled: false, probeMedia: noMedia, platform: 'linux' });
}

/** Characters as single keys, all read at `at`. */
function keyByKey(state: ComposerState, chars: string, at = AT): ComposerState {
  let s = state;
  for (const ch of chars) s = composerReducer(s, charKey(ch), at).state;
  return s;
}

describe('burstChars', () => {
  it('leaves the composer as one key per character would, the tick asked for once', () => {
    const started = keyByKey(fresh(), 'abcd');
    expect(takesCharRun(started, AT)).toBe(true);
    const rest = 'efgh ijkl mnop qrst uvwx yz 0123456789';
    const out = composerReducer(started, { type: 'burstChars', chars: rest }, AT);
    expect(out.handled).toBe(true);
    expect(out.state).toEqual(keyByKey(started, rest));
    expect(out.effects.filter((e) => e.type === 'scheduleTick')).toHaveLength(1);
    // And flushed by the tick, it is the same paste.
    const flushedRun = composerReducer(out.state, { type: 'tick' }, AT + 1_000).state;
    const flushedKeys = composerReducer(keyByKey(started, rest), { type: 'tick' }, AT + 1_000).state;
    expect(flushedRun.ta.text).toBe('abcd' + rest);
    expect(flushedRun).toEqual(flushedKeys);
  });

  it('is refused, nothing changed, when no burst buffers: typed text, a held first character, a popup, Vim', () => {
    const typed = composerReducer(fresh(), charKey('a'), AT).state;
    const refusals = [
      fresh(),
      typed,
      keyByKey(keyByKey(fresh(), '/', AT - 1_000), 'mode'),
      keyByKey(keyByKey(initialComposerState({ vimEnabled: true, probeMedia: noMedia, platform: 'linux' }), 'i', AT - 1_000), 'abcd'),
    ];
    // The popup and Vim states have a burst buffering: only what would look at the keys first refuses.
    expect(refusals[2]!.popup).not.toBeNull();
    expect([refusals[2]!.burst.active, refusals[3]!.burst.active]).toEqual([true, true]);
    for (const state of refusals) {
      const out = composerReducer(state, { type: 'burstChars', chars: 'xyz' }, AT);
      expect(out.handled).toBe(false);
      expect(out.state).toBe(state);
      expect(out.effects).toEqual([]);
    }
  });

  it('is refused after a gap that would flush the burst or restart its count', () => {
    const started = keyByKey(fresh(), 'abcd');
    expect(takesCharRun(started, AT + 9)).toBe(false);
    expect(composerReducer(started, { type: 'burstChars', chars: 'x' }, AT + 9).handled).toBe(false);
  });
});

describe('appendRunIfActive', () => {
  it('counts the characters and appends them; an inactive detector takes none', () => {
    expect(appendRunIfActive(initialPasteBurst(), 'abc', AT)).toBeNull();
    const active = { ...initialPasteBurst(), active: true, lastPlainCharTime: AT, consecutivePlainChars: 4, buffer: 'abcd', pieces: 4 };
    expect(appendRunIfActive(active, 'efg', AT)).toMatchObject({
      consecutivePlainChars: 7,
      buffer: 'abcdefg',
      pieces: 7,
      lastPlainCharTime: AT,
    });
  });
});
