/**
 * Paste handling (docs/codex-parity.md#large-pastes, #images-in-the-composer): large pastes become
 * `[Pasted Content N chars]` placeholders expanded at submit; a pasted path to an image or audio file
 * attaches it as `[Image #N]`/`[Audio #N]`.
 */
import { countChars } from '../../protocol/limits.js';
import { attachmentLabel, commitTextArea, type ComposerState } from './state.js';
import { insertElement, insertText, replaceRange } from './textarea.js';
import type { Attachment } from './types.js';

/** Pastes longer than this many characters become a placeholder (exactly 1000 is inserted as is). */
export const LARGE_PASTE_CHAR_THRESHOLD = 1000;

export function normalizeNewlines(text: string): string {
  return text.replace(/\r\n/g, '\n').replace(/\r/g, '\n');
}

/**
 * The label for a new large paste of `chars` characters: the base label when no pending paste of that
 * size exists, else ` #k` after it with k one above the highest suffix in use (the base counts as #1).
 */
export function nextLargePastePlaceholder(pending: readonly { placeholder: string }[], chars: number): string {
  const base = `[Pasted Content ${chars} chars]`;
  let max = 0;
  for (const p of pending) {
    if (p.placeholder === base) max = Math.max(max, 1);
    else if (p.placeholder.startsWith(`${base} #`)) {
      const n = Number(p.placeholder.slice(base.length + 2));
      if (Number.isInteger(n) && n > 0) max = Math.max(max, n);
    }
  }
  return max === 0 ? base : `${base} #${max + 1}`;
}

/** Inserts an attachment's label at the caret as an element, followed by a space. */
export function attach(state: ComposerState, att: Omit<Attachment, 'placeholder'>): ComposerState {
  const n = state.attachments.filter((a) => a.kind === att.kind).length + 1;
  const placeholder = attachmentLabel(att.kind, n);
  const { ta, id } = insertElement(state.ta, placeholder, att.kind);
  return {
    ...state,
    ta: insertText(ta, ' '),
    attachments: [...state.attachments, { ...att, placeholder, elementId: id }],
  };
}

/**
 * More text for the pending paste labelled `placeholder` whose element ends at the caret: it takes the
 * label of its new size (null when there is no such placeholder there).
 */
export function extendPaste(state: ComposerState, placeholder: string, more: string): ComposerState | null {
  const { ta } = state;
  const el = ta.elements.find((e) => e.kind === 'paste' && e.end === ta.cursor && ta.text.slice(e.start, e.end) === placeholder);
  const index = state.pendingPastes.findIndex((p) => p.placeholder === placeholder);
  if (el === undefined || index < 0) return null;
  const text = state.pendingPastes[index]!.text + normalizeNewlines(more);
  const others = state.pendingPastes.filter((_, i) => i !== index);
  const label = nextLargePastePlaceholder(others, countChars(text));
  const relabelled = insertElement(replaceRange(ta, el.start, el.end, ''), label, 'paste').ta;
  const pendingPastes = [...others];
  pendingPastes.splice(index, 0, { placeholder: label, text });
  return { ...state, ta: relabelled, pendingPastes };
}

/**
 * A paste's text into the composer (explicit paste or a flushed burst). The caller resets the
 * paste-burst detector for an explicit paste.
 */
export function insertPaste(state: ComposerState, pasted: string): ComposerState {
  const text = normalizeNewlines(pasted);
  const chars = countChars(text);
  if (chars > LARGE_PASTE_CHAR_THRESHOLD) {
    const placeholder = nextLargePastePlaceholder(state.pendingPastes, chars);
    const { ta } = insertElement(state.ta, placeholder, 'paste');
    return { ...state, ta, pendingPastes: [...state.pendingPastes, { placeholder, text }] };
  }
  if (chars > 1) {
    const media = state.probeMedia(text);
    if (media !== null) return attach(state, media);
  }
  return commitTextArea(state, insertText(state.ta, text));
}
