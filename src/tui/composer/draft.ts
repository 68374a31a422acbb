/**
 * Whole-draft operations: the draft as a history entry, loading one back (history, Ctrl+R, restore
 * after an interrupt), clearing after a submit, and the state questions the app asks.
 */
import { byteOffsetToIndex } from '../../protocol/utf8.js';
import type { TextElement } from '../../protocol/user-input.js';
import { isSearching, resetNavigation, type PendingPaste } from './history.js';
import { isBurstActive } from './paste-burst.js';
import { isKnownCommand } from './slash-commands.js';
import {
  canonicalText,
  relabelAttachments,
  type ComposerAttachment,
  type ComposerHistoryEntry,
  type ComposerMention,
  type ComposerState,
} from './state.js';
import { toByteElements } from './submission.js';
import { markElement, setContent, unmarkElement, type ElementKind, type ElementSpec } from './textarea.js';
import type { Attachment, MentionBinding } from './types.js';
import { clampNormal } from './vim.js';

export function isEmpty(state: ComposerState): boolean {
  return state.ta.text === '' && state.attachments.length === 0 && !state.bashMode;
}

/** A burst is buffering or a first character is held back. */
export function isInPasteBurst(state: ComposerState): boolean {
  return isBurstActive(state.burst);
}

/** Ctrl+R reverse search is open. */
export function isHistorySearching(state: ComposerState): boolean {
  return isSearching(state.history);
}

/** Empties the draft (the kill buffer and Vim mode stay). */
export function clearDraft(state: ComposerState): ComposerState {
  const vim = state.vim;
  const selecting = vim.mode === 'visual' || vim.mode === 'visual-line';
  return {
    ...state,
    // Nothing is left to select or operate on: a selection or half-typed command ends with the text.
    vim: selecting || vim.pending !== null ? { ...vim, mode: selecting ? 'normal' : vim.mode, anchor: null, pending: null } : vim,
    ta: setContent(state.ta, ''),
    bashMode: false,
    pendingPastes: [],
    attachments: [],
    mentions: [],
    popup: null,
    dismissedToken: null,
    showShortcuts: false,
  };
}

function stripIds<T extends { elementId: number }>(items: readonly T[]): Omit<T, 'elementId'>[] {
  return items.map(({ elementId: _, ...rest }) => rest);
}

/** The draft as it stands (labels, not expanded pastes), for Ctrl+C history and Ctrl+R restore. */
export function currentHistoryEntry(state: ComposerState): ComposerHistoryEntry {
  const prefix = state.bashMode ? '!' : '';
  const text = canonicalText(state);
  const elements = state.ta.elements.map((e) => ({ start: e.start + prefix.length, end: e.end + prefix.length }));
  const entry: ComposerHistoryEntry = {
    text,
    textElements: toByteElements(text, elements),
    attachments: stripIds(state.attachments),
    pendingPastes: [...state.pendingPastes],
  };
  if (state.mentions.length > 0) entry.mentions = stripIds(state.mentions);
  return entry;
}

export interface DraftToLoad {
  text: string;
  textElements: readonly TextElement[];
  attachments: readonly Attachment[];
  pendingPastes?: readonly PendingPaste[];
  mentions?: readonly MentionBinding[];
}

/**
 * Replaces the composer content with a draft. Elements get their kind back from what they show: an
 * attachment's label, a pending paste's label, a mention, a leading `/command`. Attachments whose
 * label is not in the text (an image-only message) get their label appended. A leading `!` is shell mode.
 */
export function loadDraft(state0: ComposerState, draft: DraftToLoad, opts: { keepBrowsing?: boolean } = {}): ComposerState {
  const state = opts.keepBrowsing === true ? state0 : { ...state0, history: resetNavigation(state0.history) };
  let text = draft.text;
  let byteShift = 0;
  const bashMode = text.startsWith('!');
  if (bashMode) {
    text = text.slice(1);
    byteShift = 1;
  }
  const pending = draft.pendingPastes ?? [];
  const mentionsIn = draft.mentions ?? [];
  const freeAttachments = [...draft.attachments];
  const freeMentions = [...mentionsIn];
  const specs: (ElementSpec & { attachment?: Attachment; mention?: MentionBinding })[] = [];
  for (const el of draft.textElements) {
    const start = byteOffsetToIndex(text, el.byte_range.start - byteShift);
    const end = byteOffsetToIndex(text, el.byte_range.end - byteShift);
    if (start === null || end === null || start >= end) continue;
    const label = text.slice(start, end);
    const ai = freeAttachments.findIndex((a) => a.placeholder === label);
    if (ai >= 0) {
      const attachment = freeAttachments.splice(ai, 1)[0]!;
      specs.push({ start, end, kind: attachment.kind, attachment });
      continue;
    }
    const mi = freeMentions.findIndex((m) => `$${m.name}` === label);
    if (mi >= 0) {
      specs.push({ start, end, kind: 'mention', mention: freeMentions.splice(mi, 1)[0]! });
      continue;
    }
    specs.push({ start, end, kind: otherElementKind(label, start, pending) });
  }
  for (const a of freeAttachments) {
    const sep = text === '' || /\s$/u.test(text) ? '' : ' ';
    const start = text.length + sep.length;
    text = `${text}${sep}${a.placeholder} `;
    specs.push({ start, end: start + a.placeholder.length, kind: a.kind, attachment: a });
  }
  const ta = setContent(state.ta, text, specs);
  const attachments: ComposerAttachment[] = [];
  const mentions: ComposerMention[] = [];
  const labels = new Set<string>();
  ta.elements.forEach((el) => {
    const spec = specs.find((sp) => sp.start === el.start && sp.end === el.end);
    labels.add(text.slice(el.start, el.end));
    if (spec?.attachment !== undefined) attachments.push({ ...spec.attachment, elementId: el.id });
    if (spec?.mention !== undefined) mentions.push({ ...spec.mention, elementId: el.id });
  });
  const vimTa = state.vimEnabled && state.vim.mode === 'normal' ? clampNormal(ta) : ta;
  const next: ComposerState = {
    ...state,
    ta: vimTa,
    bashMode,
    pendingPastes: pending.filter((p) => labels.has(p.placeholder)),
    attachments,
    mentions,
    popup: null,
  };
  return relabelAttachments(next);
}

/** The kind of a restored element that is neither an attachment nor a bound mention. */
function otherElementKind(label: string, start: number, pending: readonly PendingPaste[]): ElementKind {
  if (pending.some((p) => p.placeholder === label)) return 'paste';
  if (start === 0 && label.startsWith('/') && isKnownCommand(label.slice(1))) return 'slash';
  if (label.startsWith('$')) return 'mention';
  // Anything else (e.g. a label from another client) stays atomic; with no payload it is submitted as shown.
  return 'paste';
}

/**
 * A known `/command` followed by whitespace at the very start becomes one atomic element; a slash
 * element anywhere else (or no longer a known command) goes back to plain text.
 */
export function syncSlashElement(state: ComposerState): ComposerState {
  let ta = state.ta;
  for (const el of ta.elements) {
    if (el.kind !== 'slash') continue;
    const label = ta.text.slice(el.start, el.end);
    if (state.bashMode || el.start !== 0 || !isKnownCommand(label.slice(1))) ta = unmarkElement(ta, el.id);
  }
  // The look at the first character first: a regex over a megabyte draft on every key is not free.
  if (!state.bashMode && ta.text.startsWith('/')) {
    const m = /^\/([^\s/]+)\s/u.exec(ta.text);
    if (m !== null && isKnownCommand(m[1]!) && !ta.elements.some((e) => e.start === 0)) {
      ta = markElement(ta, 0, m[1]!.length + 1, 'slash');
    }
  }
  return ta === state.ta ? state : { ...state, ta };
}
