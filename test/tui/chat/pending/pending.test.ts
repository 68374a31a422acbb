/** The pending lists (steers waiting for a tool call, rejected steers, queued messages) as pure updates. */
import { describe, expect, it } from 'vitest';
import {
  addPending,
  popLastQueued,
  rejectPendingSteer,
  removePendingSteer,
  shiftNextQueued,
  takeAllPending,
} from '../../../../src/tui/chat/pending/pending.js';
import type { ComposerState } from '../../../../src/tui/composer/state.js';
import type { Submission } from '../../../../src/tui/composer/types.js';
import { initialChatState, type ChatState } from '../../../../src/tui/store.js';

const sub = (text: string): Submission => ({ text, textElements: [], attachments: [] });

function withLists(p: { steers?: string[]; rejected?: string[]; queued?: string[] }): ChatState {
  let s = initialChatState({} as ComposerState);
  for (const t of p.steers ?? []) s = { ...s, ...addPending(s, 'pendingSteers', sub(t)).update };
  for (const t of p.rejected ?? []) s = { ...s, ...addPending(s, 'rejectedSteers', sub(t)).update };
  for (const t of p.queued ?? []) s = { ...s, ...addPending(s, 'queued', sub(t)).update };
  return s;
}
const texts = (items: { text: string }[]): string[] => items.map((i) => i.text);

describe('pending lists', () => {
  it('adds with increasing ids, at the front when asked', () => {
    const s = withLists({ queued: ['a', 'b'] });
    const { update, id } = addPending(s, 'queued', sub('first'), { front: true, action: 'plain' });
    expect(id).toBe(3);
    expect(texts(update.queued ?? [])).toEqual(['first', 'a', 'b']);
    expect(update.queued?.[0]?.action).toBe('plain');
  });

  it('removes and rejects a pending steer by id', () => {
    const s = withLists({ steers: ['a', 'b'] });
    const b = s.pendingSteers[1]!;
    expect(removePendingSteer(s, b.id)).toMatchObject({ removed: { text: 'b' } });
    expect(removePendingSteer(s, 99)).toEqual({ update: {}, removed: null });
    const rejected = rejectPendingSteer(s, b.id);
    expect(texts(rejected.pendingSteers ?? [])).toEqual(['a']);
    expect(texts(rejected.rejectedSteers ?? [])).toEqual(['b']);
  });

  it('pops the latest queued message, else the latest rejected steer', () => {
    expect(popLastQueued(withLists({ rejected: ['r'], queued: ['q1', 'q2'] }))?.item.text).toBe('q2');
    expect(popLastQueued(withLists({ rejected: ['r1', 'r2'] }))?.item.text).toBe('r2');
    expect(popLastQueued(withLists({ steers: ['s'] }))).toBeNull();
  });

  it('drains rejected steers before queued messages, oldest first', () => {
    let s = withLists({ rejected: ['r1', 'r2'], queued: ['q1'] });
    const order: string[] = [];
    for (let next = shiftNextQueued(s); next !== null; next = shiftNextQueued(s)) {
      order.push(next.item.text);
      s = { ...s, ...next.update };
    }
    expect(order).toEqual(['r1', 'r2', 'q1']);
  });

  it('takes everything in restore order: rejected, pending, queued', () => {
    const { update, items } = takeAllPending(withLists({ steers: ['s'], rejected: ['r'], queued: ['q'] }));
    expect(texts(items)).toEqual(['r', 's', 'q']);
    expect(update).toEqual({ rejectedSteers: [], pendingSteers: [], queued: [] });
  });
});
