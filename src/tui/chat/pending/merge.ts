/**
 * Joining several messages into one draft (docs/codex-parity.md#interrupts-in-the-client): the interrupt restore and the merged
 * resubmission of pending steers. Texts are newline-joined, element byte ranges rebased, and image
 * and audio placeholders renumbered so the result reads `[Image #1]..[Image #N]` in order.
 */
import { shiftTextElements } from '../../../protocol/text-element.js';
import { byteLength, sliceBytes } from '../../../protocol/utf8.js';
import type { TextElement } from '../../../protocol/user-input.js';
import { attachmentLabel } from '../../composer/state.js';
import type { Attachment, MentionBinding, Submission } from '../../composer/types.js';

export function isEmptySubmission(s: Submission): boolean {
  return s.text === '' && s.attachments.length === 0;
}

interface Counters {
  image: number;
  audio: number;
}

/**
 * Relabels the attachments of `s` starting after `counters` and rewrites their placeholders in the
 * text in place, moving later element ranges by the length change.
 */
function relabel(s: Submission, counters: Counters): Submission {
  const renames = new Map<string, string>();
  const attachments = s.attachments.map((a) => {
    counters[a.kind] += 1;
    const label = attachmentLabel(a.kind, counters[a.kind]);
    renames.set(a.placeholder, label);
    return { ...a, placeholder: label };
  });
  const sorted = [...s.textElements].sort((x, y) => x.byte_range.start - y.byte_range.start);
  let text = '';
  let cursor = 0;
  const elements: TextElement[] = [];
  for (const el of sorted) {
    const { start, end } = el.byte_range;
    const before = sliceBytes(s.text, cursor, start);
    const shown = sliceBytes(s.text, start, end);
    // An element that does not sit on the text (never produced by the composer) is dropped.
    if (before === null || shown === null || start < cursor) continue;
    text += before;
    const renamed = renames.get(shown);
    const out = renamed ?? shown;
    const at = byteLength(text);
    elements.push({
      ...el,
      byte_range: { start: at, end: at + byteLength(out) },
      ...(renamed !== undefined ? { placeholder: renamed } : {}),
    });
    text += out;
    cursor = end;
  }
  text += sliceBytes(s.text, cursor, byteLength(s.text)) ?? '';
  // Attachments sent without their placeholder in the text (image-only) get one in front, so the
  // merged draft shows every attachment it carries.
  const shownLabels = new Set(elements.map((el) => el.placeholder));
  const missing = attachments.filter((a) => !shownLabels.has(a.placeholder));
  if (missing.length === 0) return { ...s, text, textElements: elements, attachments };
  let prefix = '';
  const prefixElements: TextElement[] = [];
  for (const a of missing) {
    const at = byteLength(prefix);
    prefixElements.push({ byte_range: { start: at, end: at + byteLength(a.placeholder) }, placeholder: a.placeholder });
    prefix += `${a.placeholder} `;
  }
  if (text === '') prefix = prefix.trimEnd();
  const shift = byteLength(prefix);
  return { ...s, text: prefix + text, textElements: [...prefixElements, ...shiftTextElements(elements, shift)], attachments };
}

/** One draft from many: empty messages skipped, newline-joined, renumbered. */
export function mergeSubmissions(parts: readonly Submission[]): Submission {
  const counters: Counters = { image: 0, audio: 0 };
  let text = '';
  const textElements: TextElement[] = [];
  const attachments: Attachment[] = [];
  const mentions: MentionBinding[] = [];
  for (const part of parts) {
    if (isEmptySubmission(part)) continue;
    const r = relabel(part, counters);
    if (text !== '' || attachments.length > 0) text += '\n';
    textElements.push(...shiftTextElements(r.textElements, byteLength(text)));
    text += r.text;
    attachments.push(...r.attachments);
    mentions.push(...(part.mentions ?? []));
  }
  return mentions.length > 0 ? { text, textElements, attachments, mentions } : { text, textElements, attachments };
}
