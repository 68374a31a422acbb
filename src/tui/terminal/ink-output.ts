/**
 * The frame buffer Ink renders into, with the same interface and output as Ink's own (ink/build/output.js),
 * but with work that does not grow with the frame's size on every frame. Ink's builds a grid of one
 * object per cell for every row of every frame and tokenizes each line anew (its caches live one frame),
 * so a keystroke under a tall composer or a streaming answer paid for every cell on screen. Here:
 * - a row written by one line at column 0 (nearly every row: a line of text) is that line's styled
 *   string, cached across frames by line and width; only rows that several writes share (borders beside
 *   text) are laid out cell by cell, as Ink does;
 * - tokenized lines and string widths are cached across frames, dropped all at once when they grow past
 *   a bound, so memory follows what is on screen, not what was.
 * The build (scripts/build.mjs) resolves Ink's `./output.js` to this module.
 */
import { styledCharsFromTokens, styledCharsToString, tokenize, type StyledChar } from '@alcalzone/ansi-tokenize';
import sliceAnsi from 'slice-ansi';
import stringWidth from '../string-width.js';
import { BoundedCache } from './bounded-cache.js';
import widestLine from './widest-line.js';

interface Clip {
  x1?: number;
  x2?: number;
  y1?: number;
  y2?: number;
}

type Transformer = (line: string, index: number) => string;

type Operation =
  | { type: 'write'; x: number; y: number; text: string; transformers: Transformer[] }
  | { type: 'clip'; clip: Clip }
  | { type: 'unclip' };

/** One placement of a (clipped, transformed) line on a row. */
interface Placed {
  x: number;
  line: string;
}

const styledLines = new BoundedCache<StyledChar[]>();
const widths = new BoundedCache<number>();
/** Keyed by width and line: the row string Ink would make of that line alone at column 0. */
const rowStrings = new BoundedCache<string>();

const styledChars = (line: string): StyledChar[] => styledLines.get(line, (l) => styledCharsFromTokens(tokenize(l)));
const widthOf = (text: string): number => widths.get(text, stringWidth);

const blank = (): StyledChar => ({ type: 'char', value: ' ', fullWidth: false, styles: [] });

/** Ink's row: `width` blank cells with the placed lines' characters laid over them, in order. */
function layRow(width: number, placed: readonly Placed[]): string {
  const row: StyledChar[] = [];
  for (let x = 0; x < width; x++) row.push(blank());
  for (const { x, line } of placed) {
    let at = x;
    for (const ch of styledChars(line)) {
      row[at] = ch;
      // Wide characters cover the cells after them (string-width's measure, as the layout's).
      const cells = Math.max(1, widthOf(ch.value));
      for (let k = 1; k < cells; k++) row[at + k] = { type: 'char', value: '', fullWidth: false, styles: ch.styles };
      at += cells;
    }
  }
  return styledCharsToString(row.filter((cell) => cell !== undefined)).trimEnd();
}

export default class Output {
  readonly width: number;
  readonly height: number;
  private readonly operations: Operation[] = [];

  constructor({ width, height }: { width: number; height: number }) {
    this.width = width;
    this.height = height;
  }

  write(x: number, y: number, text: string, { transformers }: { transformers: Transformer[] }): void {
    if (text) this.operations.push({ type: 'write', x, y, text, transformers });
  }

  clip(clip: Clip): void {
    this.operations.push({ type: 'clip', clip });
  }

  unclip(): void {
    this.operations.push({ type: 'unclip' });
  }

  get(): { output: string; height: number } {
    const rows: Placed[][] = Array.from({ length: this.height }, () => []);
    const clips: Clip[] = [];
    for (const op of this.operations) {
      if (op.type === 'clip') clips.push(op.clip);
      else if (op.type === 'unclip') clips.pop();
      else this.place(op, clips.at(-1), rows);
    }
    const lines = rows.map((placed) => {
      if (placed.length === 0) return '';
      const only = placed[0]!;
      if (placed.length === 1 && only.x === 0) return rowStrings.get(`${this.width}\n${only.line}`, () => layRow(this.width, placed));
      return layRow(this.width, placed);
    });
    return { output: lines.join('\n'), height: rows.length };
  }

  /** Ink's clipping and transformers, then each line noted on its row. */
  private place(op: Extract<Operation, { type: 'write' }>, clip: Clip | undefined, rows: Placed[][]): void {
    let { x, y } = op;
    let lines = op.text.split('\n');
    if (clip !== undefined) {
      const horizontally = typeof clip.x1 === 'number' && typeof clip.x2 === 'number';
      const vertically = typeof clip.y1 === 'number' && typeof clip.y2 === 'number';
      if (horizontally && (x + widestLine(op.text) < clip.x1! || x > clip.x2!)) return;
      if (vertically && (y + lines.length < clip.y1! || y > clip.y2!)) return;
      if (horizontally) {
        const x1 = clip.x1!;
        const x2 = clip.x2!;
        lines = lines.map((line) => {
          const width = widthOf(line);
          return sliceAnsi(line, x < x1 ? x1 - x : 0, x + width > x2 ? x2 - x : width);
        });
        if (x < x1) x = x1;
      }
      if (vertically) {
        const y1 = clip.y1!;
        const y2 = clip.y2!;
        lines = lines.slice(y < y1 ? y1 - y : 0, y + lines.length > y2 ? y2 - y : lines.length);
        if (y < y1) y = y1;
      }
    }
    // As Ink: lines from the first row outside the frame on are not drawn.
    for (const [index, text] of lines.entries()) {
      const row = rows[y + index];
      if (row === undefined) return;
      let line = text;
      for (const transform of op.transformers) line = transform(line, index);
      row.push({ x, line });
    }
  }
}
