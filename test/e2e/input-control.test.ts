/**
 * Control of input after Enter through the real bin: a steer retracted before the tool call ends is
 * not in the next request, a queued message edited in the list goes out edited, a delivered steer
 * shows its receipt, and Ctrl+Enter interrupts and sends only the draft. The tool call waits on a
 * gate file the test creates, so nothing depends on timing.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { composerText, lastUserText, sessionPerTest, typeSlowly, userTexts, waitForRequests } from './helpers.js';

const openSession = sessionPerTest();
const ARGS = ['-a', 'never', '-s', 'danger-full-access'];

/** A shell call that ends once the test opens the gate (or after 30 s). */
function gatedCall(): { call: { functionCall: { name: string; arguments: unknown; callId: string } }; open: () => void } {
  const gate = join(mkdtempSync(join(tmpdir(), 'tiller-gate-')), 'open');
  const command = `for i in $(seq 1 600); do [ -f ${gate} ] && break; sleep 0.05; done; echo gate-passed`;
  return { call: { functionCall: { name: 'shell', arguments: { command }, callId: 'gate' } }, open: () => writeFileSync(gate, '') };
}

describe('control of input after Enter', { timeout: 60_000 }, () => {
  it('a steer retracted before the tool call ends is not in the next request', async () => {
    const session = await openSession({ cols: 120, rows: 40, args: ARGS });
    const { server, pty } = session;
    const gate = gatedCall();
    server.enqueue(gate.call, { text: 'Tool done, nothing else.' });
    await typeSlowly(pty, 'run it');
    pty.press('enter');
    await waitForRequests(session, 1);
    await pty.waitFor('esc to interrupt');
    await typeSlowly(pty, 'forget this');
    pty.press('enter');
    await pty.waitFor('↳ forget this · waiting for the next tool call');
    pty.write('\x11');
    await pty.waitFor('› ↳ forget this');
    pty.write('d');
    await pty.waitFor((s) => !s.includes('forget this'));
    gate.open();
    await pty.waitFor('Tool done, nothing else.');
    const [, second] = await waitForRequests(session, 2);
    expect(userTexts(second!)).toEqual(['run it']);
    expect(pty.scrollback()).not.toContain('forget this');
  });

  it('a queued message edited in the list goes out edited as the follow-up turn', async () => {
    const session = await openSession({ cols: 120, rows: 40, args: ARGS });
    const { server, pty } = session;
    const gate = gatedCall();
    server.enqueue(gate.call, { text: 'First turn done.' }, { text: 'Follow-up done.' });
    await typeSlowly(pty, 'start');
    pty.press('enter');
    await pty.waitFor('esc to interrupt');
    await typeSlowly(pty, 'queued msg');
    pty.press('tab');
    await pty.waitFor('↳ queued msg');
    pty.write('\x11');
    pty.write('e');
    await pty.waitFor('editing: not sent until you press enter');
    expect(composerText(pty.screen())).toBe('queued msg');
    await typeSlowly(pty, ' edited');
    pty.press('enter');
    await pty.waitFor('↳ queued msg edited');
    gate.open();
    await pty.waitFor('Follow-up done.');
    const requests = await waitForRequests(session, 3);
    expect(lastUserText(requests[2]!)).toBe('queued msg edited');
    expect(requests.flatMap(userTexts)).not.toContain('queued msg');
  });

  it('a delivered steer shows its receipt under the prompt', async () => {
    const session = await openSession({ cols: 120, rows: 40, args: ARGS });
    const { server, pty } = session;
    const gate = gatedCall();
    server.enqueue(gate.call, { text: 'Steer taken.' });
    await typeSlowly(pty, 'work');
    pty.press('enter');
    await pty.waitFor('esc to interrupt');
    await typeSlowly(pty, 'also this');
    pty.press('enter');
    await pty.waitFor('↳ also this · waiting for the next tool call');
    gate.open();
    await pty.waitFor('Steer taken.');
    const [, second] = await waitForRequests(session, 2);
    expect(userTexts(second!)).toEqual(['work', 'also this']);
    const lines = pty.scrollback().split('\n');
    const at = lines.indexOf('› also this');
    expect(at).toBeGreaterThan(0);
    expect(lines[at + 1]).toMatch(/^ {2}↳ delivered after \$ for i in .* \(sampling 2\) · \d+\.\d s after Enter$/u);
  });

  it('Ctrl+Enter interrupts the turn and sends only the draft; a queued message stays queued', async () => {
    const session = await openSession({ cols: 120, rows: 40, args: ARGS });
    const { server, pty } = session;
    const gate = gatedCall();
    server.enqueue(gate.call, { text: 'Only this, answered.' }, { text: 'The queued one.' });
    await typeSlowly(pty, 'long job');
    pty.press('enter');
    await pty.waitFor('esc to interrupt');
    await typeSlowly(pty, 'later');
    pty.press('tab');
    await pty.waitFor('↳ later');
    await typeSlowly(pty, 'only this');
    pty.write('\x1b[13;5u');
    await pty.waitFor('Model interrupted to send this message now');
    await pty.waitFor('The queued one.');
    const requests = await waitForRequests(session, 3);
    expect(lastUserText(requests[1]!)).toBe('only this');
    expect(lastUserText(requests[2]!)).toBe('later');
    gate.open();
  });

  it('Ctrl+Enter with a pending steer sends only the draft; the steer is not merged into it and follows on its own', async () => {
    const session = await openSession({ cols: 120, rows: 40, args: ARGS });
    const { server, pty } = session;
    const gate = gatedCall();
    server.enqueue(gate.call, { text: 'Urgent answered.' }, { text: 'Steer answered.' });
    await typeSlowly(pty, 'long job');
    pty.press('enter');
    await pty.waitFor('esc to interrupt');
    await typeSlowly(pty, 'steer SSS');
    pty.press('enter');
    await pty.waitFor('↳ steer SSS · waiting for the next tool call');
    await typeSlowly(pty, 'urgent ZZZ');
    pty.write('\x1b[13;5u');
    await pty.waitFor('Model interrupted to send this message now');
    await pty.waitFor('Urgent answered.');
    const requests = await waitForRequests(session, 2);
    expect(lastUserText(requests[1]!)).toBe('urgent ZZZ');
    expect(userTexts(requests[1]!).some((t) => t.includes('steer SSS'))).toBe(false);
    // The steer reaches the new turn at its next request, as a message of its own.
    await pty.waitFor('Steer answered.');
    const third = (await waitForRequests(session, 3))[2]!;
    expect(userTexts(third).slice(-2)).toEqual(['urgent ZZZ', 'steer SSS']);
    gate.open();
  });

  it('a message moved from the queue to the steers counts its receipt from its Tab, not from the move', async () => {
    const session = await openSession({ cols: 120, rows: 40, args: ARGS });
    const { server, pty } = session;
    const gate = gatedCall();
    server.enqueue(gate.call, { text: 'Moved one taken.' });
    await typeSlowly(pty, 'work');
    pty.press('enter');
    await pty.waitFor('esc to interrupt');
    await typeSlowly(pty, 'moved msg');
    pty.press('tab');
    await pty.waitFor('↳ moved msg');
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    pty.write('\x11');
    pty.write('s');
    await pty.waitFor('↳ moved msg · waiting for the next tool call');
    gate.open();
    await pty.waitFor('Moved one taken.');
    const lines = pty.scrollback().split('\n');
    const receipt = lines[lines.indexOf('› moved msg') + 1] ?? '';
    const seconds = Number(/· (\d+(?:\.\d)?) s after Enter$/u.exec(receipt)?.[1]);
    expect(seconds, receipt).toBeGreaterThanOrEqual(2);
  });
});
