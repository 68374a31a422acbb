/**
 * The core's bounded submission channel (Codex: capacity 512). A full queue makes `push` wait
 * for room; nothing is ever dropped. One consumer drains it in order.
 */
export const SUBMISSION_QUEUE_CAPACITY = 512;

export class SubmissionQueue<T> {
  private readonly items: T[] = [];
  private readonly waitingPushers: Array<() => void> = [];
  private waitingTaker: ((item: T | undefined) => void) | null = null;
  private closed = false;

  constructor(readonly capacity: number = SUBMISSION_QUEUE_CAPACITY) {
    if (capacity < 1) throw new RangeError('capacity must be at least 1');
  }

  get size(): number {
    return this.items.length;
  }

  /** Resolves once the item is in the queue (not once it is processed). */
  async push(item: T): Promise<void> {
    while (this.items.length >= this.capacity && !this.closed) {
      await new Promise<void>((resolve) => this.waitingPushers.push(resolve));
    }
    if (this.closed) throw new Error('submission queue closed');
    if (this.waitingTaker) {
      const taker = this.waitingTaker;
      this.waitingTaker = null;
      taker(item);
      return;
    }
    this.items.push(item);
  }

  /** The next item in order; `undefined` once the queue is closed and empty. */
  async take(): Promise<T | undefined> {
    const item = this.items.shift();
    if (item !== undefined) {
      this.waitingPushers.shift()?.();
      return item;
    }
    if (this.closed) return undefined;
    return new Promise<T | undefined>((resolve) => {
      this.waitingTaker = resolve;
    });
  }

  close(): void {
    this.closed = true;
    for (const wake of this.waitingPushers.splice(0)) wake();
    const taker = this.waitingTaker;
    this.waitingTaker = null;
    taker?.(undefined);
  }
}
