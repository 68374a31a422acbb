import { describe, expect, it } from 'vitest';
import type { NotifyMethod } from '../../../src/runtime/config-check.js';
import {
  approvalNotification,
  AttentionNotifier,
  forTmux,
  notificationSequence,
  TURN_FINISHED_NOTIFICATION,
} from '../../../src/tui/chat/attention.js';
import { createHarness, running, type Harness } from './harness.js';

const approval = (command: string) => ({
  threadId: 'thread-1',
  turnId: 'turn-1',
  itemId: 'c1',
  startedAtMs: 0,
  command,
  commandActions: [],
  cwd: '/work',
  reason: null,
});

async function harness(notify?: NotifyMethod): Promise<{ h: Harness; written: string[] }> {
  const written: string[] = [];
  const h = await createHarness({ writeToTerminal: (data) => written.push(data), ...(notify ? { config: { notify } } : {}) });
  return { h, written };
}

describe('notifications when the terminal is not focused', () => {
  it('a finished turn writes OSC 9 (the default) while unfocused', async () => {
    const { h, written } = await harness();
    h.ctrl.setFocused(false);
    await running(h, 'secret prompt text');
    h.completeTurn('turn-1');
    expect(written).toEqual(['\x1b]9;Tiller: turn finished\x07']);
    // Only what happened: never the prompt.
    expect(written.join('')).not.toContain('secret');
  });

  it('writes nothing while focused, and nothing before the terminal ever reported focus', async () => {
    const { h, written } = await harness();
    await running(h);
    h.completeTurn('turn-1');
    expect(written).toEqual([]);
    h.ctrl.setFocused(true);
    h.type('second');
    h.press('enter');
    await h.settle();
    h.startTurn('turn-2');
    h.completeTurn('turn-2');
    expect(written).toEqual([]);
  });

  it('follows focus as it changes: out, in, out', async () => {
    const { h, written } = await harness();
    h.ctrl.setFocused(false);
    h.ctrl.setFocused(true);
    await running(h);
    h.completeTurn('turn-1');
    expect(written).toEqual([]);
    h.ctrl.setFocused(false);
    h.type('again');
    h.press('enter');
    await h.settle();
    h.startTurn('turn-2');
    h.completeTurn('turn-2', 'failed', 'boom');
    expect(written).toEqual(['\x1b]9;Tiller: turn finished\x07']);
  });

  it('an approval that waits says so, with the command cut to 60 characters', async () => {
    const { h, written } = await harness();
    h.ctrl.setFocused(false);
    await running(h);
    const command = `npm run build && ${'x'.repeat(80)}`;
    void h.client.serverRequest('item/commandExecution/requestApproval', approval(command));
    expect(h.store.getState().modal).not.toBeNull();
    expect(written).toEqual([`\x1b]9;Tiller: approval needed: ${command.slice(0, 59)}…\x07`]);
  });

  it('not for an interrupted turn (the user pressed Esc), nor while a queued follow-up starts', async () => {
    const { h, written } = await harness();
    h.ctrl.setFocused(false);
    await running(h);
    h.completeTurn('turn-1', 'interrupted');
    expect(written).toEqual([]);
    h.type('next');
    h.press('enter');
    await h.settle();
    h.startTurn('turn-2');
    h.type('queued');
    h.press('tab');
    h.completeTurn('turn-2');
    await h.settle();
    // The queued message went out as the next turn: the work goes on.
    expect(h.client.requestsOf('turn/start').at(-1)).toMatchObject({ input: [{ type: 'text', text: 'queued' }] });
    expect(written).toEqual([]);
  });

  it('OSC 777, a bell or nothing, as config `notify` says', async () => {
    const seen: Record<string, string[]> = {};
    for (const method of ['osc777', 'bell', 'off'] as const) {
      const { h, written } = await harness(method);
      h.ctrl.setFocused(false);
      await running(h);
      h.completeTurn('turn-1');
      seen[method] = written;
    }
    expect(seen).toEqual({ osc777: ['\x1b]777;notify;Tiller;turn finished\x07'], bell: ['\x07'], off: [] });
  });
});

describe('attention pieces', () => {
  it('keeps control characters out of the sequence', () => {
    expect(notificationSequence('osc9', 'a\x07b\x1b]c\nd\x9c')).toBe('\x1b]9;a b ]c d \x07');
  });

  it('puts a multi-line command on one line; a short one is whole', () => {
    expect(approvalNotification('ls\n  -la')).toBe('Tiller: approval needed: ls -la');
    expect(Array.from(approvalNotification('é'.repeat(100)).slice('Tiller: approval needed: '.length))).toHaveLength(60);
  });

  it('wraps an OSC in tmux passthrough, each ESC doubled; a bell goes as it is', () => {
    expect(forTmux('\x1b]9;Tiller: turn finished\x07')).toBe('\x1bPtmux;\x1b\x1b]9;Tiller: turn finished\x07\x1b\\');
    expect(forTmux('\x07')).toBe('\x07');
  });

  it('a terminal write that throws is not the controller’s problem', () => {
    const notifier = new AttentionNotifier('osc9', () => {
      throw new Error('EIO');
    });
    notifier.setFocused(false);
    expect(notifier.notify(TURN_FINISHED_NOTIFICATION)).toBe(false);
  });
});
