/**
 * The composer's state (its shape is in state-types.ts) and the bookkeeping every edit needs: when an
 * edit removes an element, its pending paste, attachment or mention goes with it, and images/audio are
 * relabelled so their numbers stay contiguous.
 *
 * The state is plain data: every function returns a new state and never changes the one it was given,
 * so a state the caller holds never changes under it.
 */
import type { ComposerState } from './state-types.js';
import { historyEntryFromText, initialHistory } from './history.js';
import { initialPasteBurst } from './paste-burst.js';
import { emptyTextArea, replaceElementText, type TextArea } from './textarea.js';
import type { Attachment, MediaProbe, SkillInfo } from './types.js';
import { initialVimState } from './vim/state.js';
import { EMPTY_UNDO } from './undo.js';

export type { ComposerAttachment, ComposerMention } from './draft-types.js';
export type { PendingPaste } from './history.js';
export type { ComposerHistoryEntry, ComposerState } from './state-types.js';

export interface ComposerOptions {
  vimEnabled: boolean;
  /** `vim_escape_sequence` (`jj`, `jk`): typed quickly in Insert mode, it acts as Esc. */
  vimEscapeSequence?: string | null;
  probeMedia: MediaProbe;
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
    history: initialHistory({ fromText: historyEntryFromText }),
    pendingPastes: [],
    pasteExpansions: [],
    attachments: [],
    mentions: [],
    burst: initialPasteBurst(platform === undefined ? {} : { platform }),
    provisional: null,
    burstPaste: null,
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
