/** `npm run bench`: every section's figures in one table. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BenchRow, BenchSection } from './lib.js';

const sections: Array<[string, () => Promise<{ default: BenchSection }>]> = [
  ['protocol', () => import('./protocol.js')],
  ['media', () => import('./media.js')],
  ['model', () => import('./runtime-model.js')],
  ['runtime', () => import('./runtime.js')],
  ['wires', () => import('./wires.js')],
  ['exec_command', () => import('./exec-command.js')],
  ['apply_patch', () => import('./apply-patch.js')],
  ['checkpoints', () => import('./checkpoints.js')],
  ['mcp', () => import('./mcp.js')],
  ['sessions', () => import('./sessions.js')],
  ['tui', () => import('./tui.js')],
  ['patch diff', () => import('./patch-diff.js')],
  ['scale', () => import('./scale.js')],
];

// BENCH_SECTIONS=tui,scale runs only those sections (the TUI's peer comparison alone takes minutes).
const only = process.env.BENCH_SECTIONS?.split(',').map((name) => name.trim());
const chosen = only === undefined ? sections : sections.filter(([name]) => only.includes(name));

// Every section's temporary files (fixtures, homes, clipboard PNGs) under one directory removed at the end.
const runTmp = mkdtempSync(join(tmpdir(), 'tiller-bench-run-'));
process.env.TMPDIR = runTmp;
const rows: Array<BenchRow & { section: string }> = [];
try {
  for (const [section, load] of chosen) {
    try {
      const run = (await load()).default;
      for (const row of await run()) rows.push({ section, ...row });
    } catch (error) {
      rows.push({ section, name: 'section failed', value: '-', note: error instanceof Error ? error.message : String(error) });
    }
  }
} finally {
  try {
    rmSync(runTmp, { recursive: true, force: true, maxRetries: 5 });
  } catch (error) {
    // The figures matter more than the clean-up: say what was left and print them anyway.
    process.stderr.write(`bench: could not remove ${runTmp}: ${error instanceof Error ? error.message : String(error)}\n`);
  }
}

const header = ['section', 'measure', 'value', 'note'];
const table = [header, ...rows.map((r) => [r.section, r.name, r.value, r.note ?? ''])];
const widths = header.map((_, i) => Math.max(...table.map((row) => row[i]!.length)));
const line = (row: string[]): string => `| ${row.map((cell, i) => cell.padEnd(widths[i]!)).join(' | ')} |`;
process.stdout.write(`${line(header)}\n|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|\n`);
for (const row of table.slice(1)) process.stdout.write(`${line(row)}\n`);
