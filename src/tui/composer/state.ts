/**
 * The composer's state (docs/codex-parity.md#composer-state) and the bookkeeping every edit needs: when an edit removes an
 * element, its pending paste, attachment or mention goes with it, and images/audio are relabelled so
 * their numbers stay contiguous.
 *
 * Ownership: the paste-burst detector and the history are mutable objects carried in the state. The
 * reducer returns a new state object on every event and may update those objects in place, so a
 * caller must use the returned state and never dispatch twice from the same old state.
 */
import { ChatComposerHistory, historyEntryFromText, type HistoryEntry, type PendingPaste } from './history.js';
import { PasteBurst } from './paste-burst.js';
import { emptyTextArea, replaceElementText, type TextArea } from './textarea.js';
import type { Attachment, MediaProbe, MentionBinding, SkillInfo } from './types.js';
import { initialVimState, type VimState } from './vim.js';
import type { Popup } from './popup.js';
import { EMPTY_UNDO, type UndoHistory } from './undo.js';
import type { KillRing } from './kill-ring.js';
import type { Stash } from './stash.js';
import type { PasteExpansion } from './paste-chips.js';

export type { PendingPaste } from './history.js';

/** An attachment bound to the element that shows its label. */
export interface ComposerAttachment extends Attachment {
  elementId: number;
}

export interface ComposerMention extends MentionBinding {
  elementId: number;
}

/** A history entry as the composer records it: mentions keep their skill bindings. */
export interface ComposerHistoryEntry extends HistoryEntry {
  mentions?: MentionBinding[];
}

export interface ComposerState {
  ta: TextArea;
  /** `!` shell mode: the `!` is not in the textarea but is part of the submitted text. */
  bashMode: boolean;
  vimEnabled: boolean;
  vim: VimState;
  popup: Popup | null;
  /** The `@`/`$` token the user closed with Esc; it does not reopen the popup until it changes. */
  dismissedToken: string | null;
  history: ChatComposerHistory<ComposerHistoryEntry>;
  pendingPastes: PendingPaste[];
  /** Placeholders expanded with Ctrl+X whose text is unchanged, so Ctrl+X collapses them back (paste-chips.ts). */
  pasteExpansions: readonly PasteExpansion[];
  attachments: ComposerAttachment[];
  mentions: ComposerMention[];
  burst: PasteBurst;
  disablePasteBurst: boolean;
  taskRunning: boolean;
  probeMedia: MediaProbe;
  skills: readonly SkillInfo[];
  showShortcuts: boolean;
  /** Cells the text wraps at on screen (`setWidth`); null until known: Up/Down then move by logical line. */
  width: number | null;
  /** Undo/redo of the draft (undo.ts); cleared on submit. */
  undo: UndoHistory;
  /** Ctrl+K/U/W, Alt+D… cut into it, Ctrl+Y/Alt+Y yank from it (kill-ring.ts); kept across submits. */
  killRing: KillRing;
  /** The draft put aside with Ctrl+S (stash.ts). */
  stash: Stash | null;
}

export interface ComposerOptions {
  vimEnabled: boolean;
  /** `vim_escape_sequence` (`jj`, `jk`): typed quickly in Insert mode, it acts as Esc. */
  vimEscapeSequence?: string | null;
  probeMedia: MediaProbe;
  history?: ChatComposerHistory<ComposerHistoryEntry>;
  skills?: readonly SkillInfo[];
  disablePasteBurst?: boolean;
  platform?: NodeJS.Platform;
}

export function initialComposerState(opts: ComposerOptions): ComposerState {
  const platform = opts.platform;
  return {
    ta: emptyTextArea(),
    bashMode: false,
    vimEnabled: opts.vimEnabled,
    vim: initialVimState(opts.vimEnabled, opts.vimEscapeSequence ?? null),
    popup: null,
    dismissedToken: null,
    history: opts.history ?? new ChatComposerHistory<ComposerHistoryEntry>({ fromText: historyEntryFromText }),
    pendingPastes: [],
    pasteExpansions: [],
    attachments: [],
    mentions: [],
    burst: new PasteBurst(platform === undefined ? {} : { platform }),
    disablePasteBurst: opts.disablePasteBurst ?? false,
    taskRunning: false,
    probeMedia: opts.probeMedia,
    skills: opts.skills ?? [],
    showShortcuts: false,
    width: null,
    undo: EMPTY_UNDO,
    killRing: { entries: [], appending: false, yank: null },
    stash: null,
  };
}

export function attachmentLabel(kind: Attachment['kind'], n: number): string {
  return kind === 'image' ? `[Image #${n}]` : `[Audio #${n}]`;
}

/** Relabels images and audio (each its own sequence, in attachment order) and rewrites their text in place. */
export function relabelAttachments(state: ComposerState): ComposerState {
  let ta = state.ta;
  const counters = { image: 0, audio: 0 };
  const attachments = state.attachments.map((a) => {
    counters[a.kind] += 1;
    const label = attachmentLabel(a.kind, counters[a.kind]);
    if (label === a.placeholder) return a;
    ta = replaceElementText(ta, a.elementId, label);
    return { ...a, placeholder: label };
  });
  return { ...state, ta, attachments };
}

/**
 * Applies a textarea change and drops what belonged to removed elements: one pending paste per
 * removed paste element (matched by label), the attachment or mention bound to the element id.
 */
export function commitTextArea(state: ComposerState, next: TextArea): ComposerState {
  const prev = state.ta;
  if (next === prev) return state;
  if (next.elements === prev.elements || prev.elements.length === 0) return { ...state, ta: next };
  const kept = new Set(next.elements.map((e) => e.id));
  const removed = prev.elements.filter((e) => !kept.has(e.id));
  if (removed.length === 0) return { ...state, ta: next };
  let pendingPastes = state.pendingPastes;
  for (const el of removed) {
    if (el.kind !== 'paste') continue;
    const label = prev.text.slice(el.start, el.end);
    const i = pendingPastes.findIndex((p) => p.placeholder === label);
    if (i >= 0) pendingPastes = [...pendingPastes.slice(0, i), ...pendingPastes.slice(i + 1)];
  }
  const gone = new Set(removed.map((e) => e.id));
  const attachments = state.attachments.filter((a) => !gone.has(a.elementId));
  const mentions = state.mentions.filter((m) => !gone.has(m.elementId));
  const out = { ...state, ta: next, pendingPastes, attachments, mentions };
  return attachments.length === state.attachments.length ? out : relabelAttachments(out);
}

/** The text as submitted: shell mode puts the `!` back in front. */
export function canonicalText(state: ComposerState): string {
  return state.bashMode ? `!${state.ta.text}` : state.ta.text;
}
