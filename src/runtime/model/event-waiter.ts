/**
 * The idle timeout of a streamed answer, shared by every wire: a server that goes silent mid-stream
 * fails the attempt (retryable) instead of hanging the turn, and the caller's abort ends it at once.
 */
import { abortedError, idleTimeoutError } from './errors.js';
import type { ModelError } from './types.js';

/**
 * Waits for the iterator's events, failing on idle timeout or abort (whichever comes first). The
 * idle timer is not touched per event (a long answer has thousands): it notes when each wait began,
 * and when it fires re-arms itself for what is left of the current wait.
 */
export class EventWaiter {
  private resolve: ((result: IteratorResult<unknown>) => void) | null = null;
  private reject: ((error: unknown) => void) | null = null;
  private waitStartedAt = performance.now();
  private timer: NodeJS.Timeout | undefined;
  private readonly onAbort = (): void => this.fail(abortedError());
  private readonly onTimer = (): void => {
    const waited = performance.now() - this.waitStartedAt;
    if (this.resolve !== null && waited >= this.idleTimeoutMs) {
      this.exchange.abort();
      this.fail(idleTimeoutError());
      return;
    }
    this.arm(this.resolve !== null ? this.idleTimeoutMs - waited : this.idleTimeoutMs);
  };
  private readonly onValue = (result: IteratorResult<unknown>): void => {
    const resolve = this.resolve;
    this.settled();
    resolve?.(result);
  };
  private readonly onError = (error: unknown): void => {
    const reject = this.reject;
    this.settled();
    reject?.(error);
  };

  constructor(
    private readonly iterator: AsyncIterator<unknown>,
    private readonly signal: AbortSignal,
    private readonly exchange: AbortController,
    private readonly idleTimeoutMs: number,
  ) {
    this.arm(idleTimeoutMs);
    signal.addEventListener('abort', this.onAbort, { once: true });
  }

  next(): Promise<IteratorResult<unknown>> {
    if (this.signal.aborted) return Promise.reject(abortedError());
    this.waitStartedAt = performance.now();
    return new Promise((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
      // A wait already failed (timeout, abort) drops what the iterator brings later.
      this.iterator.next().then(this.onValue, this.onError);
    });
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.signal.removeEventListener('abort', this.onAbort);
  }

  private arm(ms: number): void {
    this.timer = setTimeout(this.onTimer, ms);
    this.timer.unref();
  }

  private settled(): void {
    this.resolve = null;
    this.reject = null;
  }

  private fail(error: ModelError): void {
    const reject = this.reject;
    this.settled();
    reject?.(error);
  }
}
