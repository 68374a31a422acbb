/**
 * The unified diff of a file update, built from the places the patch changed (not by diffing the
 * whole file, which a 10 MB file would make slow): inside each replaced region a small LCS tells
 * kept lines from changed ones. Hunks only, no `---`/`+++` header, as Codex's `diff` field.
 */

export interface Replacement {
  /** Index in the old lines where `oldLength` lines are replaced by `lines`. */
  start: number;
  oldLength: number;
  lines: string[];
}

/** Old lines [oldStart, oldEnd) become new lines [newStart, newEnd). */
interface Block {
  oldStart: number;
  oldEnd: number;
  newStart: number;
  newEnd: number;
}

const CONTEXT = 3;
/** Past this many cells a region is shown as all removed then all added. */
const LCS_LIMIT = 4_000_000;

export interface FileDiff {
  diff: string;
  added: number;
  removed: number;
}

export function unifiedDiff(oldLines: readonly string[], newLines: readonly string[], replacements: readonly Replacement[]): FileDiff {
  const blocks: Block[] = [];
  let shift = 0;
  for (const r of replacements) {
    blocks.push(...regionBlocks(oldLines, r, r.start + shift));
    shift += r.lines.length - r.oldLength;
  }
  let added = 0;
  let removed = 0;
  for (const b of blocks) {
    added += b.newEnd - b.newStart;
    removed += b.oldEnd - b.oldStart;
  }
  const out: string[] = [];
  let i = 0;
  while (i < blocks.length) {
    let j = i;
    while (j + 1 < blocks.length && blocks[j + 1]!.oldStart - blocks[j]!.oldEnd <= 2 * CONTEXT) j++;
    out.push(hunk(oldLines, newLines, blocks.slice(i, j + 1)));
    i = j + 1;
  }
  return { diff: out.join(''), added, removed };
}

function hunk(oldLines: readonly string[], newLines: readonly string[], blocks: Block[]): string {
  const first = blocks[0]!;
  const last = blocks[blocks.length - 1]!;
  const before = Math.min(CONTEXT, first.oldStart, first.newStart);
  const after = Math.min(CONTEXT, oldLines.length - last.oldEnd, newLines.length - last.newEnd);
  const oldStart = first.oldStart - before;
  const newStart = first.newStart - before;
  const oldCount = last.oldEnd + after - oldStart;
  const newCount = last.newEnd + after - newStart;
  const lines: string[] = [];
  let cursor = oldStart;
  for (const b of blocks) {
    for (; cursor < b.oldStart; cursor++) lines.push(` ${oldLines[cursor]}`);
    for (let k = b.oldStart; k < b.oldEnd; k++) lines.push(`-${oldLines[k]}`);
    for (let k = b.newStart; k < b.newEnd; k++) lines.push(`+${newLines[k]}`);
    cursor = b.oldEnd;
  }
  for (; cursor < last.oldEnd + after; cursor++) lines.push(` ${oldLines[cursor]}`);
  const range = (start: number, count: number): string => `${count === 0 ? start : start + 1}${count === 1 ? '' : `,${count}`}`;
  return `@@ -${range(oldStart, oldCount)} +${range(newStart, newCount)} @@\n${lines.map((line) => `${line}\n`).join('')}`;
}

/** The changed blocks inside one replaced region, whose new lines begin at `newAt`. */
function regionBlocks(oldLines: readonly string[], r: Replacement, newAt: number): Block[] {
  const a = oldLines.slice(r.start, r.start + r.oldLength);
  const b = r.lines;
  const whole: Block = { oldStart: r.start, oldEnd: r.start + a.length, newStart: newAt, newEnd: newAt + b.length };
  if (a.length === 0 || b.length === 0 || a.length * b.length > LCS_LIMIT) return a.length + b.length === 0 ? [] : [whole];
  // lengths[i][j]: the LCS of a[i..] and b[j..].
  const width = b.length + 1;
  const lengths = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lengths[i * width + j] =
        a[i] === b[j] ? lengths[(i + 1) * width + j + 1]! + 1 : Math.max(lengths[(i + 1) * width + j]!, lengths[i * width + j + 1]!);
    }
  }
  const blocks: Block[] = [];
  let open: Block | null = null;
  let i = 0;
  let j = 0;
  const grow = (di: number, dj: number): void => {
    open ??= { oldStart: r.start + i, oldEnd: r.start + i, newStart: newAt + j, newEnd: newAt + j };
    open.oldEnd += di;
    open.newEnd += dj;
  };
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      if (open) blocks.push(open);
      open = null;
      i++;
      j++;
    } else if (j < b.length && (i === a.length || lengths[i * width + j + 1]! >= lengths[(i + 1) * width + j]!)) {
      grow(0, 1);
      j++;
    } else {
      grow(1, 0);
      i++;
    }
  }
  if (open) blocks.push(open);
  return blocks;
}
