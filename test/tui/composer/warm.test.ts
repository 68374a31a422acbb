import { describe, expect, it } from 'vitest';
import { initialComposerState } from '../../../src/tui/composer/reducer.js';
import { warmSubmission } from '../../../src/tui/composer/warm.js';
import { noMedia } from './driver.js';

describe('warmSubmission (the first Enter path, run once ahead of the user)', () => {
  it('goes through the whole submission path: a typed character and Enter are submitted', () => {
    const state = initialComposerState({ vimEnabled: false, probeMedia: noMedia });
    expect(warmSubmission(state, 10_000)).toMatchObject({ type: 'submitted', mode: 'enter', text: 'x' });
  });

  it('leaves the state it was given as it was: nothing is typed into the real draft', () => {
    const state = initialComposerState({ vimEnabled: false, probeMedia: noMedia });
    warmSubmission(state, 10_000);
    expect(state).toEqual(initialComposerState({ vimEnabled: false, probeMedia: noMedia }));
    expect(state.ta.text).toBe('');
  });
});
