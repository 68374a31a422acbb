/**
 * Vim mode end to end, through the real bin in a pseudo-terminal: `/vim` turns it on, Visual mode
 * `v` + `d` deletes the selection (drawn inverted, the footer saying so), `.` repeats that on as
 * much text again, `u` undoes the repeat; nothing is ever sent.
 */
import { describe, expect, it } from 'vitest';
import { composerText, sessionPerTest, typeSlowly } from './helpers.js';

const openSession = sessionPerTest();

const INVERSE = '\x1b[7m';

describe('Vim mode in the terminal', { timeout: 60_000 }, () => {
  it('Visual v + d, . repeat and u undo, read off the screen', async () => {
    const { pty, server } = await openSession();
    await typeSlowly(pty, '/vim');
    pty.press('enter');
    await pty.waitFor('Vim: Normal');
    pty.write('i');
    await pty.waitFor('Vim: Insert');
    await typeSlowly(pty, 'one two three four');
    pty.press('esc');
    await pty.waitFor((s) => s.includes('Vim: Normal') && composerText(s) === 'one two three four');

    pty.write('0');
    pty.write('v');
    await pty.waitFor('Vim: Visual');
    const before = pty.raw().length;
    pty.write('e');
    pty.write('l');
    // The selection `one ` is drawn inverted.
    await pty.waitFor(() => pty.raw().slice(before).includes(`${INVERSE}one `));
    pty.write('d');
    await pty.waitFor((s) => s.includes('Vim: Normal') && composerText(s) === 'two three four');

    pty.write('.');
    await pty.waitFor((s) => composerText(s) === 'three four');
    pty.write('u');
    await pty.waitFor((s) => composerText(s) === 'two three four');
    expect(pty.screen()).toContain('Vim: Normal');
    expect(server.requests).toHaveLength(0);
  });
});
