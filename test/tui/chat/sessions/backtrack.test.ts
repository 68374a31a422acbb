import { describe, expect, it } from 'vitest';
import {
  backtrackEsc,
  backtrackOtherKey,
  backtrackTargets,
  IDLE,
  isBacktrackKey,
  selectingKey,
} from '../../../../src/tui/chat/sessions/backtrack.js';
import { charKey, key } from '../../../../src/tui/keys/types.js';
import type { TranscriptCell } from '../../../../src/tui/store.js';

const prompt = (id: number, turnId: string | null): TranscriptCell => ({
  kind: 'user',
  id,
  text: `p${id}`,
  textElements: [],
  attachmentLabels: [],
  turnId,
});

describe('backtrackTargets', () => {
  it('is the first prompt of each known turn, oldest first (steers and unanswered prompts left out)', () => {
    const cells: TranscriptCell[] = [
      { kind: 'info', id: 1, text: 'header' },
      prompt(2, 't1'),
      { kind: 'agent', id: 3, markdown: 'a' },
      prompt(4, 't1'),
      prompt(5, 't2'),
      prompt(6, null),
    ];
    expect(backtrackTargets(cells)).toEqual([2, 5]);
  });
});

describe('the backtrack state machine', () => {
  const targets = [2, 5, 9];

  it('Esc primes, a second Esc selects the newest prompt; any other key in between unprimes', () => {
    const primed = backtrackEsc(IDLE, targets);
    expect(primed).toEqual({ state: { phase: 'primed' }, action: 'none' });
    expect(backtrackOtherKey(primed.state)).toEqual(IDLE);
    expect(backtrackOtherKey(IDLE)).toEqual(IDLE);
    expect(backtrackEsc(primed.state, targets)).toEqual({ state: { phase: 'selecting', cellId: 9 }, action: 'highlight' });
  });

  it('with nothing to go back to, Esc does nothing', () => {
    expect(backtrackEsc(IDLE, [])).toEqual({ state: IDLE, action: 'none' });
    expect(backtrackEsc({ phase: 'primed' }, [])).toEqual({ state: IDLE, action: 'none' });
  });

  it('Esc and ← go to older prompts, → to newer, both stopping at the ends', () => {
    const at = (cellId: number) => ({ phase: 'selecting' as const, cellId });
    expect(selectingKey(at(9), key('escape'), targets)).toEqual({ state: at(5), action: 'highlight' });
    expect(selectingKey(at(5), key('left'), targets)).toEqual({ state: at(2), action: 'highlight' });
    expect(selectingKey(at(2), key('escape'), targets)).toEqual({ state: at(2), action: 'highlight' });
    expect(selectingKey(at(2), key('right'), targets)).toEqual({ state: at(5), action: 'highlight' });
    expect(selectingKey(at(9), key('right'), targets)).toEqual({ state: at(9), action: 'highlight' });
    expect(backtrackEsc(at(9), targets)).toEqual({ state: at(5), action: 'highlight' });
  });

  it('Enter picks the highlighted prompt; q and Ctrl+C cancel; a vanished prompt cancels; other keys wait', () => {
    const at = { phase: 'selecting' as const, cellId: 5 };
    expect(selectingKey(at, key('enter'), targets)).toEqual({ state: IDLE, action: 'confirm', cellId: 5 });
    expect(selectingKey(at, charKey('q'), targets)).toEqual({ state: IDLE, action: 'cancel' });
    expect(selectingKey(at, charKey('c', { ctrl: true }), targets)).toEqual({ state: IDLE, action: 'cancel' });
    expect(selectingKey({ phase: 'selecting', cellId: 7 }, key('left'), targets)).toEqual({ state: IDLE, action: 'cancel' });
    expect(selectingKey(at, key('up'), targets)).toEqual({ state: at, action: 'none' });
    expect(selectingKey(at, key('enter', { shift: true }), targets)).toEqual({ state: at, action: 'none' });
  });

  it('the pager leaves exactly those keys to the controller and keeps scrolling keys', () => {
    for (const k of [key('escape'), key('left'), key('right'), key('enter'), charKey('q'), charKey('c', { ctrl: true })])
      expect(isBacktrackKey(k)).toBe(true);
    for (const k of [key('up'), key('down'), key('pageup'), charKey('g'), charKey('j'), key('left', { alt: true })])
      expect(isBacktrackKey(k)).toBe(false);
  });
});
