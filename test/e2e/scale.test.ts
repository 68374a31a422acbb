/**
 * Sizes that used to freeze the UI, end to end through the real bin in a pty: a 300,000-character
 * single-line paste, a command printing 20 MB on one line, and a 1 MiB paste in a terminal that
 * does not bracket pastes. Each goes through, shows on screen as it should, and keys still echo.
 */
import { describe, expect, it } from 'vitest';
import { composerText, lastUserText, sessionPerTest, typeSlowly, waitForRequests } from './helpers.js';

const openSession = sessionPerTest();

/** One line of `chars` characters: words, so it wraps as prose does. */
function oneLine(chars: number): string {
  let out = '';
  for (let i = 0; out.length < chars; i++) out += `w${i} `;
  return out.slice(0, chars);
}

describe('no size freezes it', { timeout: 120_000 }, () => {
  it('a 300,000-character single-line paste: a placeholder, sent whole, shown cut around a count, and keys still echo', async () => {
    const session = await openSession({ cols: 120, rows: 40 });
    const { server, pty } = session;
    const text = oneLine(300_000);
    server.enqueue({ text: 'Read all of it.' });
    pty.paste(text);
    await pty.waitFor('[Pasted Content 300000 chars]', 30_000);
    pty.press('enter');
    const [request] = await waitForRequests(session, 1, 30_000);
    expect(lastUserText(request!)).toBe(text);
    await pty.waitFor((s) => s.includes('Read all of it.') && s.includes('Ask Tiller to do anything'), 30_000);
    // About 2,550 rows at this width: the scrollback has its start and end around the count.
    const scrollback = pty.scrollback();
    expect(scrollback).toMatch(/… \d+ more lines/u);
    expect(scrollback).toContain('› w0 w1 w2');
    expect(scrollback).toContain(text.slice(-20));
    await typeSlowly(pty, 'still here');
    expect(composerText(pty.screen())).toBe('still here');
  });

  it('a command printing 20 MB on one line: its start and end shown, the follow-up request sent, keys still echo', async () => {
    const session = await openSession({ cols: 120, rows: 40, args: ['-a', 'never', '-s', 'danger-full-access'] });
    const { server, pty } = session;
    server.enqueue(
      {
        functionCall: {
          name: 'shell',
          arguments: { command: "head -c 20000000 /dev/zero | tr '\\0' x; echo; echo the-end" },
          callId: 'big',
        },
      },
      { text: 'That was a lot of output.' },
    );
    await typeSlowly(pty, 'print it');
    pty.press('enter');
    const [, followUp] = await waitForRequests(session, 2, 60_000);
    const output = (followUp!.body.input as Array<{ type: string; call_id?: string; output?: string }>).find(
      (item) => item.type === 'function_call_output' && item.call_id === 'big',
    )!.output!;
    // The model gets the start and the end, and how much was left out.
    expect(output.length).toBeLessThan(100_000);
    expect(output).toContain('the-end');
    expect(output).toMatch(/omitted/u);
    await pty.waitFor((s) => s.includes('That was a lot of output.') && s.includes('Ask Tiller to do anything'), 60_000);
    expect(pty.scrollback()).toMatch(/│ … \d+ more lines/u);
    expect(pty.scrollback()).toContain('│ the-end');
    await typeSlowly(pty, 'next');
    expect(composerText(pty.screen())).toBe('next');
  });

  it('a transcript of 1,000 turns at launch: printed over frames, each turn once and in order, keys typed meanwhile kept', async () => {
    const session = await openSession({ cols: 120, rows: 40, env: { TILLER_BENCH_PREFILL: '1000' } });
    const { pty } = session;
    pty.write('typed early');
    await pty.waitFor((s) => s.includes('Answer number 1000:') && composerText(s) === 'typed early', 30_000);
    const text = pty.logicalText();
    let at = -1;
    for (let i = 1; i <= 1000; i++) {
      const next = text.indexOf(`Answer number ${i}:`, at + 1);
      expect(next, `answer ${i} after answer ${i - 1}`).toBeGreaterThan(at);
      expect(text.indexOf(`Answer number ${i}:`, next + 1), `answer ${i} once`).toBe(-1);
      at = next;
    }
  });

  it('a 1 MiB paste in a terminal without bracketed paste, paused halfway, becomes one placeholder and is sent whole', async () => {
    const session = await openSession({ cols: 120, rows: 40 });
    const { server, pty } = session;
    const text = oneLine(1 << 20);
    const half = 600_000;
    server.enqueue({ text: 'Got the megabyte.' });
    // The sender stalls after the first part for longer than the detector waits: the part is a
    // placeholder on screen before the rest arrives, and the rest joins it.
    pty.write(text.slice(0, half));
    await pty.waitFor(`[Pasted Content ${half} chars]`, 90_000);
    pty.write(text.slice(half));
    await pty.waitFor(`[Pasted Content ${1 << 20} chars]`, 90_000);
    // One placeholder in the composer (the row above it previews the one under the caret).
    expect(composerText(pty.screen())).toBe(`[Pasted Content ${1 << 20} chars]`);
    pty.press('enter');
    const [request] = await waitForRequests(session, 1, 30_000);
    expect(lastUserText(request!)).toBe(text);
    await pty.waitFor('Got the megabyte.', 30_000);
  });
});
