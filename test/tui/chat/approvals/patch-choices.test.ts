/**
 * A patch's approval answered file by file: picking, rejecting, editing, what goes back to the
 * server, and the proposed content the editor opens (the current file with the patch's hunks).
 */
import { describe, expect, it } from 'vitest';
import {
  choicesAnswer,
  editable,
  moveChoice,
  patchChoicesOf,
  proposedContent,
  toggleChoice,
  withEditedContent,
} from '../../../../src/tui/chat/approvals/patch-choices.js';

const changes = [
  { path: '/ws/a.txt', kind: { type: 'update' as const, move_path: null }, diff: '@@ -2,1 +2,1 @@\n-b\n+B\n' },
  { path: '/ws/new.txt', kind: { type: 'add' as const }, diff: 'fresh\n' },
  { path: '/ws/gone.txt', kind: { type: 'delete' as const }, diff: 'old\n' },
];
const start = patchChoicesOf(changes, (path) => path.replace('/ws/', ''));

describe('patch choices', () => {
  it('starts with every file accepted, the first picked, paths shown relative', () => {
    expect(start.selected).toBe(0);
    expect(start.files.map((f) => [f.shown, f.rejected])).toEqual([
      ['a.txt', false],
      ['new.txt', false],
      ['gone.txt', false],
    ]);
    expect(choicesAnswer(start)).toEqual([
      { path: '/ws/a.txt', decision: 'accept' },
      { path: '/ws/new.txt', decision: 'accept' },
      { path: '/ws/gone.txt', decision: 'accept' },
    ]);
  });

  it('moves round the list both ways', () => {
    expect(moveChoice(start, -1).selected).toBe(2);
    expect(moveChoice(moveChoice(start, 1), 1).selected).toBe(2);
    expect(moveChoice(moveChoice(moveChoice(start, 1), 1), 1).selected).toBe(0);
  });

  it('rejects the picked file, and accepts it again', () => {
    const rejected = toggleChoice(moveChoice(start, 1));
    expect(choicesAnswer(rejected)[1]).toEqual({ path: '/ws/new.txt', decision: 'decline' });
    expect(choicesAnswer(toggleChoice(rejected))[1]).toEqual({ path: '/ws/new.txt', decision: 'accept' });
  });

  it("sends the user's edit with the file, and an edit accepts a rejected file", () => {
    const edited = withEditedContent(toggleChoice(start), 'a\nmine\nc\n');
    expect(choicesAnswer(edited)[0]).toEqual({ path: '/ws/a.txt', decision: 'accept', content: 'a\nmine\nc\n' });
  });

  it('a deleted file has nothing to edit', () => {
    expect(editable(start)).toBe(true);
    expect(editable(moveChoice(start, -1))).toBe(false);
  });
});

describe('proposed content', () => {
  it("is the current file with the update's hunks applied", () => {
    expect(proposedContent(start.files[0]!, 'a\nb\nc\n')).toBe('a\nB\nc\n');
  });

  it('handles several hunks, context and a pure addition after a line', () => {
    const diff = '@@ -1,2 +1,2 @@\n-one\n+ONE\n two\n@@ -4,0 +5,1 @@\n+after four\n';
    expect(proposedContent({ kind: 'update', diff }, 'one\ntwo\nthree\nfour\nfive\n')).toBe('ONE\ntwo\nthree\nfour\nafter four\nfive\n');
  });

  it("is an added file's text", () => {
    expect(proposedContent(start.files[1]!, '')).toBe('fresh\n');
  });
});
