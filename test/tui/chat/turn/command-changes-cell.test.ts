/** The "changed by commands" cell from tiller/turn/checkpoint's list: git's file headers dropped, binary updates summarised, drawn as a patch. */
import { describe, expect, it } from 'vitest';
import { commandChangesCell } from '../../../../src/tui/chat/turn/command-changes-cell.js';
import { commandChangesLines } from '../../../../src/tui/components/command-changes-lines.js';
import type { TranscriptCell } from '../../../../src/tui/store-types.js';
import stripAnsi from 'strip-ansi';

const GIT_DIFF =
  'diff --git a/notes.txt b/notes.txt\nindex 1..2 100644\n--- a/notes.txt\n+++ b/notes.txt\n@@ -1,3 +1,3 @@\n alpha\n-beta\n+BETA\n gamma\n';

function drawn(cell: ReturnType<typeof commandChangesCell>): string[] {
  if (cell === null || cell.kind !== 'commandChanges') throw new Error('no cell');
  return commandChangesLines({ ...cell, id: 1 } as Extract<TranscriptCell, { kind: 'commandChanges' }>, 80).map(stripAnsi);
}

describe('the changed-by-commands cell', () => {
  it('is not drawn when commands changed nothing', () => {
    expect(commandChangesCell([], '/ws')).toBeNull();
  });

  it('counts and draws only the hunks of a git diff, paths relative to the session', () => {
    const cell = commandChangesCell([{ path: '/ws/notes.txt', kind: { type: 'update', move_path: null }, diff: GIT_DIFF }], '/ws');
    const rows = drawn(cell);
    expect(rows[0]).toBe('• Changed by commands (1 file, found after the turn)');
    expect(rows[1]).toBe('✓ Edited notes.txt (+1 -1)');
    expect(rows.join('\n')).toMatch(/2 -beta/u);
    expect(rows.join('\n')).not.toContain('+++');
  });

  it('names several files and shows a binary update as such', () => {
    const cell = commandChangesCell(
      [
        { path: '/ws/gen.txt', kind: { type: 'add' }, diff: 'made\n' },
        {
          path: '/ws/logo.png',
          kind: { type: 'update', move_path: null },
          diff: 'diff --git a/logo.png b/logo.png\nGIT binary patch\nliteral 3\n',
        },
      ],
      '/ws',
    );
    const text = drawn(cell).join('\n');
    expect(text).toContain('(2 files, found after the turn)');
    expect(text).toContain('Added gen.txt (+1 -0)');
    expect(text).toContain('binary file, not shown');
  });
});
