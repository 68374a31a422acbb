/**
 * Store updates made inside `batch(fn)` reach subscribers once, when it ends: a chunk of input from
 * the terminal (a paste in a terminal without bracketed paste arrives as thousands of key events in
 * one read) is then one render, not one per character. Reads inside the batch see every update.
 */
import type { StoreApi } from 'zustand/vanilla';

export type Batchable<T> = StoreApi<T> & { batch(fn: () => void): void };

export function batchable<T>(store: StoreApi<T>): Batchable<T> {
  const listeners = new Set<(state: T, previous: T) => void>();
  let depth = 0;
  // The state before the first update of the batch: what subscribers last saw.
  let seenBefore: { state: T } | null = null;
  const notify = (state: T, previous: T): void => {
    for (const listener of [...listeners]) listener(state, previous);
  };
  store.subscribe((state, previous) => {
    if (depth === 0) notify(state, previous);
    else seenBefore ??= { state: previous };
  });
  return {
    ...store,
    // A spread, not zustand's `Object.assign({}, …)`: V8 copies a state of this width far faster so
    // (a paste read as a million key events is a million updates of the composer field).
    setState(partial: T | Partial<T> | ((state: T) => T | Partial<T>), replace?: boolean) {
      const before = store.getState();
      const next = typeof partial === 'function' ? (partial as (state: T) => T | Partial<T>)(before) : partial;
      if (Object.is(next, before)) return;
      store.setState(replace === true ? (next as T) : { ...before, ...next }, true);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    batch(fn) {
      depth += 1;
      try {
        fn();
      } finally {
        depth -= 1;
        if (depth === 0 && seenBefore !== null) {
          const previous = seenBefore.state;
          seenBefore = null;
          notify(store.getState(), previous);
        }
      }
    },
  };
}
