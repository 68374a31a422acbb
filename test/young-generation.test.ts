import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { growthFactorFor, YOUNG_GENERATION_CAP_BYTES, youngGenerationSetByUser } from '../src/young-generation.js';

const MIB = 1024 * 1024;
const ROOT = fileURLToPath(new URL('..', import.meta.url));

describe('growthFactorFor', () => {
  it("keeps V8's doubling below the cap", () => {
    expect(growthFactorFor(1 * MIB, 8 * MIB)).toBe(2);
    expect(growthFactorFor(4 * MIB, 8 * MIB)).toBe(2);
    expect(growthFactorFor(7.5 * MIB, 8 * MIB)).toBe(2);
  });

  it('stops growth at the cap and past it', () => {
    expect(growthFactorFor(8 * MIB, 8 * MIB)).toBe(1);
    expect(growthFactorFor(32 * MIB, 8 * MIB)).toBe(1);
  });
});

describe('youngGenerationSetByUser', () => {
  it('sees a semi-space flag among node flags or in NODE_OPTIONS, in either spelling', () => {
    expect(youngGenerationSetByUser(['--max-semi-space-size=32'], '')).toBe(true);
    expect(youngGenerationSetByUser([], '--enable-source-maps --max_semi_space_size=64')).toBe(true);
    expect(youngGenerationSetByUser(['--semi-space-growth-factor=4'], '')).toBe(true);
    expect(youngGenerationSetByUser(['--min-semi-space-size', '16'], '')).toBe(true);
  });

  it('leaves other flags alone', () => {
    expect(youngGenerationSetByUser(['--enable-source-maps', '--max-old-space-size=4096'], '--import tsx')).toBe(false);
    expect(youngGenerationSetByUser([], '')).toBe(false);
  });
});

function largestNewSpace(mode: 'cap' | 'free', nodeFlags: string[] = []): { afterTurns: number; afterStretch: number; final: number } {
  const out = execFileSync(process.execPath, [...nodeFlags, '--import', 'tsx', 'test/support/young-generation-child.ts', mode], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  return JSON.parse(out);
}

describe('capYoungGeneration in a real V8 heap', () => {
  it('holds the new space at the cap, in event-loop turns and in a synchronous stretch after them', () => {
    const capped = largestNewSpace('cap');
    expect(capped.final).toBe(YOUNG_GENERATION_CAP_BYTES);
    // Node 24's V8 can hold a page or two over the capacity for a moment.
    expect(capped.afterTurns).toBeLessThanOrEqual(YOUNG_GENERATION_CAP_BYTES * 1.25);
    expect(capped.afterStretch).toBeLessThanOrEqual(YOUNG_GENERATION_CAP_BYTES * 1.25);
  });

  it('is what stops it: without the cap the same work grows the space past it', () => {
    expect(largestNewSpace('free').afterStretch).toBeGreaterThan(YOUNG_GENERATION_CAP_BYTES);
  });

  it('gives way to a size the user set', () => {
    expect(largestNewSpace('cap', ['--max-semi-space-size=16']).afterStretch).toBeGreaterThan(YOUNG_GENERATION_CAP_BYTES);
  });
});
