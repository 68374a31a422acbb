/**
 * Per-request context for the offline model that the Responses body cannot carry (the user's text
 * elements). It stays in process: the SDK request names it by an opaque key header, and only the
 * offline client has a side channel, so nothing of it can reach a real server.
 */
import type { RequestSideChannel } from '../openai-client.js';
import type { InputTextElements, ModelStreamOptions } from '../types.js';

export const SIDE_CHANNEL_HEADER = 'x-tiller-offline-request';

export class OfflineSideChannel implements RequestSideChannel {
  private readonly entries = new Map<string, InputTextElements[]>();
  private counter = 0;

  open(options: ModelStreamOptions): { headers: Record<string, string>; release: () => void } {
    const textElements = options.textElements ?? [];
    if (textElements.length === 0) return { headers: {}, release: () => undefined };
    const key = `req-${++this.counter}`;
    this.entries.set(key, textElements);
    return { headers: { [SIDE_CHANNEL_HEADER]: key }, release: () => void this.entries.delete(key) };
  }

  textElementsFor(request: Request): InputTextElements[] {
    const key = request.headers.get(SIDE_CHANNEL_HEADER);
    return key === null ? [] : (this.entries.get(key) ?? []);
  }

  /** Requests whose context is still held (for tests: released when each stream ends). */
  get size(): number {
    return this.entries.size;
  }
}
