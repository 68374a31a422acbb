/** What /undo steps back over, the redo stack and the sentences of a rewind (chat/rewind/rewind-plan.ts). */
import { describe, expect, it } from 'vitest';
import type { TillerTurnCheckpoint } from '../../../../src/protocol/api.js';
import {
  filesChangedSince,
  filesRestoredText,
  filesUnavailable,
  hasRewind,
  RedoStack,
  undoTarget,
} from '../../../../src/tui/chat/rewind/rewind-plan.js';
import { subjectOf } from '../../../../src/tui/chat/rewind/rewind.js';

const checkpoint = (turnId: string, rewound = false): TillerTurnCheckpoint => ({
  turnId,
  workspace: '/w',
  before: `b-${turnId}`,
  after: `a-${turnId}`,
  note: null,
  ...(rewound ? { rewind: { redo: `r-${turnId}`, at: 1 } } : {}),
});

describe('the turn /undo steps back over', () => {
  it('is the last turn, then the one before the earliest whose files are put back', () => {
    const turns = ['t1', 't2', 't3'];
    expect(undoTarget(turns, [checkpoint('t1'), checkpoint('t2'), checkpoint('t3')])).toBe('t3');
    expect(undoTarget(turns, [checkpoint('t1'), checkpoint('t2'), checkpoint('t3', true)])).toBe('t2');
    expect(undoTarget(turns, [checkpoint('t1'), checkpoint('t2', true), checkpoint('t3', true)])).toBe('t1');
    expect(undoTarget(turns, [checkpoint('t1', true)])).toBeNull();
    expect(undoTarget([], [])).toBeNull();
  });

  it('is the last turn when checkpoints are off (none listed)', () => {
    expect(undoTarget(['t1', 't2'], [])).toBe('t2');
  });
});

describe('why a turn’s files cannot be put back', () => {
  it('no checkpoint listed, one whose record failed (its note), or none', () => {
    expect(filesUnavailable(undefined)).toMatch(/no checkpoint of this turn/);
    expect(filesUnavailable({ ...checkpoint('t'), before: null, note: 'no checkpoint for this turn: the disk is full' })).toBe(
      'no checkpoint for this turn: the disk is full',
    );
    expect(filesUnavailable(checkpoint('t'))).toBeNull();
    expect(hasRewind([checkpoint('t1'), checkpoint('t2', true)])).toBe(true);
    expect(hasRewind([checkpoint('t1'), { ...checkpoint('t2'), rewind: null }])).toBe(false);
  });
});

describe('the redo stack', () => {
  it('gives back the newest undo first and forgets all on clear (a new turn)', () => {
    const stack = new RedoStack();
    stack.push({ returnTo: 'thread-a', subject: 'one' });
    stack.push({ returnTo: null, subject: 'two' });
    expect(stack.peek()).toEqual({ returnTo: null, subject: 'two' });
    expect(stack.pop()?.subject).toBe('two');
    expect(stack.pop()?.subject).toBe('one');
    expect(stack.pop()).toBeNull();
    stack.push({ returnTo: null, subject: 'three' });
    stack.clear();
    expect(stack.size).toBe(0);
  });

  it('a files redo takes a files-only undo off, and leaves an undo of the conversation for its conversation', () => {
    const stack = new RedoStack();
    stack.push({ returnTo: 'thread-a', subject: 'both' });
    stack.filesRedone();
    expect(stack.size).toBe(1);
    stack.push({ returnTo: null, subject: 'files' });
    stack.filesRedone();
    expect(stack.peek()?.subject).toBe('both');
  });
});

describe('what a rewind says', () => {
  it('names each file and what happened to it, relative to the directory', () => {
    const changes = [
      { path: '/w/a.txt', kind: 'update' as const },
      { path: '/w/new.txt', kind: 'delete' as const },
      { path: '/w/gone.txt', kind: 'add' as const },
    ];
    expect(filesRestoredText('undo', 'edit', changes, '/w')).toBe(
      'Files put back to before “edit”: a.txt changed back, new.txt removed, gone.txt brought back.',
    );
    expect(filesRestoredText('redo', 'edit', [], '/w')).toBe('Files put back as they were before the undo: nothing had changed.');
  });

  it('names a prompt by its first line, cut', () => {
    expect(subjectOf('\n  fix the bug  \nand more')).toBe('fix the bug');
    expect(subjectOf('x'.repeat(100))).toBe(`${'x'.repeat(59)}…`);
  });
});

describe('whether the agent changed files since a turn (else backtrack needs no menu)', () => {
  const ended = (turnId: string, changedFiles: number): TillerTurnCheckpoint => ({ ...checkpoint(turnId), changedFiles });
  const turns = ['t1', 't2', 't3'];

  it('no: every turn from it on ended without changes, or wrote nothing (no checkpoint)', () => {
    expect(filesChangedSince('t2', turns, [ended('t1', 3), ended('t2', 0)])).toBe(false);
  });

  it('yes: a turn from it on changed files, or ended unknown, or a rewind is not redone', () => {
    expect(filesChangedSince('t2', turns, [ended('t2', 0), ended('t3', 1)])).toBe(true);
    expect(filesChangedSince('t2', turns, [ended('t2', 0), { ...checkpoint('t3'), after: null }])).toBe(true);
    expect(filesChangedSince('t3', turns, [ended('t1', 0), { ...ended('t1', 0), turnId: 't0', rewind: { redo: 'r', at: 1 } }])).toBe(true);
    expect(filesChangedSince('t1', turns, [ended('t1', 2)])).toBe(true);
  });
});
