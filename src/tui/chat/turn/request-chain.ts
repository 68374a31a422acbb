/**
 * The client's requests in the order the user caused them (as Codex's ops): a steer typed just
 * before Esc reaches the turn before the interrupt, an edit of a waiting message after the steer it
 * names. Each task starts once the one before it has settled.
 */
export class RequestChain {
  private tail: Promise<void> = Promise.resolve();

  run(task: () => unknown): void {
    this.tail = this.tail.then(async () => {
      await task();
    });
  }

  /** Resolves once every task run so far has settled. */
  idle(): Promise<void> {
    return this.tail;
  }
}
