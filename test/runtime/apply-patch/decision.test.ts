/**
 * A patch answered file by file (Tiller's `tillerFiles`): which changes are written, which are left
 * out, which are written as the user edited them, and what the model is told; a Codex client's
 * answer keeps Codex's meaning whatever extra fields it carries.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { fileChangeApprovalOf } from '../../../src/runtime/app-server.js';
import { planPatch, type PlannedChange } from '../../../src/runtime/tools/apply-patch/apply.js';
import { allRejectedOutput, selectChanges, selectionNotes } from '../../../src/runtime/tools/apply-patch/decision.js';
import { parsePatch } from '../../../src/runtime/tools/apply-patch/parser.js';

let dir: string;
let changes: PlannedChange[];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tiller-decision-'));
  await writeFile(join(dir, 'a.txt'), 'one\ntwo\nthree\n');
  const patch = [
    '*** Begin Patch',
    '*** Update File: a.txt',
    '@@',
    ' one',
    '-two',
    '+TWO',
    '*** Add File: b.txt',
    '+bee',
    '*** End Patch',
  ].join('\n');
  changes = await planPatch(parsePatch(patch), dir);
});

describe('per-file choices', () => {
  it('accepts what the list does not name', () => {
    const selection = selectChanges(changes, []);
    expect(selection.apply).toEqual(changes);
    expect(selection.rejected).toEqual([]);
    expect(selectionNotes(selection)).toBe('');
  });

  it('leaves a rejected file out and says so', () => {
    const selection = selectChanges(changes, [{ path: join(dir, 'b.txt'), decision: 'decline' }]);
    expect(selection.apply.map((c) => c.patchPath)).toEqual(['a.txt']);
    expect(selection.rejected.map((c) => c.patchPath)).toEqual(['b.txt']);
    expect(selectionNotes(selection)).toBe('The user rejected the changes to these files; they were left as they were:\nR b.txt\n');
  });

  it("writes the user's version of a file, redoes its diff, and says the user changed it", () => {
    const selection = selectChanges(changes, [{ path: join(dir, 'a.txt'), decision: 'accept', content: 'one\nTwo, edited\nthree\n' }]);
    const edited = selection.apply.find((c) => c.patchPath === 'a.txt')!;
    expect(edited.newContent).toBe('one\nTwo, edited\nthree\n');
    expect(edited.diff).toBe('@@ -1,3 +1,3 @@\n one\n-two\n+Two, edited\n three\n');
    expect(selection.edited).toEqual([edited]);
    expect(selectionNotes(selection)).toContain('edited the proposed content of these files before it was applied');
    expect(selectionNotes(selection)).toContain('E a.txt\n');
  });

  it('an edit that keeps the proposed content is a plain accept', () => {
    const selection = selectChanges(changes, [{ path: join(dir, 'b.txt'), decision: 'accept', content: 'bee\n' }]);
    expect(selection.edited).toEqual([]);
  });

  it('every file rejected: nothing to apply, and the model is told which', () => {
    const selection = selectChanges(changes, [
      { path: join(dir, 'a.txt'), decision: 'decline' },
      { path: join(dir, 'b.txt'), decision: 'decline' },
    ]);
    expect(selection.apply).toEqual([]);
    expect(allRejectedOutput(selection)).toMatch(/^The user rejected every file of this patch; no file was changed\./);
    expect(allRejectedOutput(selection)).toContain('R a.txt\nR b.txt\n');
  });
});

describe('the answer as the server reads it', () => {
  const answer = { decision: 'accept', tillerFiles: [{ path: '/w/a.txt', decision: 'decline' }] };

  it('takes per-file choices from a client with Tiller extensions', () => {
    expect(fileChangeApprovalOf(answer, true)).toEqual(answer);
  });

  it("keeps a Codex client's answer to Codex's decision", () => {
    expect(fileChangeApprovalOf(answer, false)).toEqual({ decision: 'accept' });
  });

  it('declines on malformed choices rather than write a file the user may have rejected', () => {
    expect(fileChangeApprovalOf({ decision: 'accept', tillerFiles: [{ path: 1 }] }, true)).toEqual({ decision: 'decline' });
    expect(fileChangeApprovalOf({ decision: 'bogus' }, true)).toEqual({ decision: 'decline' });
  });
});
