/** DeltaBuffer: streamed deltas written at most once a frame. */
import { describe, expect, it } from 'vitest';
import { DeltaBuffer, FRAME_MS } from '../../../../src/tui/chat/turn/delta-buffer.js';
import { FakeClock } from '../harness.js';

describe('DeltaBuffer', () => {
  it('writes at most once per frame and flushes on demand', () => {
    const clock = new FakeClock();
    const writes: { agent: string; command: string }[] = [];
    const buf = new DeltaBuffer(clock.schedule, (d) => writes.push(d));
    buf.pushAgent('a');
    buf.pushAgent('b');
    buf.pushCommand('x');
    expect(writes).toEqual([]);
    clock.advance(FRAME_MS);
    expect(writes).toEqual([{ agent: 'ab', command: 'x' }]);
    buf.pushAgent('c');
    buf.flush();
    expect(writes.at(-1)).toEqual({ agent: 'c', command: '' });
    expect(clock.pending).toBe(0);
    buf.pushAgent('gone');
    buf.discard();
    clock.advance(100);
    expect(writes).toHaveLength(2);
  });
});
