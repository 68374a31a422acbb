/**
 * The composer's draft as a Submission, with large pastes expanded: restoring a draft goes through
 * `restoreDraft`, which carries no paste payloads, so the full text must travel in the draft itself.
 */
import type { ComposerState } from '../composer/state.js';
import { expandPendingPastes, toByteElements } from '../composer/submission.js';
import type { Submission } from '../composer/types.js';

export function draftOf(state: ComposerState): Submission {
  const expanded = expandPendingPastes(state);
  const attachments = state.attachments.map(({ elementId: _, ...a }) => a);
  const mentions = state.mentions.map(({ elementId: _, ...m }) => m);
  const draft: Submission = { text: expanded.text, textElements: toByteElements(expanded.text, expanded.elements), attachments };
  return mentions.length > 0 ? { ...draft, mentions } : draft;
}
