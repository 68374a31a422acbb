/**
 * The output of a session's process while nobody reads it: bytes wait here (at most
 * MAX_PENDING_BYTES, the oldest dropped first, as Codex keeps 1 MiB) until a call drains them, and
 * each arrival or the exit wakes whoever waits. Listeners see every chunk as it arrives (the live
 * thread item).
 */
export const MAX_PENDING_BYTES = 1024 * 1024;

export class ProcessOutput {
  private chunks: Buffer[] = [];
  private pendingBytes = 0;
  private waiters: Array<() => void> = [];
  private readonly listeners = new Set<(text: string) => void>();
  private readonly exitListeners: Array<(code: number | null) => void> = [];
  exitCode: number | null = null;
  exited = false;
  /** Every descriptor of the output was closed (or given up on): nothing more will arrive. */
  closed = false;

  push(bytes: Buffer, text: string): void {
    if (bytes.length === 0) return;
    this.chunks.push(bytes);
    this.pendingBytes += bytes.length;
    while (this.pendingBytes > MAX_PENDING_BYTES) {
      const excess = this.pendingBytes - MAX_PENDING_BYTES;
      const front = this.chunks[0]!;
      if (front.length <= excess) {
        this.chunks.shift();
        this.pendingBytes -= front.length;
      } else {
        this.chunks[0] = front.subarray(excess);
        this.pendingBytes -= excess;
      }
    }
    for (const listener of this.listeners) listener(text);
    this.wake();
  }

  exit(code: number | null): void {
    if (this.exited) return;
    this.exited = true;
    this.exitCode = code;
    this.wake();
    for (const listener of this.exitListeners) listener(code);
  }

  onExit(listener: (code: number | null) => void): void {
    if (this.exited) listener(this.exitCode);
    else this.exitListeners.push(listener);
  }

  close(): void {
    this.closed = true;
    this.wake();
  }

  drain(): Buffer {
    const all = Buffer.concat(this.chunks);
    this.chunks = [];
    this.pendingBytes = 0;
    return all;
  }

  get hasPending(): boolean {
    return this.pendingBytes > 0;
  }

  /** Resolves at the next chunk, exit or close, or after `ms`. */
  changed(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, Math.max(0, ms));
      function done(): void {
        clearTimeout(timer);
        resolve();
      }
      this.waiters.push(done);
    });
  }

  listen(listener: (text: string) => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const waiter of waiters) waiter();
  }
}
