/**
 * Keeps V8's young generation small. Node lets it grow to two 16 MiB semi-spaces, which a long
 * session always reaches (every turn's request carries the whole history, and survivors count
 * towards growth) and V8 seldom gives back: about 24 MiB of resident memory that holds nothing.
 * The size limit itself is fixed when the heap is created, so from inside the process it is the
 * growth factor, read afresh at each growth, that stops the space at the cap. With 4 MiB
 * semi-spaces a 10,000-delta answer streams at the same CPU, and each scavenge is shorter.
 */
import { PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';

/** The new space's size (both semi-spaces) it may grow to. */
export const YOUNG_GENERATION_CAP_BYTES = 8 * 1024 * 1024;

/**
 * The growth factor for a new space of `size`: V8's own doubling below the cap, none at it. (A
 * factor aimed to land on the cap in one step overshoots: V8 grows from a capacity the statistics
 * do not show, and a synchronous stretch can grow it twice before the next callback.)
 */
export function growthFactorFor(size: number, cap: number = YOUNG_GENERATION_CAP_BYTES): number {
  return size >= cap ? 1 : DEFAULT_GROWTH_FACTOR;
}

/** V8's default `--semi-space-growth-factor`. */
const DEFAULT_GROWTH_FACTOR = 2;

function newSpaceSize(): number {
  return getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0;
}

const SEMI_SPACE_FLAG = /^--(?:max[-_]semi[-_]space[-_]size|min[-_]semi[-_]space[-_]size|semi[-_]space[-_]growth[-_]factor)(?:=|$)/;

/** Whether the user sized the young generation (a node flag, or NODE_OPTIONS): then theirs holds. */
export function youngGenerationSetByUser(execArgv: readonly string[], nodeOptions: string): boolean {
  return [...execArgv, ...nodeOptions.split(/\s+/)].some((arg) => SEMI_SPACE_FLAG.test(arg));
}

/**
 * Sets the growth factor for the space's size now and after every collection, so the space grows
 * to the cap and stops there; should V8 shrink it, it may grow back to the cap.
 */
export function capYoungGeneration(): void {
  if (youngGenerationSetByUser(process.execArgv, process.env.NODE_OPTIONS ?? '')) return;
  let factor = 0;
  const update = (): void => {
    const next = growthFactorFor(newSpaceSize());
    if (next === factor) return;
    factor = next;
    setFlagsFromString(`--semi-space-growth-factor=${next}`);
  };
  update();
  new PerformanceObserver(update).observe({ entryTypes: ['gc'] });
}
