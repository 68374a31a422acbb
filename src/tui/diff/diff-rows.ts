/**
 * One file's diff as screen rows: old/new line numbers in a gutter, the sign and gutter red or
 * green, the text in its language's syntax colours, and inside a changed pair of lines the words
 * that changed marked in reverse video (word-diff.ts). Long lines wrap under their gutter, never
 * cut; every text passes `sanitize` first, so nothing raw reaches the terminal. A binary file and a
 * diff too big to draw get one summary row instead. Syntax colour comes from a worker thread
 * (diff-colours.ts): only the rows drawn are coloured, and never on the screen's thread.
 */
import type { ChalkInstance } from 'chalk';
import { extname, basename } from 'node:path';
import { sanitize } from '../markdown.js';
import { colouredLine } from './diff-colours.js';
import { wrapWithPrefix } from '../components/row-shapes.js';
import type { PatchCellFile } from '../store-types.js';
import { pairChangedLines, wordDiff } from './word-diff.js';
import { palette } from '../theme.js';

const HUNK_HEADER = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/;
/** A diff longer than this (a 100 MB file added) is summarised: drawing it would stall the screen. */
export const DIFF_RENDER_LIMIT_CHARS = 16 * 1024 * 1024;
/** Lines longer than this are not syntax-coloured (a minified bundle): lowlight would take long. */
const HIGHLIGHT_MAX_CHARS = 2000;

export interface DiffLine {
  sign: ' ' | '+' | '-' | '⋮';
  number: number | null;
  text: string;
}

/** Each diff line with the number it has on its side (the new number for kept and added lines). */
export function numberedLines(file: Pick<PatchCellFile, 'kind' | 'diff'>): DiffLine[] {
  const lines = file.diff.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  if (file.kind !== 'update') {
    const sign = file.kind === 'add' ? '+' : '-';
    return lines.map((text, i) => ({ sign, number: i + 1, text }));
  }
  const out: DiffLine[] = [];
  let oldLine = 0;
  let newLine = 0;
  for (const line of lines) {
    const header = HUNK_HEADER.exec(line);
    if (header) {
      if (out.length > 0) out.push({ sign: '⋮', number: null, text: '' });
      oldLine = Number(header[1]);
      newLine = Number(header[2]);
      continue;
    }
    const sign = line[0];
    const text = line.slice(1);
    if (sign === '-') out.push({ sign: '-', number: oldLine++, text });
    else if (sign === '+') out.push({ sign: '+', number: newLine++, text });
    else {
      out.push({ sign: ' ', number: newLine++, text });
      oldLine++;
    }
  }
  return out;
}

const NAMED: Record<string, string> = { makefile: 'makefile', dockerfile: 'dockerfile', cmakelists: 'cmake' };

/** The highlight.js language of a path: its extension (lowlight knows the aliases), or a known file name. */
export function languageOf(path: string): string | null {
  const ext = extname(path).slice(1).toLowerCase();
  if (ext !== '') return ext;
  return NAMED[basename(path).toLowerCase()] ?? null;
}

/** Why a file's diff is not drawn line by line, or null when it is. */
export function summaryOf(file: Pick<PatchCellFile, 'diff'>): string | null {
  if (file.diff.length > DIFF_RENDER_LIMIT_CHARS) {
    const mb = (file.diff.length / (1024 * 1024)).toFixed(1);
    return `${mb} MB of changes, too big to show`;
  }
  if (file.diff.includes('\u0000')) return 'binary file, not shown';
  return null;
}

function syntax(text: string, language: string | null, c: ChalkInstance): string {
  if (language === null || text.trim() === '' || text.length > HIGHLIGHT_MAX_CHARS) return text;
  return colouredLine(text, language, c) ?? text;
}

/** The row text of a line: syntax colour, and the changed words of a paired line in reverse video. */
function lineText(line: DiffLine, partner: DiffLine | undefined, language: string | null, c: ChalkInstance): string {
  const text = sanitize(line.text);
  if (partner === undefined) return syntax(text, language, c);
  const words = wordDiff(sanitize(line.sign === '-' ? line.text : partner.text), sanitize(line.sign === '-' ? partner.text : line.text));
  if (words === null) return syntax(text, language, c);
  const mark = line.sign === '-' ? palette(c).removed.inverse : palette(c).added.inverse;
  return (line.sign === '-' ? words.old : words.new)
    .map((segment) => (segment.changed ? mark(segment.text) : syntax(segment.text, language, c)))
    .join('');
}

/**
 * The rows of a file's diff, at most `maxRows` of them (the rest is not even coloured, so a 5,000
 * line diff costs a screenful); `more` counts the diff lines left out.
 */
export function diffRows(file: PatchCellFile, width: number, c: ChalkInstance, maxRows = Infinity): { rows: string[]; more: number } {
  const summary = summaryOf(file);
  if (summary !== null) return { rows: [c.dim(`    ${summary}`)], more: 0 };
  const numbered = numberedLines(file);
  const digits = String(Math.max(1, ...numbered.map((line) => line.number ?? 0))).length;
  const pairs = pairChangedLines(numbered.map((line) => line.sign));
  const language = languageOf(file.movePath ?? file.path);
  const rows: string[] = [];
  for (const [index, line] of numbered.entries()) {
    if (rows.length >= maxRows) return { rows, more: numbered.length - index };
    if (line.sign === '⋮') {
      rows.push(c.dim(`    ${' '.repeat(digits)} ⋮`));
      continue;
    }
    const gutter = `    ${String(line.number).padStart(digits)} ${line.sign}`;
    const colour = line.sign === '+' ? palette(c).added : line.sign === '-' ? palette(c).removed : c.dim;
    const partnerIndex = pairs.get(index);
    const text = lineText(line, partnerIndex === undefined ? undefined : numbered[partnerIndex], language, c);
    const wrapped = wrapWithPrefix(text, width, gutter, ' '.repeat(gutter.length));
    rows.push(...wrapped.map((row) => colour(row.slice(0, gutter.length)) + row.slice(gutter.length)));
  }
  return { rows, more: 0 };
}
