/**
 * Ink's Yoga loads without reading the global `fetch` (in Node that read alone loads undici before
 * the first frame), and `fetch` is back as it was afterwards.
 */
import { expect, it } from 'vitest';

it('loads Yoga without reading fetch, and leaves fetch as it was', async () => {
  const original = Object.getOwnPropertyDescriptor(globalThis, 'fetch')!;
  let reads = 0;
  const watched = { configurable: true, enumerable: original.enumerable, get: () => (reads++, original.value ?? original.get?.()) };
  Object.defineProperty(globalThis, 'fetch', watched);
  try {
    const { default: Yoga, Direction } = await import('../../../src/tui/terminal/yoga-layout.js');
    const node = Yoga.Node.create();
    node.setWidth(7);
    node.calculateLayout(undefined, undefined, Direction.LTR);
    expect(node.getComputedWidth()).toBe(7);
    node.free();
    expect(reads).toBe(0);
    expect(Object.getOwnPropertyDescriptor(globalThis, 'fetch')!.get).toBe(watched.get);
  } finally {
    Object.defineProperty(globalThis, 'fetch', original);
  }
});
