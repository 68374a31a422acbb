/**
 * The prompt stash (Ctrl+S): put the whole draft aside (text, caret, elements, pending pastes' payloads,
 * attachments with their numbers, mentions, shell mode, and its undo history), write something else,
 * and get the draft back.
 *
 * Ctrl+S:
 * - draft, no stash: stash it and clear the composer (the footer says `Stashed — Ctrl+S brings it back`);
 * - empty composer, stash: bring the stash back;
 * - draft and a stash: swap them (the draft is stashed, the stash comes back), so nothing is lost;
 * - empty composer, no stash: nothing.
 * A submit (message, queued message or command) brings the stash back into the composer right after it.
 * One stash; it lives for the session (not persisted).
 */
import { clearDraft, isEmpty } from './draft.js';
import type { ComposerState, Stash } from './state-types.js';
import { applySnapshot, EMPTY_UNDO, snapshotDraft } from './undo.js';

export const STASH_HINT = 'Stashed — Ctrl+S brings it back';

function restore(state: ComposerState, stash: Stash): ComposerState {
  return { ...applySnapshot(state, stash.draft), undo: stash.undo, stash: null };
}

/** Ctrl+S (the paste burst is flushed by the caller). */
export function stashKey(state: ComposerState): ComposerState {
  const held = state.stash;
  if (isEmpty(state)) return held === null ? state : restore(state, held);
  const mine: Stash = { draft: snapshotDraft(state), undo: state.undo };
  const cleared: ComposerState = { ...clearDraft(state), undo: EMPTY_UNDO, stash: mine };
  return held === null ? cleared : { ...restore(cleared, held), stash: mine };
}

/** After a submit cleared the composer: the stash comes back. */
export function restoreStashAfterSubmit(state: ComposerState): ComposerState {
  return state.stash === null || !isEmpty(state) ? state : restore(state, state.stash);
}
