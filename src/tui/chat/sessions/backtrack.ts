/**
 * Esc-Esc backtrack, as Codex's: Esc on an empty composer while idle primes it (the footer says
 * `esc again to edit previous message`), a second Esc opens the transcript pager with the last prompt
 * highlighted; Esc or ← step to older prompts, → to newer ones, Enter picks one (the controller
 * forks the thread before it and puts it back into the composer), q or Ctrl+C leaves. Pure: the
 * controller keeps the state in the store and carries out the actions.
 */
import { key, type KeyEvent } from '../../keys/types.js';
import type { BacktrackState, TranscriptCell } from '../../store-types.js';
import { isCtrl } from '../../keys/ctrl.js';

export const BACKTRACK_HINT = 'esc again to edit previous message';
export const BACKTRACK_PAGER_KEYS = 'esc/← older · → newer · enter edit · q cancel';

export const IDLE: BacktrackState = { phase: 'idle' };

/**
 * The prompts one can go back to, oldest first: the first user cell of each known turn (a steer
 * shares its turn with the prompt before it, and a prompt whose turn is not known yet has none).
 */
export function backtrackTargets(cells: readonly TranscriptCell[]): number[] {
  const seen = new Set<string>();
  const out: number[] = [];
  for (const cell of cells) {
    if (cell.kind !== 'user' || cell.turnId === null || seen.has(cell.turnId)) continue;
    seen.add(cell.turnId);
    out.push(cell.id);
  }
  return out;
}

export type BacktrackStep =
  | { state: BacktrackState; action: 'none' }
  /** The pager opens (or moves) to highlight `state.cellId`. */
  | { state: Extract<BacktrackState, { phase: 'selecting' }>; action: 'highlight' }
  | { state: BacktrackState; action: 'confirm'; cellId: number }
  | { state: BacktrackState; action: 'cancel' };

/**
 * An Esc the composer left alone, on an empty draft with nothing running: primes, then opens the
 * selection at the newest prompt. Nothing to go back to: nothing happens.
 */
export function backtrackEsc(state: BacktrackState, targets: readonly number[]): BacktrackStep {
  const newest = targets.at(-1);
  if (newest === undefined) return { state: IDLE, action: 'none' };
  if (state.phase === 'idle') return { state: { phase: 'primed' }, action: 'none' };
  if (state.phase === 'primed') return { state: { phase: 'selecting', cellId: newest }, action: 'highlight' };
  return selectingKey(state, key('escape'), targets);
}

/** Any other key while primed: the hint goes and the key does what it always does. */
export function backtrackOtherKey(state: BacktrackState): BacktrackState {
  return state.phase === 'primed' ? IDLE : state;
}

/**
 * A key while selecting (the pager leaves these to the controller): Esc / ← older, → newer, Enter
 * picks, q / Ctrl+C cancel. Other keys change nothing here (the pager scrolls with them).
 */
export function selectingKey(
  state: Extract<BacktrackState, { phase: 'selecting' }>,
  e: KeyEvent,
  targets: readonly number[],
): BacktrackStep {
  const plain = !e.ctrl && !e.alt && !e.meta;
  if (isCtrl(e, 'c') || (e.name === 'char' && plain && e.char === 'q')) return { state: IDLE, action: 'cancel' };
  const at = targets.indexOf(state.cellId);
  if (at < 0) return { state: IDLE, action: 'cancel' };
  if (e.name === 'enter' && plain && !e.shift) return { state: IDLE, action: 'confirm', cellId: state.cellId };
  const older = (e.name === 'escape' || e.name === 'left') && plain;
  const newer = e.name === 'right' && plain;
  if (!older && !newer) return { state, action: 'none' };
  const next = targets[Math.min(targets.length - 1, Math.max(0, at + (older ? -1 : 1)))]!;
  return { state: { phase: 'selecting', cellId: next }, action: 'highlight' };
}

/** The keys selectingKey() takes; the pager keeps the rest (scrolling). */
export function isBacktrackKey(e: KeyEvent): boolean {
  const plain = !e.ctrl && !e.alt && !e.meta;
  if (isCtrl(e, 'c')) return true;
  if (!plain) return false;
  return e.name === 'escape' || e.name === 'left' || e.name === 'right' || e.name === 'enter' || (e.name === 'char' && e.char === 'q');
}
