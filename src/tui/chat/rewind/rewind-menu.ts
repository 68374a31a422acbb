/**
 * The rewind menu of Esc-Esc backtrack, /undo and /redo, as Claude Code's /rewind: put back the
 * conversation and the files, the conversation only, or the files only; a choice that cannot be
 * had (no checkpoint, nothing to return to) is shown dimmed with why and cannot be picked. When
 * files changed outside Tiller since, a second stage names them and asks: overwrite, or cancel.
 * Pure: the controller (rewind.ts) carries out what is picked.
 */
import { isCtrl } from '../../keys/ctrl.js';
import type { KeyEvent } from '../../keys/types.js';
import type { RewindMenuState, RewindScope } from '../../store-types.js';
import { pickerKey } from '../input/app-keys.js';

export const REWIND_SCOPES: readonly RewindScope[] = ['both', 'conversation', 'files'];

export const REWIND_MENU_HINT = '↑/↓ to choose · enter or 1–3 to pick · esc to cancel';
export const OVERWRITE_HINT = 'enter or 1 to overwrite · 2 or esc to cancel';

export function scopeLabel(scope: RewindScope, direction: 'undo' | 'redo'): string {
  const verb = direction === 'undo' ? 'Rewind' : 'Redo';
  if (scope === 'both') return `${verb} the conversation and the files`;
  return scope === 'conversation' ? `${verb} the conversation only` : `${verb} the files only`;
}

export const OVERWRITE_CHOICES = ['Overwrite them', 'Cancel (nothing is changed)'];

type Choose = Extract<RewindMenuState, { stage: 'choose' }>;

/** Why a scope cannot be picked, or null when it can ('both' needs both). */
export function scopeUnavailable(state: Choose, scope: RewindScope): string | null {
  if (scope === 'conversation') return state.why.conversation;
  if (scope === 'files') return state.why.files;
  return state.why.conversation ?? state.why.files;
}

/** The menu, on the first choice that can be picked; null when none can (the controller says why). */
export function openRewindMenu(
  direction: 'undo' | 'redo',
  subject: string,
  why: { conversation: string | null; files: string | null },
): Choose | null {
  const state: Choose = { stage: 'choose', direction, subject, why, selected: 0 };
  const first = REWIND_SCOPES.findIndex((scope) => scopeUnavailable(state, scope) === null);
  return first < 0 ? null : { ...state, selected: first };
}

/** The second stage: `paths` changed outside Tiller, and `scope` would overwrite them. */
export function askOverwrite(state: RewindMenuState, scope: RewindScope, paths: string[]): RewindMenuState {
  return { stage: 'overwrite', direction: state.direction, subject: state.subject, scope, paths, selected: 0 };
}

export type RewindMenuStep =
  | { type: 'stay'; state: RewindMenuState }
  | { type: 'pick'; scope: RewindScope }
  | { type: 'overwrite'; scope: RewindScope }
  | { type: 'cancel' };

export function rewindMenuKey(state: RewindMenuState, e: KeyEvent): RewindMenuStep {
  const plain = !e.ctrl && !e.alt && !e.meta;
  if (e.name === 'char' && plain && e.char === 'q') return { type: 'cancel' };
  if (isCtrl(e, 'c')) return { type: 'cancel' };
  if (state.stage === 'overwrite') {
    const action = pickerKey(e, OVERWRITE_CHOICES.length);
    if (action.type === 'close') return { type: 'cancel' };
    if (action.type === 'move') return { type: 'stay', state: { ...state, selected: clamp(state.selected + action.by, 2) } };
    if (action.type !== 'pick') return { type: 'stay', state };
    return (action.index ?? state.selected) === 0 ? { type: 'overwrite', scope: state.scope } : { type: 'cancel' };
  }
  const action = pickerKey(e, REWIND_SCOPES.length);
  if (action.type === 'close') return { type: 'cancel' };
  if (action.type === 'move') return { type: 'stay', state: { ...state, selected: nextAvailable(state, action.by) } };
  if (action.type !== 'pick') return { type: 'stay', state };
  const index = action.index ?? state.selected;
  const scope = REWIND_SCOPES[index]!;
  // A dimmed choice picked by its digit: the highlight goes to it, so its reason is the one read.
  if (scopeUnavailable(state, scope) !== null) return { type: 'stay', state: { ...state, selected: index } };
  return { type: 'pick', scope };
}

/** The next choice that can be picked in direction `by`; the highlight stays when there is none. */
function nextAvailable(state: Choose, by: number): number {
  for (let at = state.selected + by; at >= 0 && at < REWIND_SCOPES.length; at += by) {
    if (scopeUnavailable(state, REWIND_SCOPES[at]!) === null) return at;
  }
  return state.selected;
}

function clamp(at: number, count: number): number {
  return Math.min(count - 1, Math.max(0, at));
}
