/** apply_patch on a big file: 100 hunks on a 10 MB file, parsed, matched, diffed and written. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { planPatch, writePlan } from '../src/runtime/tools/apply-patch/apply.js';
import { parsePatch } from '../src/runtime/tools/apply-patch/parser.js';
import { type BenchSection, median, ms, timeRuns } from './lib.js';

const LINES = 200_000;
const HUNKS = 100;

const line = (i: number): string => `line ${String(i).padStart(7, '0')} of the generated file, padded to fifty`;

const run: BenchSection = async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tiller-bench-patch-'));
  const path = join(dir, 'big.txt');
  const original = `${Array.from({ length: LINES }, (_, i) => line(i)).join('\n')}\n`;
  const step = Math.floor(LINES / HUNKS);
  const chunks = Array.from({ length: HUNKS }, (_, h) => {
    const at = h * step + step / 2;
    return `@@\n ${line(at - 1)}\n-${line(at)}\n+changed ${at}\n ${line(at + 1)}`;
  });
  const patch = `*** Begin Patch\n*** Update File: ${path}\n${chunks.join('\n')}\n*** End Patch`;
  const times = await timeRuns(5, async () => {
    writeFileSync(path, original);
    await writePlan(await planPatch(parsePatch(patch), dir));
  });
  return [
    {
      name: `apply_patch: ${HUNKS} hunks on a ${(original.length / 1e6).toFixed(0)} MB file`,
      value: ms(median(times)),
      note: 'parse, match, diff and write; median of 5',
    },
  ];
};

export default run;
