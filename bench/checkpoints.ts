/**
 * Checkpoints of a 10,000-file, 200 MB workspace: the first record, a second after a few files
 * changed, and a restore of those files (issue targets: 5 s, 1 s, 1 s; printed, never asserted).
 * The load average goes with the figures: on a shared machine they follow it.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { CheckpointStore } from '../src/runtime/checkpoints/store.js';
import { type BenchSection, ms } from './lib.js';

const FILES = 10_000;
const BYTES = 200 * 1024 * 1024;
const CHANGED = 20;

async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const start = performance.now();
  const value = await fn();
  return [value, performance.now() - start];
}

function id(result: Awaited<ReturnType<CheckpointStore['record']>>): string {
  if (!result.ok) throw new Error(result.message);
  return result.id;
}

const run: BenchSection = async () => {
  const ws = mkdtempSync(join(tmpdir(), 'tiller-bench-ckpt-ws-'));
  const home = mkdtempSync(join(tmpdir(), 'tiller-bench-ckpt-home-'));
  const size = Math.floor(BYTES / FILES);
  for (let dir = 0; dir < 100; dir++) {
    mkdirSync(join(ws, `d${dir}`));
    for (let i = 0; i < FILES / 100; i++) writeFileSync(join(ws, `d${dir}`, `f${i}.bin`), randomBytes(size));
  }
  const store = new CheckpointStore(home, ws);
  const [first, firstMs] = await timed(() => store.record());
  const before = id(first);
  for (let i = 0; i < CHANGED; i++) writeFileSync(join(ws, `d${i}`, 'f0.bin'), randomBytes(size));
  const [second, secondMs] = await timed(() => store.record());
  const [changes, restoreMs] = await timed(() => store.restore(before, id(second)));
  const load = `load ${loadavg()[0]!.toFixed(1)}`;
  return [
    { name: `checkpoint: first record of ${FILES} files, ${BYTES / (1024 * 1024)} MB`, value: ms(firstMs), note: `target 5 s, ${load}` },
    { name: `checkpoint: next record, ${CHANGED} files changed`, value: ms(secondMs), note: `target 1 s, ${load}` },
    { name: `checkpoint: restore of ${changes.length} files`, value: ms(restoreMs), note: `target 1 s, ${load}` },
  ];
};

export default run;
