/**
 * The model's reasoning in the real TUI: the summary streams as a dim thought, stays as one line once
 * the answer starts, Ctrl+T shows all of it; the next request sends the reasoning item back.
 */
import { describe, expect, it } from 'vitest';
import { sessionPerTest, typeSlowly, waitForRequests } from './helpers.js';

const openSession = sessionPerTest();

describe('reasoning in the terminal', { timeout: 60_000 }, () => {
  it('a thought line above the answer, the whole summary in Ctrl+T, the item sent back', async () => {
    const session = await openSession();
    const { server, pty } = session;
    const gate = server.gate();
    server.enqueue(
      {
        reasoning: { summary: ['Checking the parser first.\n\nThen the tests that cover CRLF.'], encryptedContent: 'ENC' },
        text: 'The parser keeps CRLF.',
        hold: { gate, afterDeltas: 0 },
      },
      { text: 'ok' },
    );
    await typeSlowly(pty, 'why');
    pty.press('enter');
    const thinking = await pty.waitFor('Checking the parser first.');
    expect(thinking).toContain('• Checking the parser first. (Ctrl+T shows all)');
    expect(thinking).not.toContain('Then the tests that cover CRLF.');
    gate.release();
    await pty.waitFor((s) => s.includes('The parser keeps CRLF.') && !s.includes('esc to interrupt'));
    pty.press('ctrl-t');
    await pty.waitFor('Then the tests that cover CRLF.');
    pty.press('esc');
    await pty.waitFor((s) => !s.includes('Then the tests that cover CRLF.'));
    await typeSlowly(pty, 'again');
    pty.press('enter');
    const [first, second] = await waitForRequests(session, 2);
    expect(first!.body.reasoning).toEqual({ effort: 'medium', summary: 'auto' });
    expect(second!.body.input).toContainEqual({
      type: 'reasoning',
      summary: [{ type: 'summary_text', text: 'Checking the parser first.\n\nThen the tests that cover CRLF.' }],
      content: null,
      encrypted_content: 'ENC',
    });
  });
});
