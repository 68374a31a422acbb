/**
 * /diff in the pager (pager-screen.ts): the whole unified diff, every line, wrapped to the screen
 * and coloured as git colours it (added green, removed red, hunk headers cyan, file headers bold).
 * Pure: a diff's text and its lines.
 */
import type { ChalkInstance } from 'chalk';
import { defaultChalk, wrapWithPrefix } from '../components/row-shapes.js';
import { sanitize } from '../markdown.js';
import { palette } from '../theme.js';

export const DIFF_TITLE = 'Diff';

function paint(line: string, c: ChalkInstance): (row: string) => string {
  if (/^(diff --git |index |new file mode |deleted file mode |similarity index |rename (from|to) |--- |\+\+\+ )/.test(line)) return c.bold;
  if (line.startsWith('@@')) return palette(c).hunk;
  if (line.startsWith('+')) return palette(c).added;
  if (line.startsWith('-')) return palette(c).removed;
  return (row) => row;
}

/** Every line of `text`, wrapped to `width` (a continuation row keeps its line's colour). */
export function diffLines(text: string, width: number, c: ChalkInstance = defaultChalk): string[] {
  const source = text.replace(/\n$/, '').split('\n');
  const out: string[] = [];
  for (const line of source) {
    const colour = paint(line, c);
    // Wrapping drops spaces at wrap points; a diff's leading column (+, -, space) stays on the first row.
    for (const row of wrapWithPrefix(sanitize(line), width, '', '')) out.push(colour(row));
  }
  return out;
}

/** The lines of one diff per width: the pager asks for them on every key and every store change. */
export class DiffLines {
  private key: { text: string; width: number } | null = null;
  private rows: string[] = [];

  constructor(private readonly chalk: ChalkInstance = defaultChalk) {}

  lines(text: string, width: number): string[] {
    if (this.key?.text !== text || this.key.width !== width) {
      this.key = { text, width };
      this.rows = diffLines(text, width, this.chalk);
    }
    return this.rows;
  }
}
