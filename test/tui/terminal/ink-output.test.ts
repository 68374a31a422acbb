/**
 * Tiller's frame buffer for Ink makes exactly the frames Ink's own makes (ink/build/output.js), for
 * random writes of styled, wide and clipped text, on a first frame and on frames that hit its caches.
 */
import { describe, expect, it } from 'vitest';
import Output from '../../../src/tui/terminal/ink-output.js';

interface OutputLike {
  write(x: number, y: number, text: string, options: { transformers: Array<(line: string, index: number) => string> }): void;
  clip(clip: { x1?: number; x2?: number; y1?: number; y2?: number }): void;
  unclip(): void;
  get(): { output: string; height: number };
}
type OutputClass = new (size: { width: number; height: number }) => OutputLike;

const inkOutputUrl = new URL('../../../node_modules/ink/build/output.js', import.meta.url).href;

function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const PIECES = ['word', ' ', '中文', '👍', 'é', '\x1b[1m', '\x1b[22m', '\x1b[31m', '\x1b[39m', '\x1b[44m', '\x1b[49m', '│', 'x'.repeat(30)];

function frameOps(next: () => number, width: number, height: number): Array<(o: OutputLike) => void> {
  const ops: Array<(o: OutputLike) => void> = [];
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
  for (let i = 0; i < 25; i++) {
    const kind = next();
    if (kind < 0.1) {
      const both = { x1: Math.floor(next() * width), x2: Math.floor(next() * width) + 5, y1: Math.floor(next() * height), y2: height };
      const clip = next() < 0.5 ? both : { y1: both.y1, y2: both.y2 };
      ops.push((o) => o.clip(clip));
    } else if (kind < 0.15) ops.push((o) => o.unclip());
    else {
      const lines = Array.from({ length: 1 + Math.floor(next() * 3) }, () =>
        Array.from({ length: Math.floor(next() * 6) }, () => pick(PIECES)).join(''),
      );
      const x = next() < 0.6 ? 0 : Math.floor(next() * width);
      const y = Math.floor(next() * (height + 2)) - 1;
      const transformers = next() < 0.2 ? [(line: string, index: number) => `${index}${line.toUpperCase()}`] : [];
      const text = lines.join('\n');
      ops.push((o) => o.write(x, y, text, { transformers }));
    }
  }
  return ops;
}

describe('Ink output', () => {
  it('is the frame Ink makes, first time and from its caches', async () => {
    const Ink = (await import(inkOutputUrl)).default as OutputClass;
    const Ours = Output as unknown as OutputClass;
    for (let seed = 1; seed <= 300; seed++) {
      const next = random(seed);
      const width = 10 + Math.floor(next() * 70);
      const height = 1 + Math.floor(next() * 12);
      const ops = frameOps(next, width, height);
      const draw = (Kind: OutputClass): string => {
        const out = new Kind({ width, height });
        for (const op of ops) op(out);
        const { output, height: h } = out.get();
        return `${h}\n${output}`;
      };
      const expected = draw(Ink);
      expect(draw(Ours), `seed ${seed}`).toBe(expected);
      expect(draw(Ours), `seed ${seed}, cached`).toBe(expected);
    }
  });
});

describe('widest-line for Ink', () => {
  it('measures as widest-line does, from its memo too', async () => {
    const original = (await import('widest-line')).default as (text: string) => number;
    const { default: widestLine } = await import('../../../src/tui/terminal/widest-line.js');
    for (const text of ['', 'one\ntwo three', '中文\nab', '\x1b[31mred\x1b[39m\n👍🏽 x', 'a\n\nlonger line here']) {
      expect(widestLine(text)).toBe(original(text));
      expect(widestLine(text)).toBe(original(text));
    }
  });
});

describe('BoundedCache', () => {
  it('makes a value once, and starts again past its limit', async () => {
    const { BoundedCache } = await import('../../../src/tui/terminal/bounded-cache.js');
    const cache = new BoundedCache<number>(2);
    let made = 0;
    const make = (key: string): number => (made++, key.length);
    expect([cache.get('a', make), cache.get('a', make), cache.get('bb', make)]).toEqual([1, 1, 2]);
    expect(made).toBe(2);
    cache.get('ccc', make);
    cache.get('a', make);
    expect(made).toBe(4);
  });
});
