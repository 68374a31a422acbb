import { describe, expect, it } from 'vitest';
import { PendingInputs, userCell } from '../../../../src/tui/chat/pending/pending-inputs.js';
import { initialComposerState } from '../../../../src/tui/composer/state.js';
import type { Submission } from '../../../../src/tui/composer/types.js';
import { createChatStore } from '../../../../src/tui/store.js';
import { probeMedia, text } from '../harness.js';

const sub = (t: string): Submission => ({ text: t, textElements: [], attachments: [] });

function setup(): {
  pending: PendingInputs;
  shown: string[];
  lists: () => Record<'pendingSteers' | 'rejectedSteers' | 'queued', string[]>;
} {
  const store = createChatStore(initialComposerState({ vimEnabled: false, probeMedia, platform: 'linux' }));
  const shown: string[] = [];
  const pending = new PendingInputs(
    store,
    (s) => shown.push(s.text),
    () => 0,
  );
  const lists = () => {
    const s = store.getState();
    return {
      pendingSteers: s.pendingSteers.map((p) => p.text),
      rejectedSteers: s.rejectedSteers.map((p) => p.text),
      queued: s.queued.map((p) => p.text),
    };
  };
  return { pending, shown, lists };
}

describe('PendingInputs', () => {
  it('a recorded user message commits only the front steer, and shows its prompt once', () => {
    const { pending, shown, lists } = setup();
    pending.addSteer(sub('a'), [text('a')]);
    pending.addSteer(sub('b'), [text('b')]);
    pending.commit([text('b')], 'item', null);
    expect(lists().pendingSteers).toEqual(['a', 'b']);
    pending.commit([text('a')], 'item', null);
    pending.commit([text('a')], 'item', null);
    expect(lists().pendingSteers).toEqual(['b']);
    expect(shown).toEqual(['a']);
  });

  it('a start steered into the running turn: a row whose prompt is already shown is never shown again', () => {
    const { pending, shown, lists } = setup();
    pending.startSteered('turn-2', [text('x')], { submission: sub('x'), pendingId: null });
    expect(lists().pendingSteers).toEqual(['x']);
    pending.commit([text('x')], 'item', null);
    expect(lists().pendingSteers).toEqual([]);
    expect(shown).toEqual([]);
  });

  it('a steered start that begins its own turn turns a pending row into the prompt', () => {
    const { pending, shown, lists } = setup();
    const id = pending.addSteer(sub('y'), [text('y')]);
    pending.startSteered('turn-3', [text('y')], { submission: sub('y'), pendingId: id });
    pending.turnStarted('turn-9');
    expect(lists().pendingSteers).toEqual(['y']);
    pending.turnStarted('turn-3');
    expect(lists().pendingSteers).toEqual([]);
    expect(shown).toEqual(['y']);
  });

  it('a rejected steer is sent first once idle; Alt+Up takes the latest queued message first', () => {
    const { pending, lists } = setup();
    pending.queue(sub('q1'), { action: 'plain' });
    pending.queue(sub('q2'), { action: 'plain' });
    pending.rejectSteer(pending.addSteer(sub('r'), [text('r')]), 'compact turns cannot be steered: queued');
    expect(lists()).toEqual({ pendingSteers: [], rejectedSteers: ['r'], queued: ['q1', 'q2'] });
    expect(pending.popLastQueued()?.text).toBe('q2');
    expect(pending.shiftNextQueued()?.text).toBe('r');
    expect(pending.shiftNextQueued()?.text).toBe('q1');
    expect(pending.shiftNextQueued()).toBeNull();
    expect(pending.popLastQueued()).toBeNull();
  });

  it('an interrupt takes the steers alone, or everything in restore order', () => {
    const { pending, lists } = setup();
    pending.queue(sub('q'), { action: 'plain' });
    pending.addSteer(sub('s1'), [text('s1')]);
    pending.addSteer(sub('s2'), [text('s2')]);
    expect(pending.takeSteers().map((s) => s.text)).toEqual(['s1', 's2']);
    expect(lists()).toEqual({ pendingSteers: [], rejectedSteers: [], queued: ['q'] });
    pending.rejectSteer(pending.addSteer(sub('r'), [text('r')]), 'compact turns cannot be steered: queued');
    pending.addSteer(sub('s'), [text('s')]);
    pending.queue(sub('first'), { action: 'plain', front: true });
    expect(pending.takeAll().map((s) => s.text)).toEqual(['r', 's', 'first', 'q']);
    expect(lists()).toEqual({ pendingSteers: [], rejectedSteers: [], queued: [] });
  });

  it('userCell labels each attachment with its placeholder and file name', () => {
    const attachment = {
      kind: 'image' as const,
      placeholder: '[Image #1]',
      path: '/tmp/a.png',
      fileName: 'a.png',
      bytes: 1,
      width: 1,
      height: 1,
      mime: 'image/png',
    };
    expect(userCell({ text: '[Image #1] hi', textElements: [], attachments: [attachment] })).toEqual({
      kind: 'user',
      text: '[Image #1] hi',
      textElements: [],
      attachmentLabels: ['[Image #1] a.png'],
      turnId: null,
    });
  });
});
