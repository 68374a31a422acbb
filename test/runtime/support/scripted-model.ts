/** An in-memory ModelClient for core unit tests: each request takes the next script. */
import type { ModelClient, ModelEvent, ModelRequest } from '../../../src/runtime/model/types.js';

export type Script = (request: ModelRequest, signal: AbortSignal) => AsyncIterable<ModelEvent>;

export class ScriptedModelClient implements ModelClient {
  readonly label = 'scripted';
  readonly requests: ModelRequest[] = [];
  private readonly scripts: Script[] = [];
  private waiters: Array<{ count: number; resolve: () => void }> = [];

  enqueue(...scripts: Script[]): void {
    this.scripts.push(...scripts);
  }

  stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelEvent> {
    this.requests.push(structuredClone(request));
    for (const w of this.waiters.filter((w) => this.requests.length >= w.count)) {
      this.waiters.splice(this.waiters.indexOf(w), 1);
      w.resolve();
    }
    return (this.scripts.shift() ?? textScript('ok'))(request, signal);
  }

  waitForRequests(count: number): Promise<void> {
    if (this.requests.length >= count) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ count, resolve }));
  }
}

let counter = 0;

/** Streams `text` as one message; waits for `gate` (if any) after the first delta. */
export function textScript(text: string, options: { gate?: Promise<void>; endTurn?: boolean | null } = {}): Script {
  return async function* (_request, signal) {
    const id = `msg_${++counter}`;
    yield { type: 'created', responseId: `resp_${counter}` };
    yield { type: 'output_item_added', item: { type: 'message', id, role: 'assistant', content: [] } };
    yield { type: 'output_text_delta', itemId: id, delta: text };
    if (options.gate) await Promise.race([options.gate, new Promise((r) => signal.addEventListener('abort', r, { once: true }))]);
    if (signal.aborted) throw new Error('aborted');
    yield { type: 'output_item_done', item: { type: 'message', id, role: 'assistant', content: [{ type: 'output_text', text }] } };
    yield { type: 'completed', responseId: `resp_${counter}`, usage: null, endTurn: options.endTurn ?? null };
  };
}

export function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}
