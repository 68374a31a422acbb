/**
 * The approval prompt and stray keys through the real bin in a pty (issue 30): an `n` the moment the
 * prompt appears declines (it used to go into the draft unseen), and Backspace edits the draft shown
 * under the prompt.
 */
import { describe, expect, it } from 'vitest';
import { TYPING_GAP_MS } from '../../src/tui/chat/approvals/typing-run.js';
import { composerText, sessionPerTest, typeSlowly } from './helpers.js';

const openSession = sessionPerTest();
const PROMPT = 'Would you like to run the following command?';
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The offline model with no sandbox: `on-request` asks before every command. */
const offline = { env: { OPENAI_BASE_URL: undefined, OPENAI_API_KEY: undefined }, args: ['-s', 'danger-full-access'] };

describe('the approval prompt and stray keys', { timeout: 60_000 }, () => {
  it('an n pressed as soon as the prompt shows declines it; the draft stays empty', async () => {
    const { pty } = await openSession(offline);
    await typeSlowly(pty, 'run: echo stray-n');
    pty.press('enter');
    await pty.waitFor(PROMPT, undefined, { quietMs: 1 });
    pty.write('n');
    const after = await pty.waitFor((s) => s.includes('declined') && !s.includes(PROMPT));
    expect(after).not.toContain('│ stray-n');
    expect(composerText(after)).toBe('');
  });

  it('Backspace edits the draft under the prompt; a lone y then runs the command', async () => {
    const { pty } = await openSession(offline);
    await typeSlowly(pty, 'run: echo backspace-check');
    pty.press('enter');
    await pty.waitFor(PROMPT);
    pty.paste('my draftX');
    await pty.waitFor((s) => s.includes('› my draftX'));
    pty.press('backspace');
    await pty.waitFor((s) => s.includes(PROMPT) && s.includes('› my draft') && !s.includes('draftX'));
    await sleep(TYPING_GAP_MS);
    pty.write('y');
    const after = await pty.waitFor((s) => s.includes('│ backspace-check') && !s.includes('esc to interrupt'));
    expect(composerText(after)).toBe('my draft');
  });
});
