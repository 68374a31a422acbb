/**
 * Composer editing end to end, through the real bin in a pseudo-terminal: the kill ring (Ctrl+W, Ctrl+Y,
 * Alt+Y), the prompt stash (Ctrl+S, which raw mode delivers as 0x13 instead of XOFF), undo (Ctrl+Z,
 * 0x1a rather than SIGTSTP), and a CJK paste burst with a CR inside staying in the composer.
 */
import { describe, expect, it } from 'vitest';
import { PASTE_ENTER_SUPPRESS_WINDOW } from '../../src/tui/composer/paste-burst.js';
import { composerText, lastUserText, sessionPerTest, typeSlowly, waitForRequests } from './helpers.js';

const openSession = sessionPerTest();

const CTRL_S = '\x13';
const CTRL_U = '\x15';
const CTRL_W = '\x17';
const CTRL_Y = '\x19';
const CTRL_Z = '\x1a';
const ALT_Y = '\x1by';

/** The screen trims trailing blanks, so a draft ending in a space reads without it. */
const showsDraft = (text: string) => (screen: string) => composerText(screen) === text.trimEnd();

describe('composer editing in the terminal', { timeout: 60_000 }, () => {
  it('kill ring: Ctrl+W twice cuts two words into one entry, Ctrl+Y yanks them, Alt+Y swaps in an older cut', async () => {
    const { pty, server } = await openSession();
    await typeSlowly(pty, 'alpha');
    pty.write(CTRL_U);
    await pty.waitFor(showsDraft(''));
    await typeSlowly(pty, 'one two three');
    pty.write(CTRL_W);
    await pty.waitFor(showsDraft('one two '));
    pty.write(CTRL_W);
    await pty.waitFor(showsDraft('one '));
    pty.write(CTRL_Y);
    await pty.waitFor(showsDraft('one two three'));
    pty.write(ALT_Y);
    await pty.waitFor(showsDraft('one alpha'));
    pty.write(ALT_Y);
    await pty.waitFor(showsDraft('one two three'));
    expect(server.requests).toHaveLength(0);
  });

  it('stash: Ctrl+S puts the draft aside, a quick message goes out, and the draft comes back', async () => {
    const session = await openSession();
    const { pty } = session;
    await typeSlowly(pty, 'my long draft');
    pty.write(CTRL_S);
    const stashed = await pty.waitFor((s) => composerText(s) === '' && s.includes('Stashed — Ctrl+S brings it back'));
    expect(stashed).not.toContain('my long draft');
    await typeSlowly(pty, 'quick question');
    pty.press('enter');
    const [request] = await waitForRequests(session, 1);
    expect(lastUserText(request!)).toBe('quick question');
    const back = await pty.waitFor(showsDraft('my long draft'));
    expect(back).not.toContain('Stashed — Ctrl+S brings it back');
    // Ctrl+S and Ctrl+S again: out and back.
    pty.write(CTRL_S);
    await pty.waitFor((s) => composerText(s) === '' && s.includes('Stashed'));
    pty.write(CTRL_S);
    await pty.waitFor(showsDraft('my long draft'));
  });

  it('undo: Ctrl+Z (0x1a, not a suspend) takes back the last word; the program keeps running', async () => {
    const { pty } = await openSession();
    await typeSlowly(pty, 'hello world');
    pty.write(CTRL_Z);
    await pty.waitFor(showsDraft('hello '));
    pty.write(CTRL_Z);
    await pty.waitFor(showsDraft(''));
    expect(pty.exited()).toBe(false);
    await typeSlowly(pty, 'still here');
    await pty.waitFor(showsDraft('still here'));
  });

  it('a CJK burst with a CR inside, in one write, stays in the composer; a later Enter sends both lines', async () => {
    const session = await openSession();
    const { pty, server } = session;
    pty.write('你好世界你好世界\r第二行');
    await pty.waitFor(showsDraft('你好世界你好世界\n第二行'));
    expect(server.requests).toHaveLength(0);
    // A person's Enter comes after the burst's Enter window (one inside it is a newline of the paste).
    await new Promise((resolve) => setTimeout(resolve, PASTE_ENTER_SUPPRESS_WINDOW));
    pty.press('enter');
    const [request] = await waitForRequests(session, 1);
    // The first request has both lines: the CR inside the burst sent nothing.
    expect(lastUserText(request!)).toBe('你好世界你好世界\n第二行');
  });
});
