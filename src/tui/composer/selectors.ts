/**
 * What the app layer reads from the composer state: emptiness, who owns Esc, the footer hint, popup
 * and attachment rows, the draft for the journal, and the laid-out text with the caret cell.
 */
import { currentHistoryEntry, isEmpty, isHistorySearching, isInPasteBurst } from './draft.js';
import { searchQuery } from './history.js';
import { layoutAround, layoutText, type Layout } from './layout.js';
import { popupView, type PopupView } from './popup.js';
import type { ComposerState, PendingPaste } from './state.js';
import { STASH_HINT } from './stash.js';
import { expandPendingPastes, toByteElements } from './submission.js';
import type { Attachment, Submission } from './types.js';
import { vimModeName, vimSelection } from './vim.js';

export { isEmpty, isHistorySearching, isInPasteBurst };

export function hasPopup(state: ComposerState): boolean {
  return state.popup !== null;
}

/** Esc belongs to the composer (Insert or Visual → Normal, or cancelling a command), not to interrupt. */
export function vimInsertOwnsEscape(state: ComposerState): boolean {
  return state.vimEnabled && (state.vim.mode !== 'normal' || state.vim.pending !== null);
}

/** `Vim: Normal` / `Vim: Insert` / `Vim: Visual` / `Vim: Visual Line`, or null with Vim mode off. */
export function vimIndicator(state: ComposerState): string | null {
  if (!state.vimEnabled) return null;
  return `Vim: ${vimModeName(state.vim)}`;
}

/** The footer's left hint. */
export function footerHint(state: ComposerState): string {
  if (isHistorySearching(state)) return `reverse-i-search: ${searchQuery(state.history)}`;
  if (state.bashMode) return 'Shell mode';
  if (state.stash !== null) return STASH_HINT;
  return vimIndicator(state) ?? '? for shortcuts';
}

/** The shortcut overlay (toggled by `?` on an empty composer). */
export function shortcutsVisible(state: ComposerState): boolean {
  return state.showShortcuts;
}

export function popupRows(state: ComposerState): PopupView | null {
  return popupView(state);
}

/** The attachments in the draft, labels current. */
export function attachmentRows(state: ComposerState): Attachment[] {
  return state.attachments.map(({ elementId: _, ...a }) => a);
}

/** The draft as a Submission with large pastes expanded: what Enter would send (the draft journal, /inspect). */
export function currentDraft(state: ComposerState): Submission {
  const expanded = expandPendingPastes(state);
  const draft: Submission = {
    text: expanded.text,
    textElements: toByteElements(expanded.text, expanded.elements),
    attachments: attachmentRows(state),
  };
  const mentions = state.mentions.map(({ elementId: _, ...m }) => m);
  if (mentions.length > 0) draft.mentions = mentions;
  return draft;
}

/**
 * The draft as it is shown, `[Pasted Content N chars]` labels included, with their payloads: to merge
 * with other messages and put back through `restoreDraft` (interrupt restore, Alt+Up) without
 * turning a large paste into pages of text.
 */
export function restorableDraft(state: ComposerState): { draft: Submission; pendingPastes: PendingPaste[] } {
  const { pendingPastes, ...draft } = currentHistoryEntry(state);
  return { draft, pendingPastes };
}

export interface ComposerRender extends Layout {
  /** `!` in shell mode, else `›`. */
  prompt: '›' | '!';
  /** Nothing typed: the screen shows the placeholder prompt text instead of the rows. */
  empty: boolean;
}

/**
 * The text wrapped to `width` cells with element kinds for styling, and the caret cell. `context`:
 * only the lines within that many rows of the caret (what a window of that height can show).
 */
export function renderComposer(state: ComposerState, width: number, context = Infinity): ComposerRender {
  const layout = Number.isFinite(context)
    ? layoutAround(state.ta.text, state.ta.cursor, width, context, state.ta.elements, vimSelection(state))
    : layoutText(state.ta.text, state.ta.cursor, width, state.ta.elements, vimSelection(state));
  return { ...layout, prompt: state.bashMode ? '!' : '›', empty: state.ta.text === '' && !state.bashMode };
}
