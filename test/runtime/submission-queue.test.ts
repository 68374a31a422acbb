import { describe, expect, it } from 'vitest';
import { SUBMISSION_QUEUE_CAPACITY, SubmissionQueue } from '../../src/runtime/core/submission-queue.js';

describe('SubmissionQueue', () => {
  it('defaults to the Codex capacity of 512', () => {
    expect(new SubmissionQueue().capacity).toBe(SUBMISSION_QUEUE_CAPACITY);
    expect(SUBMISSION_QUEUE_CAPACITY).toBe(512);
  });

  it('a full queue makes push wait until an item is taken; nothing is dropped', async () => {
    const queue = new SubmissionQueue<number>(2);
    await queue.push(1);
    await queue.push(2);
    let thirdQueued = false;
    const third = queue.push(3).then(() => (thirdQueued = true));
    await new Promise((r) => setImmediate(r));
    expect(thirdQueued).toBe(false);
    expect(queue.size).toBe(2);
    expect(await queue.take()).toBe(1);
    await third;
    expect(thirdQueued).toBe(true);
    expect([await queue.take(), await queue.take()]).toEqual([2, 3]);
  });

  it('take waits for the next push, in order', async () => {
    const queue = new SubmissionQueue<string>(4);
    const next = queue.take();
    await queue.push('a');
    expect(await next).toBe('a');
  });

  it('close ends a waiting take and rejects later pushes', async () => {
    const queue = new SubmissionQueue<string>(1);
    const next = queue.take();
    queue.close();
    expect(await next).toBeUndefined();
    await expect(queue.push('x')).rejects.toThrow('closed');
  });
});
