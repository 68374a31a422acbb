/**
 * Desktop notifications from the real bin: focus reporting is on while it runs, and a turn that
 * ends while the terminal says it is unfocused writes OSC 9; focused, nothing.
 */
import { describe, expect, it } from 'vitest';
import { sessionPerTest, typeSlowly } from './helpers.js';

const openSession = sessionPerTest();
const NOTIFICATION = '\x1b]9;Tiller: turn finished\x07';

const count = (haystack: string, needle: string): number => haystack.split(needle).length - 1;

describe('attention', { timeout: 60_000 }, () => {
  it('notifies through OSC 9 when a turn ends unfocused, not when focused; focus reporting off at exit', async () => {
    const { server, pty } = await openSession();
    expect(pty.modes().sendFocusMode).toBe(true);
    server.enqueue({ text: 'First answer.' }, { text: 'Second answer.' });

    pty.write('\x1b[O');
    await typeSlowly(pty, 'one');
    pty.press('enter');
    await pty.waitFor((s) => s.includes('First answer.') && !s.includes('esc to interrupt'));
    await pty.waitFor(() => pty.raw().includes(NOTIFICATION));
    // The focus report was not typed into the composer.
    expect(pty.screen()).not.toContain('[O');

    pty.write('\x1b[I');
    await typeSlowly(pty, 'two');
    pty.press('enter');
    await pty.waitFor((s) => s.includes('Second answer.') && !s.includes('esc to interrupt'));
    expect(count(pty.raw(), NOTIFICATION)).toBe(1);
    // Only what happened, never the prompt.
    expect(pty.raw()).not.toMatch(/\x1b\]9;[^\x07]*(one|two)/);

    expect(await pty.exit()).toBe(0);
    expect(pty.modes().sendFocusMode).toBe(false);
    expect(pty.raw()).toContain('\x1b[?1004l');
  });
});
