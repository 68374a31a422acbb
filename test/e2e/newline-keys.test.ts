/**
 * Newline key encodings through the real bin: Shift+Enter as modifyOtherKeys (`CSI 27;2;13~`),
 * Alt+Enter as an ESC prefix and Ctrl+J as LF (CSI-u Shift+Enter is in paste-and-enter.test.ts); unknown escape
 * sequences (an F-key with odd modifiers, focus reports, an OSC string) never reach the composer.
 */
import { describe, expect, it } from 'vitest';
import { composerLines, composerText, lastUserText, sessionPerTest, typeSlowly, waitForRequests } from './helpers.js';

const openSession = sessionPerTest();

describe('key encodings in the terminal', { timeout: 60_000 }, () => {
  it('modifyOtherKeys Shift+Enter, ESC-prefixed Alt+Enter and Ctrl+J each insert a newline; one request', async () => {
    const session = await openSession();
    const { server, pty } = session;
    const newlines = ['\x1b[27;2;13~', '\x1b\r', '\n'];
    await typeSlowly(pty, 'a');
    for (const [i, seq] of newlines.entries()) {
      pty.write(seq);
      await pty.waitFor((s) => composerLines(s).length === i + 2);
      await typeSlowly(pty, 'bcd'[i]!);
    }
    expect(composerText(pty.screen())).toBe('a\nb\nc\nd');
    expect(server.requests).toHaveLength(0);
    pty.press('enter');
    const [request] = await waitForRequests(session, 1);
    expect(lastUserText(request!)).toBe('a\nb\nc\nd');
  });

  it('drops unknown escape sequences instead of typing them', async () => {
    const session = await openSession();
    const { pty } = session;
    await typeSlowly(pty, 'x');
    pty.write('\x1b[I\x1b]0;title\x07\x1b[99;9~\x1b[O');
    await typeSlowly(pty, 'y');
    expect(composerText(pty.screen())).toBe('xy');
  });
});
