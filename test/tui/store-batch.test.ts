import { describe, expect, it } from 'vitest';
import { createStore } from 'zustand/vanilla';
import { batchable } from '../../src/tui/store-batch.js';

const counter = () => batchable(createStore<{ n: number }>()(() => ({ n: 0 })));

describe('batchable store', () => {
  it('notifies once per batch with the final state and the state before it; reads inside see each update', () => {
    const store = counter();
    const seen: Array<[number, number]> = [];
    store.subscribe((state, previous) => seen.push([state.n, previous.n]));
    store.batch(() => {
      for (let i = 0; i < 1000; i++) store.setState((s) => ({ n: s.n + 1 }));
      expect(store.getState().n).toBe(1000);
    });
    expect(seen).toEqual([[1000, 0]]);
    store.setState({ n: 5 });
    expect(seen).toEqual([
      [1000, 0],
      [5, 1000],
    ]);
  });

  it('nested batches notify at the outer end; a batch that throws still notifies; an empty one does not', () => {
    const store = counter();
    let calls = 0;
    store.subscribe(() => calls++);
    store.batch(() => {
      store.setState({ n: 1 });
      store.batch(() => store.setState({ n: 2 }));
      expect(calls).toBe(0);
    });
    expect(calls).toBe(1);
    expect(() =>
      store.batch(() => {
        store.setState({ n: 3 });
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(calls).toBe(2);
    store.batch(() => undefined);
    expect(calls).toBe(2);
  });

  it('merges a partial update into a new state, replaces with `true`, and ignores the state itself', () => {
    const store = batchable(createStore<{ a: number; b: number }>()(() => ({ a: 1, b: 2 })));
    let calls = 0;
    store.subscribe(() => calls++);
    const first = store.getState();
    store.setState({ b: 3 });
    expect(store.getState()).toEqual({ a: 1, b: 3 });
    expect(first).toEqual({ a: 1, b: 2 });
    store.setState((s) => s);
    store.setState(store.getState());
    expect(calls).toBe(1);
    store.setState({ a: 9, b: 9 }, true);
    expect(store.getState()).toEqual({ a: 9, b: 9 });
    expect(calls).toBe(2);
  });

  it('unsubscribe stops notifications', () => {
    const store = counter();
    let calls = 0;
    const off = store.subscribe(() => calls++);
    off();
    store.setState({ n: 1 });
    expect(calls).toBe(0);
  });

  it('later: reads see its updates at once, subscribers hear of them (and of any update after) once, in the check phase', async () => {
    const store = counter();
    const seen: Array<[number, number]> = [];
    store.subscribe((state, previous) => seen.push([state.n, previous.n]));
    store.later(() => store.setState({ n: 1 }));
    expect(store.getState().n).toBe(1);
    // An ordinary update before they go out joins them: the runtime's work goes on before a frame is drawn.
    store.setState({ n: 2 });
    store.later(() => store.setState({ n: 3 }));
    expect(seen).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual([[3, 0]]);
    store.setState({ n: 4 });
    expect(seen).toEqual([
      [3, 0],
      [4, 3],
    ]);
  });

  it('a batch (a chunk of input) ending sends what later held back at once, so a key is echoed without waiting', async () => {
    const store = counter();
    const seen: Array<[number, number]> = [];
    store.subscribe((state, previous) => seen.push([state.n, previous.n]));
    store.later(() => store.setState({ n: 1 }));
    store.batch(() => store.setState({ n: 2 }));
    expect(seen).toEqual([[2, 0]]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual([[2, 0]]);
    // Nothing changed inside: nobody is told.
    store.later(() => undefined);
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual([[2, 0]]);
  });
});
