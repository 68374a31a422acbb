/**
 * `tiller PROMPT` (with `-i` images): the first message, sent once the thread is up. Images with no
 * prompt go into the composer at once (`attachNow`), as if pasted.
 */
import { attachmentLabel } from '../../composer/state.js';
import type { Attachment, Submission } from '../../composer/types.js';
import type { InitialInput } from '../controller-options.js';

export function initialSubmission(initial: InitialInput | undefined): {
  submission: Submission | null;
  attachNow: ReadonlyArray<Omit<Attachment, 'placeholder'>>;
} {
  if (initial === undefined) return { submission: null, attachNow: [] };
  if (initial.text.trim() === '') return { submission: null, attachNow: initial.attachments };
  const counts = { image: 0, audio: 0 };
  const attachments = initial.attachments.map((a) => ({ ...a, placeholder: attachmentLabel(a.kind, ++counts[a.kind]) }));
  return { submission: { text: initial.text, textElements: [], attachments }, attachNow: [] };
}
