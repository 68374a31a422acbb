import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { growthFactorFor, YOUNG_GENERATION_CAP_BYTES } from '../src/young-generation.js';

const MIB = 1024 * 1024;
const ROOT = fileURLToPath(new URL('..', import.meta.url));

describe('growthFactorFor', () => {
  it('lands the next growth at the cap or below', () => {
    expect(growthFactorFor(1 * MIB, 8 * MIB)).toBe(8);
    expect(growthFactorFor(2 * MIB, 8 * MIB)).toBe(4);
    expect(growthFactorFor(3 * MIB, 8 * MIB)).toBe(2);
    expect(growthFactorFor(4 * MIB, 8 * MIB)).toBe(2);
  });

  it('stops growth at the cap and past it', () => {
    expect(growthFactorFor(8 * MIB, 8 * MIB)).toBe(1);
    expect(growthFactorFor(32 * MIB, 8 * MIB)).toBe(1);
  });

  it('stops growth when the size is unknown', () => {
    expect(growthFactorFor(0)).toBe(1);
  });
});

function largestNewSpace(mode: 'cap' | 'free'): { afterTurns: number; afterStretch: number } {
  const out = execFileSync(process.execPath, ['--import', 'tsx', 'test/support/young-generation-child.ts', mode], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  return JSON.parse(out);
}

describe('capYoungGeneration in a real V8 heap', () => {
  it('holds the new space at the cap, in event-loop turns and in a synchronous stretch after them', () => {
    const capped = largestNewSpace('cap');
    expect(capped.afterTurns).toBe(YOUNG_GENERATION_CAP_BYTES);
    expect(capped.afterStretch).toBe(YOUNG_GENERATION_CAP_BYTES);
  });

  it('is what stops it: without the cap the same work grows the space past it', () => {
    expect(largestNewSpace('free').afterStretch).toBeGreaterThan(YOUNG_GENERATION_CAP_BYTES);
  });
});
