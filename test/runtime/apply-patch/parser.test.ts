/** The patch language as Codex's parser reads it (codex-rs/apply-patch parser tests). */
import { describe, expect, it } from 'vitest';
import { PatchParseError, parsePatch } from '../../../src/runtime/tools/apply-patch/parser.js';

const wrap = (body: string): string => `*** Begin Patch\n${body}\n*** End Patch`;

describe('parsePatch', () => {
  it('reads add, delete and update-with-move hunks', () => {
    const hunks = parsePatch(
      wrap(
        '*** Add File: path/add.py\n+abc\n+def\n*** Delete File: path/delete.py\n*** Update File: path/update.py\n*** Move to: path/update2.py\n@@ def f():\n-    pass\n+    return 123',
      ),
    );
    expect(hunks).toEqual([
      { type: 'add', path: 'path/add.py', contents: 'abc\ndef\n' },
      { type: 'delete', path: 'path/delete.py' },
      {
        type: 'update',
        path: 'path/update.py',
        movePath: 'path/update2.py',
        chunks: [{ context: 'def f():', oldLines: ['    pass'], newLines: ['    return 123'], endOfFile: false }],
      },
    ]);
  });

  it('takes a first chunk without @@, several chunks, an End of File marker; an empty line inside a chunk is an empty context line', () => {
    const [hunk] = parsePatch(wrap('*** Update File: f.txt\n import foo\n+bar\n\n@@\n-x\n+y\n*** End of File'));
    expect(hunk).toEqual({
      type: 'update',
      path: 'f.txt',
      movePath: null,
      chunks: [
        { context: null, oldLines: ['import foo', ''], newLines: ['import foo', 'bar', ''], endOfFile: false },
        { context: null, oldLines: ['x'], newLines: ['y'], endOfFile: true },
      ],
    });
  });

  it('is lenient as Codex: padded markers, surrounding whitespace, a heredoc around the patch', () => {
    const expected = [{ type: 'add', path: 'foo', contents: 'hi\n' }];
    expect(parsePatch('  *** Begin Patch \n*** Add File: foo\n+hi\n *** End Patch\n\n')).toEqual(expected);
    expect(parsePatch("<<'EOF'\n*** Begin Patch\n*** Add File: foo\n+hi\n*** End Patch\nEOF\n")).toEqual(expected);
    expect(parsePatch('*** Begin Patch\r\n*** Add File: foo\r\n+hi\r\n*** End Patch\r\n')).toEqual(expected);
  });

  it('names what is wrong, with the line', () => {
    expect(() => parsePatch('bad')).toThrow("invalid patch: The first line of the patch must be '*** Begin Patch'");
    expect(() => parsePatch('*** Begin Patch\nbad')).toThrow("The last line of the patch must be '*** End Patch'");
    expect(() => parsePatch(wrap('*** Update File: test.py'))).toThrow(
      "invalid hunk at line 2, Update file hunk for path 'test.py' is empty",
    );
    expect(() => parsePatch(wrap('*** Frobnicate File: foo'))).toThrow(
      /invalid hunk at line 2, '\*\*\* Frobnicate File: foo' is not a valid hunk header/,
    );
    const error = (() => {
      try {
        parsePatch(wrap('*** Update File: a\n@@\n-x\n+y\n@@ ctx\nnot a diff line'));
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(PatchParseError);
    expect((error as PatchParseError).line).toBe(7);
    expect((error as Error).message).toContain("Unexpected line found in update hunk: 'not a diff line'");
  });

  it('reads an empty patch as no hunks (applying it then fails)', () => {
    expect(parsePatch('*** Begin Patch\n*** End Patch')).toEqual([]);
  });
});
