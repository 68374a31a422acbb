/**
 * Editing an earlier message (Esc Esc, Enter) through the real bin in a pty keeps the /model choice
 * and its reasoning effort (issue 30: the resent message went out as the default model, no effort).
 */
import { describe, expect, it } from 'vitest';
import { composerText, sessionPerTest, typeSlowly, waitForRequests } from './helpers.js';

const openSession = sessionPerTest();

describe('backtrack and /model', { timeout: 60_000 }, () => {
  it('the edited message goes out with the model and effort chosen before it', async () => {
    const session = await openSession({ args: ['--model', 'fake-model'] });
    const { pty, server } = session;
    const answers = (screen: string): number => screen.split('• ok').length - 1;
    await typeSlowly(pty, 'one');
    pty.press('enter');
    await pty.waitFor((s) => answers(s) === 1 && !s.includes('esc to interrupt'));
    await typeSlowly(pty, '/model');
    pty.press('enter');
    await pty.waitFor('▸ fake-model (current)');
    await pty.type('reason', 30);
    await pty.waitFor('filter: reason');
    pty.press('enter');
    await pty.waitFor('Reasoning effort for fake-reasoner');
    pty.write('5');
    await pty.waitFor('• Model: fake-reasoner, reasoning effort high');
    await typeSlowly(pty, 'two');
    pty.press('enter');
    // The fork before this turn knows only the settings the thread had after `one`.
    await pty.waitFor((s) => answers(s) === 2 && !s.includes('esc to interrupt'));

    pty.press('esc');
    await pty.waitFor('esc again to edit previous message');
    pty.press('esc');
    await pty.waitFor((s) => pty.bufferType() === 'alternate' && s.includes('esc/← older'));
    pty.press('enter');
    const back = await pty.waitFor((s) => pty.bufferType() === 'normal' && s.includes('Editing an earlier message'));
    expect(composerText(back)).toBe('two');
    expect(back.trimEnd().split('\n').at(-1)).toMatch(/ fake-reasoner high$/);
    pty.press('enter');
    const requests = await waitForRequests(session, 3);
    expect(requests[2]!.body).toMatchObject({ model: 'fake-reasoner', reasoning: { effort: 'high' } });
    expect(server.requests).toHaveLength(3);
  });
});
