/** Shared helpers for `npm run bench`: figures are printed, never asserted. */
import { performance } from 'node:perf_hooks';

export interface BenchRow {
  /** What was measured, e.g. "tiller --version start-up". */
  name: string;
  /** The figure, already formatted (e.g. "212 ms", "48.1 MiB"). */
  value: string;
  /** How: "median of 5", the peer compared, the input size. */
  note?: string;
}

export type BenchSection = () => Promise<BenchRow[]>;

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
}

/** Runs `fn` `runs` times and returns the wall-clock milliseconds of each run. */
export async function timeRuns(runs: number, fn: () => Promise<unknown> | unknown): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await fn();
    out.push(performance.now() - start);
  }
  return out;
}

export const ms = (value: number): string => `${value.toFixed(value < 10 ? 2 : 0)} ms`;
export const mib = (bytes: number): string => `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
