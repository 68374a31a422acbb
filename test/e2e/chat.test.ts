/**
 * The real bin in a pseudo-terminal against the fake Responses server: streaming, steering,
 * queueing and interrupting, checked on the screen a person sees and in the requests sent.
 */
import { describe, expect, it } from 'vitest';
import { TYPING_GAP_MS } from '../../src/tui/chat/approvals/typing-run.js';
import type { FakeResponsesServer, Gate, ScriptedResponse } from '../support/fake-responses-server.js';
import { composerLines, composerText, lastUserText, sessionPerTest, typeSlowly, userTexts, waitForRequests } from './helpers.js';

const openSession = sessionPerTest();

/** A first answer held after "Working on" until `gate.release()`: a running turn to type into. */
function heldAnswer(server: FakeResponsesServer): { answer: ScriptedResponse; gate: Gate } {
  const gate = server.gate();
  return { gate, answer: { deltas: ['Working ', 'on ', 'it, ', 'step ', 'by ', 'step.'], hold: { gate, afterDeltas: 2 } } };
}

describe('chat in the terminal', { timeout: 60_000 }, () => {
  it('streams the answer onto the screen after typing and Enter', async () => {
    const session = await openSession();
    const { server, pty } = session;
    server.enqueue({ text: 'Hello from the **fake** server.' });
    await typeSlowly(pty, 'hello');
    pty.press('enter');
    const screen = await pty.waitFor('Hello from the fake server.');
    expect(screen).toContain('› hello');
    expect(composerLines(screen)[0]).toBe('› Ask Tiller to do anything');
    const [request] = await waitForRequests(session, 1);
    expect(lastUserText(request!)).toBe('hello');
    expect(request!.body.stream).toBe(true);
  });

  it('Ctrl+L clears the screen and the scrollback; the draft stays and the conversation goes on', async () => {
    const session = await openSession();
    const { server, pty } = session;
    server.enqueue({ text: 'First answer.' }, { text: 'Second answer.' });
    await typeSlowly(pty, 'first question');
    pty.press('enter');
    await pty.waitFor((s) => s.includes('First answer.') && !s.includes('esc to interrupt'));
    await typeSlowly(pty, 'kept draft');
    pty.press('ctrl-l');
    const cleared = await pty.waitFor((s) => !s.includes('First answer.') && s.includes('› kept draft'));
    expect(cleared).not.toContain('› first question');
    expect(pty.scrollback()).not.toContain('First answer.');
    pty.press('enter');
    await pty.waitFor('Second answer.');
    const [, second] = await waitForRequests(session, 2);
    expect(userTexts(second!)).toEqual(['first question', 'kept draft']);
  });

  it('Ctrl+O copies the last answer: with no display, through the terminal (OSC 52)', async () => {
    const session = await openSession({ env: { DISPLAY: undefined, WAYLAND_DISPLAY: undefined } });
    const { server, pty } = session;
    server.enqueue({ text: 'Copy **this** answer.' });
    await typeSlowly(pty, 'hi');
    pty.press('enter');
    await pty.waitFor((s) => s.includes('Copy this answer.') && !s.includes('esc to interrupt'));
    pty.press('ctrl-o');
    await pty.waitFor('Copied the last answer (21 characters) to the clipboard via the terminal (OSC 52).');
    expect(pty.raw()).toContain(`\x1b]52;c;${Buffer.from('Copy **this** answer.').toString('base64')}\x07`);
  });

  it('Ctrl+T shows the whole transcript in a pager on the alternate screen; q brings the chat back as it was', async () => {
    const session = await openSession({ rows: 12, cols: 60 });
    const { server, pty } = session;
    const paragraphs = Array.from({ length: 8 }, (_, i) => `Pager paragraph ${i + 1}.`);
    server.enqueue({ text: paragraphs.join('\n\n') });
    await typeSlowly(pty, 'first');
    pty.press('enter');
    await pty.waitFor((s) => s.includes('Pager paragraph 8.') && !s.includes('esc to interrupt'));
    await typeSlowly(pty, 'draft');
    pty.press('ctrl-t');
    let screen = await pty.waitFor(' Transcript · ');
    expect(pty.bufferType()).toBe('alternate');
    expect(screen).toContain('Pager paragraph 8.');
    expect(screen).not.toContain('› first');
    pty.press('home');
    // The top of the transcript: the session header, its first cell.
    screen = await pty.waitFor((s) => s.includes('>_ Tiller (v'));
    expect(screen).toMatch(/Transcript · 1–11 of \d+/);
    pty.write('q');
    screen = await pty.waitFor((s) => !s.includes(' Transcript · ') && s.includes('› draft'));
    expect(pty.bufferType()).toBe('normal');
    expect(screen).toContain('Pager paragraph 8.');
    pty.press('ctrl-t');
    await pty.waitFor(' Transcript · ');
    process.kill(pty.pid, 'SIGTERM');
    expect(await pty.waitForExit()).toBe(143);
    expect(pty.bufferType()).toBe('normal');
  });

  it('prints an answer taller than the terminal into the scrollback once, in order', async () => {
    const session = await openSession({ rows: 12, cols: 60 });
    const { server, pty } = session;
    const paragraphs = Array.from({ length: 9 }, (_, i) => `Paragraph number ${i + 1}.`);
    // Held after each paragraph (three words), so the answer outgrows the screen over nine frames.
    const gates = paragraphs.slice(1).map(() => server.gate());
    server.enqueue({ text: paragraphs.join('\n\n'), hold: gates.map((gate, i) => ({ gate, afterDeltas: 3 * (i + 1) })) });
    await typeSlowly(pty, 'go');
    pty.press('enter');
    for (const [i, gate] of gates.entries()) {
      await pty.waitFor(`Paragraph number ${i + 1}.`);
      gate.release();
    }
    await pty.waitFor((s) => s.includes('Paragraph number 9.') && !s.includes('esc to interrupt'));
    const lines = pty.scrollback().split('\n');
    const start = lines.indexOf('› go');
    expect(lines.slice(start, start + 3)).toEqual(['› go', '', '• Paragraph number 1.']);
    for (let i = 2; i <= 9; i++) expect(lines.filter((l) => l === `  Paragraph number ${i}.`)).toHaveLength(1);
    const positions = paragraphs.slice(1).map((p) => lines.indexOf(`  ${p}`));
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
  });

  it('shows a pending steer while streaming, sends it in the next request, then moves it into the transcript', async () => {
    const session = await openSession();
    const { server, pty } = session;
    const { answer, gate } = heldAnswer(server);
    server.enqueue(answer, { text: 'Steer received.' });
    await typeSlowly(pty, 'first');
    pty.press('enter');
    await pty.waitFor('Working on');
    await typeSlowly(pty, 'also X');
    pty.press('enter');
    const pending = await pty.waitFor('• Messages to be submitted after next tool call');
    expect(pending).toContain('  ↳ also X');
    gate.release();
    const requests = await waitForRequests(session, 2);
    expect(userTexts(requests[1]!)).toEqual(['first', 'also X']);
    const after = await pty.waitFor((s) => s.includes('Steer received.') && !s.includes('Messages to be submitted'));
    expect(after).toContain('› also X');
  });

  it('queues a follow-up with Tab and sends it as the next turn', async () => {
    const session = await openSession();
    const { server, pty } = session;
    const { answer, gate } = heldAnswer(server);
    server.enqueue(answer, { text: 'Second turn answer.' });
    await typeSlowly(pty, 'first');
    pty.press('enter');
    await pty.waitFor('Working on');
    await typeSlowly(pty, 'next');
    pty.press('tab');
    const queued = await pty.waitFor('• Queued follow-up inputs');
    expect(queued).toContain('  ↳ next');
    // The first answer is held: the queued message cannot have gone yet.
    expect(server.requests).toHaveLength(1);
    gate.release();
    await pty.waitFor('Second turn answer.');
    const requests = await waitForRequests(session, 2);
    expect(lastUserText(requests[1]!)).toBe('next');
    expect(userTexts(requests[1]!)).toContain('first');
  });

  it('interrupts the running turn with Esc and says so', async () => {
    const session = await openSession();
    const { server, pty } = session;
    // Never released: Esc hangs up on it.
    server.enqueue(heldAnswer(server).answer, { text: 'after interrupt' });
    await typeSlowly(pty, 'go');
    pty.press('enter');
    await pty.waitFor('Working on');
    pty.press('esc');
    const screen = await pty.waitFor('Conversation interrupted');
    expect(screen).toContain('■ Conversation interrupted - tell the model what to do differently.');
    await pty.waitFor((s) => !s.includes('esc to interrupt'));
    await typeSlowly(pty, 'again');
    pty.press('enter');
    const requests = await waitForRequests(session, 2);
    expect(userTexts(requests[1]!).some((t) => t.includes('<turn_aborted>'))).toBe(true);
    expect(lastUserText(requests[1]!)).toBe('again');
  });

  it('interrupts with Esc when steers are pending and sends them as the next turn', async () => {
    const session = await openSession();
    const { server, pty } = session;
    server.enqueue(heldAnswer(server).answer, { text: 'Handled the steer.' });
    await typeSlowly(pty, 'first');
    pty.press('enter');
    await pty.waitFor('Working on');
    await typeSlowly(pty, 'also X');
    pty.press('enter');
    await pty.waitFor('  ↳ also X');
    pty.press('esc');
    const screen = await pty.waitFor('Handled the steer.');
    expect(screen).toContain('• Model interrupted to submit steer instructions.');
    const requests = await waitForRequests(session, 2);
    expect(lastUserText(requests[1]!)).toBe('also X');
  });

  it('takes the last queued message back into the composer with Alt+Up', async () => {
    const session = await openSession();
    const { pty } = session;
    session.server.enqueue(heldAnswer(session.server).answer);
    await typeSlowly(pty, 'first');
    pty.press('enter');
    await pty.waitFor('Working on');
    await typeSlowly(pty, 'later');
    pty.press('tab');
    await pty.waitFor('• Queued follow-up inputs');
    pty.press('alt-up');
    const screen = await pty.waitFor((s) => !s.includes('Queued follow-up inputs'));
    expect(composerText(screen)).toBe('later');
  });

  it('letters typed on as the approval prompt appears go into the draft under it: "yes" does not run the command', async () => {
    // No sandbox: `on-request` then asks before every command (inside one, `echo` would just run).
    const session = await openSession({
      env: { OPENAI_BASE_URL: undefined, OPENAI_API_KEY: undefined },
      args: ['-s', 'danger-full-access'],
    });
    const { pty } = session;
    await typeSlowly(pty, 'run: echo guard-check');
    pty.press('enter');
    await pty.type('yes', 40);
    const screen = await pty.waitFor((s) => s.includes('Would you like to run the following command?') && s.includes('› yes'));
    expect(screen.indexOf('› yes')).toBeGreaterThan(screen.indexOf('Would you like to run'));
    expect(screen).not.toContain('│ guard-check');
    await new Promise((resolve) => setTimeout(resolve, TYPING_GAP_MS));
    pty.write('n');
    const after = await pty.waitFor((s) => s.includes('declined') && !s.includes('Would you like to run'));
    expect(after).not.toContain('│ guard-check');
    expect(composerText(after)).toBe('yes');
  });

  it('asks before running a shell command and runs it after y, the draft kept', async () => {
    const session = await openSession({
      env: { OPENAI_BASE_URL: undefined, OPENAI_API_KEY: undefined },
      args: ['-s', 'danger-full-access'],
    });
    const { pty } = session;
    await typeSlowly(pty, 'run: echo tiller-approval-check');
    pty.press('enter');
    const modal = await pty.waitFor('Would you like to run the following command?');
    expect(modal).toContain('$ echo tiller-approval-check');
    expect(modal).not.toContain('Ask Tiller to do anything');
    // A paste while the prompt owns the keys goes into the composer and waits there.
    pty.paste('my draft');
    // A person reads the prompt first; a letter in the same run as the typing before it is not an answer.
    await new Promise((resolve) => setTimeout(resolve, TYPING_GAP_MS));
    pty.write('y');
    const after = await pty.waitFor((s) => s.includes('│ tiller-approval-check') && !s.includes('esc to interrupt'));
    expect(composerText(after)).toBe('my draft');
  });
});
