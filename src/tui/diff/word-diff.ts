/**
 * Word-level diff of a changed pair of lines: which words of the old line went and which of the new
 * line came, so the patch cell can mark just those inside a red/green line. Words are runs of
 * letters/digits/`_`, runs of whitespace, or single other characters; an LCS over them says what
 * was kept. Pure, no terminal.
 */

export interface Segment {
  text: string;
  /** Not in the other line: removed (old side) or added (new side). */
  changed: boolean;
}

export interface WordDiff {
  old: Segment[];
  new: Segment[];
}

const TOKEN = /[\p{L}\p{N}_]+|\s+|[^\p{L}\p{N}_\s]/gu;
/** Past this many LCS cells a pair is not worth diffing by word: the whole lines count as changed. */
const MAX_CELLS = 250_000;
/** Below this share of kept characters the lines are different lines, not an edited one. */
const MIN_KEPT_SHARE = 0.3;

export function tokens(line: string): string[] {
  return line.match(TOKEN) ?? [];
}

/** The two lines in segments (adjacent ones of one kind merged), or null when they share too little to mark words. */
export function wordDiff(oldLine: string, newLine: string): WordDiff | null {
  const a = tokens(oldLine);
  const b = tokens(newLine);
  if (a.length * b.length > MAX_CELLS) return null;
  const keptA = new Array<boolean>(a.length).fill(false);
  const keptB = new Array<boolean>(b.length).fill(false);
  const width = b.length + 1;
  const table = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      table[i * width + j] =
        a[i] === b[j] ? table[(i + 1) * width + j + 1]! + 1 : Math.max(table[(i + 1) * width + j]!, table[i * width + j + 1]!);
    }
  }
  let i = 0;
  let j = 0;
  let keptChars = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      keptA[i] = true;
      keptB[j] = true;
      keptChars += a[i]!.length;
      i++;
      j++;
    } else if (table[(i + 1) * width + j]! >= table[i * width + j + 1]!) i++;
    else j++;
  }
  const longest = Math.max(oldLine.length, newLine.length);
  if (longest > 0 && keptChars / longest < MIN_KEPT_SHARE) return null;
  return { old: segments(a, keptA), new: segments(b, keptB) };
}

function segments(words: readonly string[], kept: readonly boolean[]): Segment[] {
  const out: Segment[] = [];
  words.forEach((text, k) => {
    const changed = !kept[k];
    const last = out[out.length - 1];
    if (last !== undefined && last.changed === changed) last.text += text;
    else out.push({ text, changed });
  });
  return out;
}

/**
 * Which lines of a hunk pair up: a run of removed lines straight followed by a run of added ones
 * pairs the i-th removed with the i-th added (Codex and git's --word-diff pair them the same way).
 * `signs` are the diff lines' first characters; the answer maps a line's index to its partner's.
 */
export function pairChangedLines(signs: readonly string[]): Map<number, number> {
  const pairs = new Map<number, number>();
  let k = 0;
  while (k < signs.length) {
    if (signs[k] !== '-') {
      k++;
      continue;
    }
    const removedStart = k;
    while (k < signs.length && signs[k] === '-') k++;
    const addedStart = k;
    while (k < signs.length && signs[k] === '+') k++;
    const count = Math.min(addedStart - removedStart, k - addedStart);
    for (let n = 0; n < count; n++) {
      pairs.set(removedStart + n, addedStart + n);
      pairs.set(addedStart + n, removedStart + n);
    }
  }
  return pairs;
}
