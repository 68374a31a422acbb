/**
 * Paste chips end to end: a 5,000-character bracketed paste shows its preview above the composer,
 * Ctrl+X (0x18) expands it into the composer and collapses it back, and the full text is sent.
 */
import { describe, expect, it } from 'vitest';
import { composerText, lastUserText, sessionPerTest, waitForRequests } from './helpers.js';

const openSession = sessionPerTest();

const CTRL_X = '\x18';
const FIRST = 'first line of the paste';
const LAST = 'the very last line';

/** 120 lines (none wider than the screen), 5,000 characters in all. */
function pasteText(): string {
  const middle = Array.from({ length: 118 }, (_, i) => `middle ${String(i).padStart(3, '0')} ${'m'.repeat(30)}`);
  const text = [FIRST, ...middle, LAST].join('\n');
  middle[117] += 'z'.repeat(5000 - text.length);
  return [FIRST, ...middle, LAST].join('\n');
}

const PREVIEW = '[Pasted Content 5000 chars] · 120 lines · ctrl + x expand';
const EXPANDED = '[Pasted Content 5000 chars] expanded · 120 lines · ctrl + x collapse';

describe('paste chips in the terminal', { timeout: 60_000 }, () => {
  it('previews a 5,000-character paste, Ctrl+X expands it and collapses it back, Enter sends it whole', async () => {
    const session = await openSession();
    const { pty } = session;
    const text = pasteText();
    expect(text).toHaveLength(5000);
    pty.paste(text);
    const preview = await pty.waitFor((s) => s.includes(PREVIEW) && s.includes(`    ${LAST}`));
    const rows = preview.split('\n');
    expect(rows.slice(rows.indexOf(`  ${PREVIEW}`) + 1, rows.indexOf(`  ${PREVIEW}`) + 4)).toEqual([
      `    ${FIRST}`,
      '    …',
      `    ${LAST}`,
    ]);
    // The preview rows are counted: the real cursor is still on the composer's row, after the placeholder.
    expect(pty.cursor()).toEqual({ x: 2 + '[Pasted Content 5000 chars]'.length, y: rows.indexOf('› [Pasted Content 5000 chars]') });

    pty.write(CTRL_X);
    const expanded = await pty.waitFor((s) => s.includes(EXPANDED) && s.includes(`  ${LAST}`) && !s.includes(PREVIEW));
    // The caret is after the text, on its last line.
    const lines = expanded.split('\n');
    expect(pty.cursor()).toEqual({ x: 2 + LAST.length, y: lines.indexOf(`  ${LAST}`) });
    expect(lines).toContain(`  ${text.split('\n')[118]}`);

    pty.write(CTRL_X);
    await pty.waitFor((s) => s.includes(PREVIEW) && composerText(s) === '[Pasted Content 5000 chars]');

    pty.press('enter');
    const [request] = await waitForRequests(session, 1);
    expect(lastUserText(request!)).toBe(text);
    expect(session.server.requests).toHaveLength(1);
  });
});
