/**
 * Input edge cases end to end: bracketed paste placeholders, a paste burst without bracketed paste,
 * Vim's pending operator and Shift+Enter (CSI-u), through the real bin in a pseudo-terminal.
 */
import { describe, expect, it } from 'vitest';
import { composerLines, composerText, lastUserText, sessionPerTest, typeSlowly, waitForRequests } from './helpers.js';

const openSession = sessionPerTest();

describe('input in the terminal', { timeout: 60_000 }, () => {
  it('shows a 5,000-character bracketed paste as a placeholder and sends the full text', async () => {
    const session = await openSession();
    const { server, pty } = session;
    const text = 'abcdefghij'.repeat(500);
    pty.paste(text);
    const screen = await pty.waitFor('[Pasted Content 5000 chars]');
    // The composer shows the placeholder; only the preview row above it shows the start of the text.
    expect(composerText(screen)).toBe('[Pasted Content 5000 chars]');
    expect(screen.split('\n').filter((row) => row.includes('abcdefghij'))).toHaveLength(1);
    pty.press('enter');
    const [request] = await waitForRequests(session, 1);
    expect(lastUserText(request!)).toBe(text);
    expect(server.requests).toHaveLength(1);
  });

  it('treats 50 characters at 1 ms intervals with an Enter inside as a paste: nothing is submitted', async () => {
    const session = await openSession();
    const { server, pty } = session;
    const first = 'x'.repeat(25);
    const second = 'y'.repeat(24);
    // Once start-up is over: the runtime loading just after the first frame would split the burst.
    await pty.idle();
    await pty.type(`${first}\r${second}`, 1);
    const screen = await pty.waitFor((s) => composerText(s) === `${first}\n${second}`);
    expect(composerLines(screen)).toEqual([`› ${first}`, `  ${second}`]);
    expect(server.requests).toHaveLength(0);
  });

  it('lets a pending Vim operator consume Enter, then submits from Insert mode', async () => {
    const session = await openSession();
    const { server, pty } = session;
    await typeSlowly(pty, '/vim');
    pty.press('enter');
    await pty.waitFor('Vim: Normal');
    pty.write('i');
    await pty.waitFor('Vim: Insert');
    await typeSlowly(pty, 'hello');
    pty.press('esc');
    await pty.waitFor('Vim: Normal');
    pty.write('d');
    pty.press('enter');
    await pty.waitFor((s) => composerText(s) === 'hello' && s.includes('Vim: Normal'));
    pty.write('A');
    await pty.waitFor('Vim: Insert');
    await typeSlowly(pty, ' world');
    pty.press('enter');
    const requests = await waitForRequests(session, 1);
    expect(lastUserText(requests[0]!)).toBe('hello world');
    await pty.waitFor('Vim: Normal');
    expect(server.requests).toHaveLength(1);
  });

  it('inserts a newline for Shift+Enter sent as CSI-u and sends both lines in one request', async () => {
    const session = await openSession();
    const { server, pty } = session;
    await typeSlowly(pty, 'a');
    pty.press('shift-enter');
    await pty.waitFor((s) => composerLines(s).length === 2);
    await typeSlowly(pty, 'b');
    expect(composerLines(pty.screen())).toEqual(['› a', '  b']);
    pty.press('enter');
    const [request] = await waitForRequests(session, 1);
    expect(lastUserText(request!)).toBe('a\nb');
    expect(server.requests).toHaveLength(1);
  });
});
