/**
 * After every composer event: the undo history learns what changed (one step per paste, attachment,
 * completion, kill, yank…; typed runs coalesce, see undo.ts), a submit clears it and brings a stash
 * back, and any key that is not a kill or a yank ends the kill sequence.
 *
 * The kind of a change comes from the reducer when it knows better (`change`), else from the event and
 * the text diff: a single grapheme inserted is typing, Backspace/Delete removing text is deleting, a
 * flushed paste burst is a paste.
 */
import type { KeyEvent } from '../keys/types.js';
import { isCtrl } from '../keys/ctrl.js';
import { isPlainKey } from './editor-keys.js';
import { nextGrapheme } from './graphemes.js';
import type { ChangeKind } from './draft-types.js';
import { isSearching } from './history.js';
import { endKillSequence } from './kill-ring.js';
import { isBuffering, isBurstActive } from './paste-burst.js';
import type { ComposerState } from './state-types.js';
import { restoreStashAfterSubmit } from './stash.js';
import type { ComposerEvent, InputResult } from './types.js';
import { EMPTY_UNDO, insertedText, recordChange, snapshotDraft } from './undo.js';

export interface TrackedStep {
  state: ComposerState;
  result: InputResult;
  /** What the change was, when the handler knows (kill, yank, completion). */
  change?: ChangeKind;
  /** The handler already set `state.undo` (undo, redo, stash): record nothing. */
  skipUndo?: boolean;
  /** History browsing replaced the draft. */
  navigated?: boolean;
  /** A command that acts on the draft (/inspect) left it in place: its undo history and the stash stay. */
  keepsDraft?: boolean;
}

function isDeleteKey(key: KeyEvent): boolean {
  return isPlainKey(key, 'backspace') || isPlainKey(key, 'delete') || isCtrl(key, 'h') || isCtrl(key, 'd');
}

function changeKind(before: ComposerState, event: ComposerEvent, step: TrackedStep): ChangeKind {
  if (step.change !== undefined) return step.change;
  if (step.navigated === true || isSearching(before.history)) return 'recall';
  // Vim: what an Insert session types (keys, pastes, bursts, up to its Esc) is one group (vim/index.ts);
  // Ctrl+C clearing the draft stays a step of its own.
  if (
    before.vimEnabled &&
    before.vim.mode === 'insert' &&
    (event.type === 'tick' || event.type === 'paste' || event.type === 'attach' || (event.type === 'key' && !isCtrl(event, 'c')))
  ) {
    return 'group';
  }
  switch (event.type) {
    case 'paste':
      return 'paste';
    case 'attach':
      return 'attach';
    case 'externalEditResult':
      // The editor got the pastes expanded: what comes back is one step.
      return 'expand';
    case 'inputRead':
    case 'burstChars':
      return 'burst';
    case 'tick':
    case 'key': {
      const after = step.state;
      if (isBuffering(after.burst)) return 'burst';
      const bursting = isBurstActive(before.burst);
      const inserted = insertedText(snapshotDraft(before), snapshotDraft(after));
      if (inserted !== null && nextGrapheme(inserted, 0) >= inserted.length) return 'type';
      if (inserted !== null && (event.type === 'tick' || bursting)) return 'paste';
      if (event.type === 'key' && isDeleteKey(event) && after.ta.text.length < before.ta.text.length) return 'delete';
      return bursting ? 'paste' : 'edit';
    }
    default:
      return 'edit';
  }
}

function endsKillSequence(event: ComposerEvent, step: TrackedStep): boolean {
  if (event.type === 'key') return event.kind !== 'release' && step.change !== 'kill' && step.change !== 'yank';
  return (
    event.type === 'paste' ||
    event.type === 'burstChars' ||
    event.type === 'attach' ||
    event.type === 'restoreDraft' ||
    event.type === 'externalEditResult'
  );
}

/** `before`: the state the event was dispatched on. */
export function trackEdits<T extends TrackedStep>(before: ComposerState, event: ComposerEvent, step: T, now: number): T {
  let state = step.state;
  if (step.result.type !== 'none' && step.keepsDraft !== true) {
    // Submitted (or dispatched as a command): the history goes with the draft; a stash comes back.
    state = restoreStashAfterSubmit({ ...state, undo: EMPTY_UNDO });
  } else if (step.skipUndo !== true) {
    const undo = recordChange(state.undo, snapshotDraft(before), snapshotDraft(state), changeKind(before, event, step), now);
    if (undo !== state.undo) state = { ...state, undo };
  }
  if (endsKillSequence(event, step)) {
    const killRing = endKillSequence(state.killRing);
    if (killRing !== state.killRing) state = { ...state, killRing };
  }
  return state === step.state ? step : { ...step, state };
}
