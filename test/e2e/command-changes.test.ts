/**
 * The "changed by commands" cell in the real bin: a command the model runs (`sed -i`) changes a file
 * in the workspace; once the turn is over, the checkpoints before and after it name that file in a
 * cell with its diff, and leave out the file apply_patch wrote in the same turn (its own cell has it).
 */
import { readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMAND_CHANGES_TITLE } from '../../src/tui/components/command-changes-lines.js';
import { tempDir } from '../runtime/support/config.js';
import { sessionPerTest, typeSlowly } from './helpers.js';

const openSession = sessionPerTest();

const PATCH = '*** Begin Patch\n*** Add File: patched.txt\n+by the patch\n*** End Patch';

describe('changed by commands', { timeout: 90_000 }, () => {
  it('lists the files a command changed, with their diffs, at the end of the turn', async () => {
    // Not the repository: the pty support turns checkpoints off there.
    const ws = realpathSync(tempDir('tiller-e2e-cmd-'));
    writeFileSync(join(ws, 'notes.txt'), 'alpha\nbeta\ngamma\n');
    const { server, pty } = await openSession({ cwd: ws, args: ['-m', 'gpt-5.5', '--full-auto'] });
    server.enqueue(
      { customToolCalls: [{ name: 'apply_patch', input: PATCH }] },
      { functionCall: { name: 'shell', arguments: { command: "sed -i 's/beta/BETA/' notes.txt" }, callId: 'call_sed' } },
      { text: 'Edited with sed.' },
    );
    await typeSlowly(pty, 'change it');
    pty.press('enter');
    const screen = await pty.waitFor((s) => s.includes('Edited with sed.') && s.includes(COMMAND_CHANGES_TITLE), 45_000);
    expect(readFileSync(join(ws, 'notes.txt'), 'utf8')).toBe('alpha\nBETA\ngamma\n');
    const cell = screen.slice(screen.indexOf(COMMAND_CHANGES_TITLE));
    expect(cell).toContain('(1 file, found after the turn)');
    expect(cell).toContain('Edited notes.txt (+1 -1)');
    expect(cell).toMatch(/2 -beta/);
    expect(cell).toMatch(/2 \+BETA/);
    // apply_patch's file is in the patch cell above, not here.
    expect(screen.slice(0, screen.indexOf(COMMAND_CHANGES_TITLE))).toContain('Added patched.txt');
    expect(cell).not.toContain('patched.txt');
  });
});
