/** DeltaBuffer: streamed deltas written at most once a frame, the first after a quiet frame at once. */
import { describe, expect, it } from 'vitest';
import { DeltaBuffer, FRAME_MS, type PendingDeltas } from '../../../../src/tui/chat/turn/delta-buffer.js';
import { FakeClock } from '../harness.js';

const d = (agent: string, command = '', reasoning = ''): PendingDeltas => ({ agent, command, reasoning });

describe('DeltaBuffer', () => {
  it('writes the first delta at once, batches the rest of the frame, and flushes on demand', () => {
    const clock = new FakeClock();
    const writes: PendingDeltas[] = [];
    const buf = new DeltaBuffer(clock.schedule, (x) => writes.push(x));
    buf.pushAgent('a');
    expect(writes).toEqual([d('a')]);
    buf.pushAgent('b');
    buf.pushCommand('x');
    buf.pushReasoning('r');
    expect(writes).toHaveLength(1);
    clock.advance(FRAME_MS);
    expect(writes).toEqual([d('a'), d('b', 'x', 'r')]);
    buf.pushAgent('c');
    buf.flush();
    expect(writes.at(-1)).toEqual(d('c'));
    expect(clock.pending).toBe(0);
    buf.pushAgent('now');
    expect(writes.at(-1)).toEqual(d('now'));
    buf.pushAgent('gone');
    buf.discard();
    clock.advance(100);
    expect(writes).toHaveLength(4);
  });

  it('a steady stream costs one write a frame; after a quiet frame the next delta is at once again', () => {
    const clock = new FakeClock();
    const writes: PendingDeltas[] = [];
    const buf = new DeltaBuffer(clock.schedule, (x) => writes.push(x));
    for (let i = 0; i < 100; i++) {
      buf.pushAgent('w');
      clock.advance(1);
    }
    // 100 ms of deltas: the leading write, then one per 33 ms frame.
    expect(writes.length).toBeLessThanOrEqual(1 + Math.ceil(100 / FRAME_MS));
    expect(writes.map((x) => x.agent).join('')).toBe('w'.repeat(100 - (100 % FRAME_MS === 0 ? 0 : 100 % FRAME_MS)));
    clock.advance(FRAME_MS * 3);
    expect(writes.map((x) => x.agent).join('')).toBe('w'.repeat(100));
    expect(clock.pending).toBe(0);
    const before = writes.length;
    buf.pushAgent('late');
    expect(writes).toHaveLength(before + 1);
  });
});
