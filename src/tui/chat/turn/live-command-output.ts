/**
 * A running command's output as the screen keeps it: its start, for the cell an interrupted command
 * leaves, and its latest part, for the rows shown while it runs. What lies between is counted, not
 * kept: a command printing for minutes must not make every frame (and the memory) grow with all it
 * printed. The model, the rollout and a finished command's cell get the runtime's whole output.
 */
import { splitsPair } from '../../../protocol/utf8.js';

/** Characters of the start kept. */
export const LIVE_OUTPUT_HEAD = 64 * 1024;
/** Characters of the latest output kept (the live rows are its last few). */
export const LIVE_OUTPUT_TAIL = 16 * 1024;

export interface LiveCommandOutput {
  /** The first LIVE_OUTPUT_HEAD characters. */
  readonly head: string;
  /** The latest output after the head, at most LIVE_OUTPUT_TAIL characters. */
  readonly tail: string;
  /** Characters between the head and the tail that were not kept. */
  readonly omitted: number;
}

export const NO_OUTPUT: LiveCommandOutput = { head: '', tail: '', omitted: 0 };

/** `text` from index `start`, moved past the second half of a surrogate pair it would cut. */
function sliceWhole(text: string, start: number): string {
  return text.slice(splitsPair(text, start) ? start + 1 : start);
}

export function appendOutput(output: LiveCommandOutput, delta: string): LiveCommandOutput {
  if (delta === '') return output;
  let { head, tail, omitted } = output;
  if (head.length < LIVE_OUTPUT_HEAD && tail === '') {
    const room = LIVE_OUTPUT_HEAD - head.length;
    head += delta.slice(0, room);
    delta = delta.slice(room);
  }
  tail += delta;
  if (tail.length > LIVE_OUTPUT_TAIL) {
    const kept = sliceWhole(tail, tail.length - LIVE_OUTPUT_TAIL);
    omitted += tail.length - kept.length;
    tail = kept;
  }
  return { head, tail, omitted };
}

/** The latest output, at most LIVE_OUTPUT_TAIL characters, and whether anything came before it. */
export function latestOutput(output: LiveCommandOutput): { text: string; more: boolean } {
  if (output.omitted > 0) return { text: output.tail, more: true };
  const kept = output.head + output.tail;
  const text = kept.length > LIVE_OUTPUT_TAIL ? sliceWhole(kept, kept.length - LIVE_OUTPUT_TAIL) : kept;
  return { text, more: text.length < kept.length };
}

/** What is kept, in order: the start, then (when something was left out) the latest part. */
export function keptOutput(output: LiveCommandOutput): string {
  if (output.omitted === 0) return output.head + output.tail;
  const gap = output.head.endsWith('\n') ? '' : '\n';
  return `${output.head}${gap}${output.tail}`;
}
