import { describe, expect, it, vi } from 'vitest';

const calls = vi.hoisted(() => ({ count: 0 }));
vi.mock('string-width', async (importOriginal) => {
  const real = (await importOriginal<typeof import('string-width')>()).default;
  return {
    default: (text: string, options?: Parameters<typeof real>[1]) => {
      calls.count++;
      return real(text, options);
    },
  };
});

const { default: stringWidth } = await import('../../src/tui/string-width.js');

describe('stringWidth asks string-width', () => {
  it('once per new character of a row that cannot cluster, and never again for it', () => {
    const row = `  │ ${'中x│•'.repeat(40)}`;
    calls.count = 0;
    expect(stringWidth(row)).toBe(4 + 40 * 5);
    expect(calls.count).toBe(3);
    expect(stringWidth(`\u001b[2m${row}\u001b[0m`)).toBe(4 + 40 * 5);
    expect(stringWidth(row.repeat(10))).toBe(10 * (4 + 40 * 5));
    expect(calls.count).toBe(3);
  });

  it('with the whole string when a character may join a cluster', () => {
    calls.count = 0;
    expect(stringWidth('│ e\u0301 │')).toBe(5);
    expect(stringWidth('│ 👩‍💻 │')).toBe(6);
    expect(calls.count).toBe(2);
  });
});
