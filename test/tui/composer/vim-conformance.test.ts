/** Vim conformance through the real composer reducer (the cases: vim-conformance-cases.ts). */
import { describe, expect, it } from 'vitest';
import { TABLE } from './vim-conformance-cases.js';
import { run } from './vim-harness.js';

export const CONFORMANCE_CASES = Object.values(TABLE).reduce((n, cases) => n + cases.length, 0);

describe('Vim conformance', () => {
  it('has at least 150 cases', () => {
    expect(CONFORMANCE_CASES).toBeGreaterThanOrEqual(150);
  });

  for (const [group, cases] of Object.entries(TABLE)) {
    describe(group, () => {
      for (const [buffer, keys, expected, extra] of cases) {
        it(`${JSON.stringify(buffer)} ${keys} → ${JSON.stringify(expected)}`, () => {
          const r = run(buffer, keys);
          expect(r.marked).toBe(expected);
          expect(r.mode).toBe(extra?.mode ?? 'normal');
          expect(r.state.vim.pending).toBeNull();
          for (const [name, value] of Object.entries(extra?.reg ?? {})) expect(r.reg(name), `register "${name}`).toBe(value);
        });
      }
    });
  }
});
