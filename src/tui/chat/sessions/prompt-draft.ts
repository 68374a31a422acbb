/**
 * A sent prompt back in the composer (Esc-Esc backtrack, an interrupt's restore): a large paste was
 * sent expanded, with a text element that keeps its `[Pasted Content N chars]` label, so it comes
 * back as that atomic label with the paste as its payload; local images come back as attachments
 * when their file is still there. Pure but for the injected file probe.
 */
import type { V2UserInput } from '../../../protocol/api.js';
import type { TextElement } from '../../../protocol/user-input.js';
import { byteLength, sliceBytes } from '../../../protocol/utf8.js';
import type { PendingPaste } from '../../composer/history.js';
import { attachmentLabel } from '../../composer/state.js';
import type { Attachment, MentionBinding, Submission } from '../../composer/types.js';
import { joinedText, mediaOf } from './transcript-restore.js';

export interface DraftWithPastes {
  draft: Submission;
  pendingPastes: PendingPaste[];
}

/**
 * Every element whose label differs from the text it covers (an expanded paste) becomes that label
 * again, its text the payload; other elements move with the text.
 */
export function collapsePastes(sub: Submission): DraftWithPastes {
  const sorted = [...sub.textElements].sort((a, b) => a.byte_range.start - b.byte_range.start);
  let text = '';
  let cursor = 0;
  const textElements: TextElement[] = [];
  const pendingPastes: PendingPaste[] = [];
  for (const el of sorted) {
    const { start, end } = el.byte_range;
    const before = sliceBytes(sub.text, cursor, start);
    const covered = sliceBytes(sub.text, start, end);
    if (before === null || covered === null) continue;
    text += before;
    const label = el.placeholder ?? covered;
    const at = byteLength(text);
    if (label !== covered) pendingPastes.push({ placeholder: label, text: covered });
    textElements.push({ byte_range: { start: at, end: at + byteLength(label) }, placeholder: label });
    text += label;
    cursor = end;
  }
  text += sliceBytes(sub.text, cursor, byteLength(sub.text)) ?? '';
  return { draft: { ...sub, text, textElements }, pendingPastes };
}

export type AttachmentProbe = (path: string) => Omit<Attachment, 'placeholder'> | null;

export interface RestoredPrompt extends DraftWithPastes {
  /** Media that cannot come back (a file gone since, an image sent by URL), for a warning. */
  missing: string[];
}

/**
 * A recorded prompt (its userMessage content) as a draft: text and elements, pastes collapsed,
 * local images and audio re-attached (`probe` reads them again), skills bound to their `$name`.
 * A medium that cannot come back loses its label from the text and is listed in `missing`.
 */
export function promptDraft(content: readonly V2UserInput[], probe: AttachmentProbe): RestoredPrompt {
  const joined = joinedText(content);
  const counts = { image: 0, audio: 0 };
  const attachments: Attachment[] = [];
  const dropLabels = new Set<string>();
  const missing: string[] = [];
  const mentions: MentionBinding[] = [];
  for (const input of content) {
    if (input.type === 'skill') mentions.push({ name: input.name, path: input.path });
    const media = mediaOf(input);
    if (media === null) continue;
    const placeholder = attachmentLabel(media.kind, ++counts[media.kind]);
    const found = media.path !== null ? probe(media.path) : null;
    if (found !== null && found.kind === media.kind) attachments.push({ ...found, placeholder });
    else {
      dropLabels.add(placeholder);
      missing.push(media.path ?? `${placeholder} (sent by URL)`);
    }
  }
  const withoutMissing = dropElements(joined.text, joined.textElements, dropLabels);
  const sub: Submission = { text: withoutMissing.text, textElements: withoutMissing.textElements, attachments };
  if (mentions.length > 0) sub.mentions = mentions;
  return { ...collapsePastes(sub), missing };
}

/** Removes the elements showing one of `labels`, and their text. */
function dropElements(
  text: string,
  elements: readonly TextElement[],
  labels: ReadonlySet<string>,
): { text: string; textElements: TextElement[] } {
  if (labels.size === 0) return { text, textElements: [...elements] };
  let out = '';
  let cursor = 0;
  const kept: TextElement[] = [];
  for (const el of [...elements].sort((a, b) => a.byte_range.start - b.byte_range.start)) {
    const before = sliceBytes(text, cursor, el.byte_range.start);
    const covered = sliceBytes(text, el.byte_range.start, el.byte_range.end);
    if (before === null || covered === null) continue;
    out += before;
    cursor = el.byte_range.end;
    if (labels.has(el.placeholder ?? covered)) continue;
    const at = byteLength(out);
    kept.push({ ...el, byte_range: { start: at, end: at + byteLength(covered) } });
    out += covered;
  }
  out += sliceBytes(text, cursor, byteLength(text)) ?? '';
  return { text: out, textElements: kept };
}
