/**
 * The composer's state as data (docs/codex-parity.md#composer-state): every field a readonly value that
 * the reducer replaces, never updates in place. Types only, below every module that works on the
 * state, so none of them imports another in a circle; state.ts re-exports ComposerState.
 */
import type { ComposerAttachment, ComposerMention, DraftSnapshot, KilledElement, PasteExpansion, UndoHistory } from './draft-types.js';
import type { TokenAtCursor } from './file-search.js';
import type { ComposerHistory, HistoryEntry, PendingPaste } from './history.js';
import type { PasteBurst } from './paste-burst.js';
import type { TextArea } from './textarea.js';
import type { MediaProbe, MentionBinding, SkillInfo } from './types.js';
import type { VimState } from './vim/state.js';

/** A history entry as the composer records it: mentions keep their skill bindings. */
export interface ComposerHistoryEntry extends HistoryEntry {
  mentions?: MentionBinding[];
}

export interface ComposerState {
  readonly ta: TextArea;
  /** `!` shell mode: the `!` is not in the textarea but is part of the submitted text. */
  readonly bashMode: boolean;
  readonly vimEnabled: boolean;
  readonly vim: VimState;
  readonly popup: Popup | null;
  /** The `@`/`$` token the user closed with Esc; it does not reopen the popup until it changes. */
  readonly dismissedToken: string | null;
  readonly history: ComposerHistory<ComposerHistoryEntry>;
  readonly pendingPastes: readonly PendingPaste[];
  /** Placeholders expanded with Ctrl+X whose text is unchanged, so Ctrl+X collapses them back (paste-chips.ts). */
  readonly pasteExpansions: readonly PasteExpansion[];
  readonly attachments: readonly ComposerAttachment[];
  readonly mentions: readonly ComposerMention[];
  /** The paste-burst detector (paste-burst.ts). */
  readonly burst: PasteBurst;
  /**
   * The detector holds the last typed character to see whether a paste follows, but the screen shows
   * it at once: this is the draft before it was typed (`ta` and `bashMode`) and the textarea it made,
   * so a paste that turns out to begin with it takes it back out (input.ts).
   */
  readonly provisional: { readonly before: TextArea; readonly bashMode: boolean; readonly after: TextArea } | null;
  /**
   * The last burst that went in as a placeholder: the textarea it left and when its last character
   * came. A burst that begins soon after, with the draft still as it left it, is more of the same
   * paste (input.ts).
   */
  readonly burstPaste: { readonly ta: TextArea; readonly placeholder: string; readonly endedAt: number } | null;
  readonly disablePasteBurst: boolean;
  readonly taskRunning: boolean;
  readonly probeMedia: MediaProbe;
  readonly skills: readonly SkillInfo[];
  readonly showShortcuts: boolean;
  /** Cells the text wraps at on screen (`setWidth`); null until known: Up/Down then move by logical line. */
  readonly width: number | null;
  /** Undo/redo of the draft (undo.ts); cleared on submit. */
  readonly undo: UndoHistory;
  /** Ctrl+K/U/W, Alt+D… cut into it, Ctrl+Y/Alt+Y yank from it (kill-ring.ts); kept across submits. */
  readonly killRing: KillRing;
  /** The draft put aside with Ctrl+S (stash.ts). */
  readonly stash: Stash | null;
}

export type Popup =
  /** `at`: where a `/` inside the draft is (only draft commands, run on the draft around it); null for the leading `/name`. */
  | { readonly kind: 'command'; readonly filter: string; readonly selected: number; readonly at: number | null }
  /** `results` are the last search answer whose query the current token starts with. */
  | { readonly kind: 'file'; readonly token: TokenAtCursor; readonly results: readonly string[]; readonly selected: number }
  | { readonly kind: 'skill'; readonly token: TokenAtCursor; readonly selected: number };

export interface KillEntry {
  readonly text: string;
  /** Sorted, non-overlapping. */
  readonly elements: readonly KilledElement[];
}

export interface KillRing {
  /** Newest first. */
  readonly entries: readonly KillEntry[];
  /** The last key was a kill: the next kill joins entries[0]. */
  readonly appending: boolean;
  /** The last key was a yank (or yank-pop): where the yanked text is and which entry it was. */
  readonly yank: { readonly start: number; readonly end: number; readonly index: number } | null;
}

export interface Stash {
  readonly draft: DraftSnapshot;
  /** The stashed draft's undo history: it comes back with it. */
  readonly undo: UndoHistory;
}
