/**
 * Store updates made inside `batch(fn)` reach subscribers once, when it ends: a chunk of input from
 * the terminal (a paste in a terminal without bracketed paste arrives as thousands of key events in
 * one read) is then one render, not one per character. Reads inside the batch see every update.
 *
 * Updates made inside `later(fn)`, and any other made before they go out, reach subscribers in the
 * event loop's check phase (setImmediate), or when a batch (a chunk of input) ends before that. The
 * runtime's notifications are handled so: the runtime runs in this process, and a frame drawn as
 * soon as turn/started arrives would stand between Enter and the request leaving for the server;
 * drawn a moment later, it is drawn while the server answers.
 */
import type { StoreApi } from 'zustand/vanilla';

export type Batchable<T> = StoreApi<T> & { batch(fn: () => void): void; later(fn: () => void): void };

export function batchable<T>(store: StoreApi<T>): Batchable<T> {
  const listeners = new Set<(state: T, previous: T) => void>();
  let depth = 0;
  let deferred = 0;
  let flushScheduled = false;
  // The state before the first update held back (by a batch or `later`): what subscribers last saw.
  let seenBefore: { state: T } | null = null;
  const notify = (state: T, previous: T): void => {
    for (const listener of [...listeners]) listener(state, previous);
  };
  const flush = (): void => {
    if (seenBefore === null) return;
    const previous = seenBefore.state;
    seenBefore = null;
    notify(store.getState(), previous);
  };
  const holding = (): boolean => depth > 0 || deferred > 0;
  store.subscribe((state, previous) => {
    seenBefore ??= { state: previous };
    // Until held-back updates go out, later ones of the same turn join them.
    if (!holding() && !flushScheduled) flush();
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
        if (!holding()) flush();
      }
    },
    later(fn) {
      deferred += 1;
      try {
        fn();
      } finally {
        deferred -= 1;
        if (!holding() && seenBefore !== null && !flushScheduled) {
          flushScheduled = true;
          setImmediate(() => {
            flushScheduled = false;
            if (!holding()) flush();
          });
        }
      }
    },
  };
}
