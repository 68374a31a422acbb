/** Enter inside the paste-burst window stays a newline; the first time in a session a line says why. */
import { describe, expect, it } from 'vitest';
import { BURST_ENTER_HINT } from '../../../../src/tui/chat/input/composer-effects.js';
import { charKey, key } from '../../../../src/tui/keys/types.js';
import { createHarness, type Harness } from '../harness.js';

/** Characters 2 ms apart (as a paste without bracketed paste, or a very fast typist), then Enter. */
function fastThenEnter(h: Harness, text: string): void {
  for (const ch of text) {
    h.clock.advance(2);
    h.input(charKey(ch));
  }
  h.clock.advance(2);
  h.input(key('enter'));
  h.clock.advance(500);
}

const hints = (h: Harness): number => h.cellTexts().filter((t) => t === `• ${BURST_ENTER_HINT}`).length;

describe('the paste-burst Enter hint', () => {
  it('shows once a session when Enter became a newline; typing at a human pace shows none', async () => {
    const h = await createHarness();
    h.type('slow');
    h.press('enter');
    await h.settle();
    expect(hints(h)).toBe(0);
    fastThenEnter(h, 'quick text');
    expect(h.composerText()).toBe('quick text\n');
    expect(hints(h)).toBe(1);
    expect(h.client.requestsOf('turn/start')).toHaveLength(1);
    h.ctrlKey('u');
    fastThenEnter(h, 'again fast');
    expect(hints(h)).toBe(1);
  });
});
