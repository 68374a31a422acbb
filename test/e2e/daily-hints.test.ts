/**
 * One-line hints through the real bin in a pty (issue 30): Ctrl+Q with nothing waiting says so, and
 * an Enter taken as a newline because the text before it came as fast as a paste says why, once.
 */
import { describe, expect, it } from 'vitest';
import { BURST_ENTER_HINT } from '../../src/tui/chat/input/composer-effects.js';
import { NOTHING_WAITING_MESSAGE } from '../../src/tui/chat/pending/pending-manager.js';
import { sessionPerTest } from './helpers.js';

const openSession = sessionPerTest();
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('daily hints', { timeout: 60_000 }, () => {
  it('Ctrl+Q with nothing waiting shows a line; Enter after fast text is a newline and says why once', async () => {
    const { pty, server } = await openSession({ cols: 200, rows: 30 });
    pty.write('\x11');
    await pty.waitFor(NOTHING_WAITING_MESSAGE);

    // Text and Enter in one write: the bin reads them together, as a paste without bracketed paste.
    pty.write('fast words\r');
    await pty.waitFor(BURST_ENTER_HINT);
    // The burst reaches the draft once it is quiet for a moment.
    await pty.waitFor('› fast words');
    expect(server.requests).toHaveLength(0);

    pty.write('\x03');
    await pty.waitFor((s) => !s.includes('› fast words'));
    await sleep(300);
    pty.write('more\r');
    await pty.waitFor((s) => s.includes('› more') && !s.includes('› fast'));
    expect(server.requests).toHaveLength(0);
    expect(pty.screen().split(BURST_ENTER_HINT).length - 1).toBe(1);
  });
});
