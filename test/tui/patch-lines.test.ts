/** The patch cell: per file the path and +/− counts, then the diff with line numbers, coloured, wrapped and never cut. */
import { Chalk } from 'chalk';
import stripAnsi from 'strip-ansi';
import { describe, expect, it } from 'vitest';
import { turnCells } from '../../src/tui/chat/sessions/transcript-restore.js';
import { patchCell } from '../../src/tui/chat/turn/patch-cell.js';
import { patchLines } from '../../src/tui/components/patch-lines.js';
import type { TranscriptCell } from '../../src/tui/store-types.js';

const c = new Chalk({ level: 1 });
const item = {
  type: 'fileChange' as const,
  id: 'p1',
  status: 'completed' as const,
  changes: [
    {
      path: '/ws/src/a.ts',
      kind: { type: 'update' as const, move_path: null },
      diff: '@@ -9,3 +9,3 @@\n keep\n-old line\n+new line\n tail\n',
    },
    { path: '/ws/new.txt', kind: { type: 'add' as const }, diff: `hello\n${'x'.repeat(50)}\n` },
  ],
};

describe('patch cell', () => {
  it('shows each file with its counts, and the diff with line numbers in red and green', () => {
    const cell = { id: 1, ...patchCell(item, '/ws') } as Extract<TranscriptCell, { kind: 'patch' }>;
    const rows = patchLines(cell, 30, c);
    const plain = rows.map((row) => stripAnsi(row));
    expect(plain.slice(0, 3)).toEqual(['✓ 2 files (+3 -1)', '  └ src/a.ts (+1 -1)', '  └ new.txt (+2 -0)']);
    expect(plain[3]).toBe('  Edited src/a.ts (+1 -1)');
    expect(plain.slice(4, 8)).toEqual(['     9  keep', '    10 -old line', '    10 +new line', '    11  tail']);
    expect(rows[5]).toContain('\u001b[31m');
    expect(rows[6]).toContain('\u001b[32m');
    expect(plain[8]).toBe('  Added new.txt (+2 -0)');
    // The 50-character line wraps under its gutter: every x is on screen.
    const wrapped = plain
      .slice(10)
      .join('')
      .replace(/[\s+2]/g, '');
    expect(wrapped).toBe('x'.repeat(50));
    expect(plain.every((row) => row.length <= 30)).toBe(true);
  });

  it('says when a patch waits for approval or was declined', () => {
    const pending = { id: 1, ...patchCell(item, '/ws', 'pending') } as Extract<TranscriptCell, { kind: 'patch' }>;
    expect(stripAnsi(patchLines(pending, 80, c).at(-1)!)).toBe('  └ waiting for approval');
    const declined = { id: 1, ...patchCell({ ...item, status: 'declined' }, '/ws') } as Extract<TranscriptCell, { kind: 'patch' }>;
    expect(stripAnsi(patchLines(declined, 80, c).at(-1)!)).toBe('  └ declined');
  });

  it('comes back with a resumed session: a fileChange item of a stored turn is a patch cell', () => {
    const turn = {
      id: 't',
      items: [item],
      itemsView: 'full' as const,
      status: 'completed' as const,
      error: null,
      startedAt: 0,
      completedAt: 1,
      durationMs: 1,
    };
    expect(turnCells(turn)).toEqual([
      expect.objectContaining({
        kind: 'patch',
        status: 'completed',
        files: expect.arrayContaining([expect.objectContaining({ kind: 'add', added: 2 })]),
      }),
    ]);
  });
});
