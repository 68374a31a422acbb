/** Applying patches to real files, as Codex's apply-patch tests and scenarios do. */
import { readFileSync, writeFileSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { planPatch, successSummary, writePlan } from '../../../src/runtime/tools/apply-patch/apply.js';
import { parsePatch } from '../../../src/runtime/tools/apply-patch/parser.js';
import { seekSequence } from '../../../src/runtime/tools/apply-patch/seek.js';
import { tempDir } from '../support/config.js';

const wrap = (body: string): string => `*** Begin Patch\n${body}\n*** End Patch`;

async function apply(dir: string, body: string): Promise<string> {
  const changes = await planPatch(parsePatch(wrap(body)), dir);
  await writePlan(changes);
  return successSummary(changes);
}

const read = (dir: string, name: string): string => readFileSync(join(dir, name), 'utf8');

describe('seekSequence', () => {
  it('matches exactly, then ignoring trailing, then surrounding whitespace, then normalised punctuation', () => {
    expect(seekSequence(['foo', 'bar', 'baz'], ['bar', 'baz'], 0, false)).toBe(1);
    expect(seekSequence(['foo   ', 'bar\t\t'], ['foo', 'bar'], 0, false)).toBe(0);
    expect(seekSequence(['    foo   ', '   bar\t'], ['foo', 'bar'], 0, false)).toBe(0);
    expect(seekSequence(['say \u201Chi\u201D \u2014 it\u2019s\u00A0ok'], ['say "hi" - it\'s ok'], 0, false)).toBe(0);
    expect(seekSequence(['one line'], ['too', 'many', 'lines'], 0, false)).toBeNull();
  });

  it('prefers a stricter match further on over a looser one before it, and anchors end-of-file chunks at the end', () => {
    expect(seekSequence(['x  ', 'x'], ['x'], 0, false)).toBe(1);
    expect(seekSequence(['a', 'b', 'a', 'b'], ['a', 'b'], 0, true)).toBe(2);
  });
});

describe('applying a patch', () => {
  it('adds, updates and deletes files and reports A/M/D as Codex does', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'upd.txt'), 'foo\nbar\n');
    writeFileSync(join(dir, 'del.txt'), 'gone\n');
    const summary = await apply(
      dir,
      '*** Add File: nested/new.txt\n+hello\n*** Update File: upd.txt\n@@\n foo\n-bar\n+baz\n*** Delete File: del.txt',
    );
    expect(summary).toBe('Success. Updated the following files:\nA nested/new.txt\nM upd.txt\nD del.txt\n');
    expect(read(dir, 'nested/new.txt')).toBe('hello\n');
    expect(read(dir, 'upd.txt')).toBe('foo\nbaz\n');
    expect(existsSync(join(dir, 'del.txt'))).toBe(false);
  });

  it('updates several places of one file, in order, with @@ context lines', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'multi.txt'), 'class A:\n  x = 1\nclass B:\n  x = 1\nfoo\nbar\nbaz\nqux\n');
    await apply(dir, '*** Update File: multi.txt\n@@ class B:\n-  x = 1\n+  x = 2\n@@\n baz\n-qux\n+QUX');
    expect(read(dir, 'multi.txt')).toBe('class A:\n  x = 1\nclass B:\n  x = 2\nfoo\nbar\nbaz\nQUX\n');
  });

  it('moves a file into a new directory with its update', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'old'));
    writeFileSync(join(dir, 'old/name.txt'), 'old content\n');
    const summary = await apply(dir, '*** Update File: old/name.txt\n*** Move to: renamed/dir/name.txt\n@@\n-old content\n+new content');
    expect(summary).toBe('Success. Updated the following files:\nM renamed/dir/name.txt\n');
    expect(existsSync(join(dir, 'old/name.txt'))).toBe(false);
    expect(read(dir, 'renamed/dir/name.txt')).toBe('new content\n');
  });

  it('anchors an End of File chunk at the end, and appends a pure addition at the end', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'tail.txt'), 'last\nmiddle\nlast\n');
    await apply(dir, '*** Update File: tail.txt\n@@\n-last\n+end\n*** End of File');
    expect(read(dir, 'tail.txt')).toBe('last\nmiddle\nend\n');
    await apply(dir, '*** Update File: tail.txt\n@@\n+appended');
    expect(read(dir, 'tail.txt')).toBe('last\nmiddle\nend\nappended\n');
  });

  it('finds context that differs only by whitespace or typographic punctuation', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'u.txt'), '  indented  \nmsg = \u201Chello \u2014 world\u201D\n');
    await apply(dir, '*** Update File: u.txt\n@@\n indented\n-msg = "hello - world"\n+msg = "bye"');
    // As Codex: the matched region takes the patch's lines, context lines included.
    expect(read(dir, 'u.txt')).toBe('indented\nmsg = "bye"\n');
  });

  it('keeps a CRLF file CRLF', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'win.txt'), 'one\r\ntwo\r\nthree\r\n');
    await apply(dir, '*** Update File: win.txt\n@@\n one\n-two\n+TWO');
    expect(read(dir, 'win.txt')).toBe('one\r\nTWO\r\nthree\r\n');
  });

  it('writes nothing when one hunk does not match, and names the file and the lines', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'a.txt'), 'a\n');
    writeFileSync(join(dir, 'b.txt'), 'b\n');
    const hunks = parsePatch(
      wrap('*** Add File: c.txt\n+c\n*** Update File: a.txt\n@@\n-a\n+A\n*** Update File: b.txt\n@@\n-missing\n-lines\n+x'),
    );
    await expect(planPatch(hunks, dir)).rejects.toThrow(`Failed to find expected lines in ${join(dir, 'b.txt')}:\nmissing\nlines`);
    expect(read(dir, 'a.txt')).toBe('a\n');
    expect(existsSync(join(dir, 'c.txt'))).toBe(false);
  });

  it('refuses an update or delete of a missing file, a missing @@ context, and an empty patch', async () => {
    const dir = tempDir();
    await expect(planPatch(parsePatch(wrap('*** Delete File: nope.txt')), dir)).rejects.toThrow(
      `Failed to read ${join(dir, 'nope.txt')}: No such file or directory`,
    );
    await expect(planPatch(parsePatch(wrap('*** Update File: nope.txt\n@@\n+x')), dir)).rejects.toThrow('Failed to read file to update');
    writeFileSync(join(dir, 'f.txt'), 'x\n');
    await expect(planPatch(parsePatch(wrap('*** Update File: f.txt\n@@ def nowhere()\n-x\n+y')), dir)).rejects.toThrow(
      "Failed to find context 'def nowhere()'",
    );
    await expect(planPatch([], dir)).rejects.toThrow('No files were modified.');
  });

  it('gives each change a unified diff with its counts', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'd.txt'), `${Array.from({ length: 10 }, (_, i) => `l${i + 1}`).join('\n')}\n`);
    const [change] = await planPatch(parsePatch(wrap('*** Update File: d.txt\n@@\n l4\n-l5\n+five\n+5\n l6')), dir);
    expect(change!.diff).toBe('@@ -2,7 +2,8 @@\n l2\n l3\n l4\n-l5\n+five\n+5\n l6\n l7\n l8\n');
    expect([change!.added, change!.removed]).toEqual([2, 1]);
  });
});
