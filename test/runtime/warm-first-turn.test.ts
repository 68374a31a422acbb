/** The warm-up after the server starts, and the time zone it looks up once: Intl's own answer. */
import { describe, expect, it } from 'vitest';
import { hostTimeZone } from '../../src/runtime/context/environment-context.js';
import { warmFirstTurn } from '../../src/runtime/warm-first-turn.js';

describe('warmFirstTurn', () => {
  it('runs without a thread and leaves the host time zone looked up, the one Intl names', async () => {
    warmFirstTurn();
    await new Promise((resolve) => setImmediate(resolve));
    expect(hostTimeZone()).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
    expect(hostTimeZone()).toBe(hostTimeZone());
  });
});
