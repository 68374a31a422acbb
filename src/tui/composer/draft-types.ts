/**
 * The draft as data (the text area aside): attachments and mentions bound to the elements that show
 * them, expanded pastes, elements inside cut text, a snapshot of the whole draft and its undo history.
 * Types only, below every module that works on them (undo.ts, paste-chips.ts, kill-ring.ts, vim/),
 * so the composer's modules never import one another in a circle.
 */
import type { PendingPaste } from './history.js';
import type { ElementKind, TextAreaElement } from './textarea.js';
import type { Attachment, MentionBinding } from './types.js';

/** An attachment bound to the element that shows its label. */
export interface ComposerAttachment extends Attachment {
  readonly elementId: number;
}

export interface ComposerMention extends MentionBinding {
  readonly elementId: number;
}

/** A placeholder expanded with Ctrl+X: where its text is now (string indices) and what collapses it back. */
export interface PasteExpansion {
  readonly start: number;
  readonly end: number;
  readonly placeholder: string;
  readonly text: string;
  /** Its place in `pendingPastes` before it was expanded, so a round trip gives back the same list. */
  readonly index: number;
}

/** An element inside killed text, at offsets into the entry's text, with what it stood for. */
export interface KilledElement {
  start: number;
  end: number;
  kind: ElementKind;
  /** A large paste's payload. */
  paste?: string;
  /** An attachment (its label is renumbered on yank). */
  attachment?: Omit<Attachment, 'placeholder'>;
  /** A skill mention's binding. */
  mention?: MentionBinding;
}

/** The whole draft at one moment. Shares the (immutable) arrays of the state it was taken from. */
export interface DraftSnapshot {
  readonly text: string;
  readonly cursor: number;
  readonly elements: readonly TextAreaElement[];
  readonly bashMode: boolean;
  readonly pendingPastes: readonly PendingPaste[];
  readonly attachments: readonly ComposerAttachment[];
  readonly mentions: readonly ComposerMention[];
  /** Pastes expanded with Ctrl+X, so undoing a collapse gives back text that collapses again. */
  readonly pasteExpansions?: readonly PasteExpansion[];
}

export type ChangeKind =
  /** Typed characters (coalesce into runs). */
  | 'type'
  /** A paste burst began by taking back characters already typed: the burst's `paste` joins it. */
  | 'burst'
  /** Backspace/Delete of one character or element (coalesce into runs). */
  | 'delete'
  /** An explicit paste or a flushed paste burst. */
  | 'paste'
  /** A placeholder expanded in place. */
  | 'expand'
  /** An image/audio attachment added. */
  | 'attach'
  /** A popup completion (`/command`, `@file`, `$skill`). */
  | 'completion'
  /** Ctrl+K / Ctrl+U / Ctrl+W / Alt+D / Alt+Backspace. */
  | 'kill'
  /** Ctrl+Y / Alt+Y. */
  | 'yank'
  /** History browsing and Ctrl+R previews (one run per browse). */
  | 'recall'
  /** A caller-defined group, open until `sealRun` (Vim Insert sessions). */
  | 'group'
  /** Anything else: one step. */
  | 'edit';

/** The run the next change may join. */
export interface OpenRun {
  readonly kind: ChangeKind;
  /** Time of the run's last change. */
  readonly at: number;
  /** Text and caret after the run's last change: a change joins only if it starts from there. */
  readonly text: string;
  readonly cursor: number;
}

export interface UndoHistory {
  /** Drafts before each step, oldest first; `undo` goes back to the last one. */
  readonly past: readonly DraftSnapshot[];
  /** Drafts undone, the next redo last. */
  readonly future: readonly DraftSnapshot[];
  readonly run: OpenRun | null;
}
