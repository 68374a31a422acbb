/**
 * Token usage through the real bin in a pty: once the last request used over half of gpt-5.5's
 * 272,000-token window the footer says what is left, /status gives the percentage, and on exit the
 * usage line comes under the resume line (as Codex prints it).
 */
import { describe, expect, it } from 'vitest';
import { sessionPerTest, typeSlowly } from './helpers.js';

const openSession = sessionPerTest();

describe('token usage on screen', { timeout: 60_000 }, () => {
  it('footer and /status show the context left; the exit prints the usage under the resume line', async () => {
    const { pty, server } = await openSession({ cols: 120, rows: 30 });
    expect(pty.screen()).not.toContain('context left');
    server.enqueue({ text: 'A long answer.', usage: { input_tokens: 150_000, output_tokens: 5, cached_tokens: 1_000 } });
    await typeSlowly(pty, 'hello');
    pty.press('enter');
    // (150,005 − 12,000) of (272,000 − 12,000) used: 47 % left.
    const screen = await pty.waitFor((s) => s.includes('A long answer.') && s.includes('47% context left'));
    expect(screen.trimEnd().split('\n').at(-1)).toMatch(/47% context left · gpt-5\.5/);

    await typeSlowly(pty, '/status');
    pty.press('enter');
    await pty.waitFor('Context:   47% left (150,005 of 272,000 tokens in the last request)');

    pty.press('ctrl-c');
    await pty.waitFor('press Ctrl+C again to quit');
    pty.press('ctrl-c');
    expect(await pty.waitForExit()).toBe(0);
    const tail = pty.scrollback().trimEnd().split('\n').slice(-2);
    expect(tail[0]).toMatch(/^To continue this session, run tiller resume [0-9a-f-]{36}$/);
    expect(tail[1]).toBe('Token usage so far: total=149,005 input=149,000 (+ 1,000 cached) output=5');
  });
});
