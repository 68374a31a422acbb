/**
 * Ctrl+G: the draft goes to the user's editor and comes back (docs/codex-parity.md#external-editor). The editor gets the
 * text Enter would send, large pastes expanded; what comes back replaces the draft: only attachments
 * whose `[Image #N]` label is still in the text stay (one per occurrence), they are renumbered in
 * order, the caret goes to the end, and a leading `!` is shell mode.
 */
import type { TextElement } from '../../protocol/user-input.js';
import { byteLength } from '../../protocol/utf8.js';
import { loadDraft } from './draft.js';
import type { ComposerState } from './state.js';
import { expandPendingPastes } from './submission.js';
import type { Attachment, MentionBinding } from './types.js';

export function externalEditorText(state: ComposerState): string {
  return expandPendingPastes(state).text;
}

export function applyExternalEdit(state: ComposerState, edited: string): ComposerState {
  // Editors end the file with a newline the user did not mean to send.
  const text = edited.replace(/\r\n?/g, '\n').replace(/\n+$/, '');
  const taken: Array<{ start: number; end: number }> = [];
  const find = (label: string): number | null => {
    for (let from = 0; ; ) {
      const at = text.indexOf(label, from);
      if (at < 0) return null;
      if (!taken.some((t) => at < t.end && t.start < at + label.length)) return at;
      from = at + 1;
    }
  };
  const found: Array<{ start: number; end: number; attachment?: Attachment; mention?: MentionBinding }> = [];
  for (const { elementId: _, ...attachment } of state.attachments) {
    const at = find(attachment.placeholder);
    if (at === null) continue;
    taken.push({ start: at, end: at + attachment.placeholder.length });
    found.push({ ...taken.at(-1)!, attachment });
  }
  for (const { elementId: _, ...mention } of state.mentions) {
    const at = find(`$${mention.name}`);
    if (at === null) continue;
    taken.push({ start: at, end: at + mention.name.length + 1 });
    found.push({ ...taken.at(-1)!, mention });
  }
  found.sort((a, b) => a.start - b.start);
  const textElements: TextElement[] = found.map(({ start, end }) => ({
    byte_range: { start: byteLength(text.slice(0, start)), end: byteLength(text.slice(0, end)) },
  }));
  return loadDraft(state, {
    text,
    textElements,
    attachments: found.flatMap((f) => (f.attachment === undefined ? [] : [f.attachment])),
    mentions: found.flatMap((f) => (f.mention === undefined ? [] : [f.mention])),
    pendingPastes: [],
  });
}
