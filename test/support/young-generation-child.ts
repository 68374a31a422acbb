/**
 * Allocates as a long session does (mostly garbage, a share of it kept), in event-loop turns and
 * then in one synchronous stretch, and prints the largest new-space size it saw and the last, as JSON.
 * With `cap` as its argument it runs under capYoungGeneration().
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { getHeapSpaceStatistics } from 'node:v8';
import { capYoungGeneration } from '../../src/young-generation.js';

if (process.argv[2] === 'cap') capYoungGeneration();

const kept: unknown[] = [];
let largest = 0;
function work(rounds: number): void {
  for (let round = 0; round < rounds; round++) {
    const batch = Array.from({ length: 2000 }, (_, i) => ({ i, text: `item ${i}` }));
    if (round % 10 === 0) kept.push(batch.slice(0, 200));
    JSON.stringify(batch);
    const size = getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0;
    largest = Math.max(largest, size);
  }
}
for (let turn = 0; turn < 60; turn++) {
  work(10);
  await nextTurn();
}
const afterTurns = largest;
work(600);
const final = getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0;
process.stdout.write(`${JSON.stringify({ afterTurns, afterStretch: largest, final, kept: kept.length })}\n`);
