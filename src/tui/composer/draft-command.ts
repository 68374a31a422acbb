/**
 * A command that acts on the draft (/inspect) takes out only its own `/name`: the draft around it
 * stays, placeholders with their payloads and attachments with their numbers. When an earlier step
 * of the undo history left the draft just so (before the `/` was typed), that moment comes back
 * whole: caret, element ids and the undo history as it was then.
 */
import { commitTextArea, type ComposerState } from './state.js';
import { replaceRange, setCursor, unmarkElement } from './textarea.js';
import { applySnapshot, recordChange, sameDraft, snapshotDraft } from './undo.js';

export function withoutCommandToken(state: ComposerState, start: number, end: number, now: number): ComposerState {
  let ta = state.ta;
  // A completed `/command ` is one element with the blank after it: only the name goes.
  for (const el of ta.elements) if (el.kind === 'slash' && el.start < end && start < el.end) ta = unmarkElement(ta, el.id);
  const cursor = state.ta.cursor >= end ? state.ta.cursor - (end - start) : Math.min(state.ta.cursor, start);
  const removed = { ...commitTextArea(state, setCursor(replaceRange(ta, start, end, ''), cursor)), popup: null };
  const after = snapshotDraft(removed);
  const past = removed.undo.past;
  for (let i = past.length - 1; i >= 0; i--) {
    if (sameDraft(past[i]!, after)) return { ...applySnapshot(removed, past[i]!), undo: { past: past.slice(0, i), future: [], run: null } };
  }
  return { ...removed, undo: recordChange(removed.undo, snapshotDraft(state), after, 'edit', now) };
}
