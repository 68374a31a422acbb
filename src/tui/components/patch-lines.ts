/**
 * The patch cell's rows: per file a header (`Added`/`Edited`/`Deleted`, the path, `+a −r`), then its
 * diff with old/new line numbers, removed lines red and added green. Long lines wrap under their
 * gutter, never cut; every text passes `sanitize` so nothing raw reaches the terminal.
 */
import type { ChalkInstance } from 'chalk';
import { sanitize } from '../markdown.js';
import type { PatchCellFile, TranscriptCell } from '../store-types.js';
import { defaultChalk, wrapWithPrefix } from './row-shapes.js';

const HUNK_HEADER = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/;

/** Each diff line with the number it has on its side (the new number for kept and added lines). */
function numberedLines(file: PatchCellFile): Array<{ sign: ' ' | '+' | '-' | '⋮'; number: number | null; text: string }> {
  const lines = file.diff.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  if (file.kind !== 'update') {
    const sign = file.kind === 'add' ? '+' : '-';
    return lines.map((text, i) => ({ sign, number: i + 1, text }));
  }
  const out: Array<{ sign: ' ' | '+' | '-' | '⋮'; number: number | null; text: string }> = [];
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

function fileHeader(file: PatchCellFile, c: ChalkInstance): string {
  const verb = file.kind === 'add' ? 'Added' : file.kind === 'delete' ? 'Deleted' : 'Edited';
  const path = file.movePath === null ? sanitize(file.path) : `${sanitize(file.path)} → ${sanitize(file.movePath)}`;
  return `${c.bold(verb)} ${path} (${c.green(`+${file.added}`)} ${c.red(`-${file.removed}`)})`;
}

export function patchLines(cell: Extract<TranscriptCell, { kind: 'patch' }>, width: number, c: ChalkInstance = defaultChalk): string[] {
  const rows: string[] = [];
  const mark = cell.status === 'completed' ? c.green('✓') : cell.status === 'pending' ? c.yellow('?') : c.red('✗');
  for (const [index, file] of cell.files.entries()) {
    rows.push(...wrapWithPrefix(fileHeader(file, c), width, index === 0 ? `${mark} ` : '  ', '    '));
    const numbered = numberedLines(file);
    const digits = String(Math.max(1, ...numbered.map((line) => line.number ?? 0))).length;
    for (const line of numbered) {
      if (line.sign === '⋮') {
        rows.push(c.dim(`    ${' '.repeat(digits)} ⋮`));
        continue;
      }
      const gutter = `    ${String(line.number).padStart(digits)} ${line.sign}`;
      const colour = line.sign === '+' ? c.green : line.sign === '-' ? c.red : c.dim;
      const wrapped = wrapWithPrefix(sanitize(line.text), width, gutter, ' '.repeat(gutter.length));
      rows.push(...wrapped.map((row) => colour(row)));
    }
  }
  if (cell.status === 'declined') rows.push(c.red('  └ declined'));
  else if (cell.status === 'failed') rows.push(c.red('  └ failed'));
  else if (cell.status === 'interrupted') rows.push(c.red('  └ interrupted'));
  else if (cell.status === 'pending') rows.push(c.yellow('  └ waiting for approval'));
  return rows;
}
