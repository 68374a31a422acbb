/**
 * The composer state machine (docs/codex-parity.md#composer): `(state, event, now) → {state, result, effects}`.
 * Time is injected so paste-burst timing is deterministic under test. The state is plain data (state.ts).
 */
import type { KeyEvent } from '../keys/types.js';
import { isCtrl } from '../keys/ctrl.js';
import {
  insertableChar,
  isPlainKey,
  isRedoKey,
  isSendNowKey,
  isStashKey,
  isUndoKey,
  isYankKey,
  isYankPopKey,
  killDirection,
} from './editor-keys.js';
import {
  acceptSearch,
  cancelSearch,
  currentSearchMatch,
  isBrowsing,
  isSearching,
  navigateDown,
  navigateUp,
  recordLocalSubmission,
  resetNavigation,
  searchNewer,
  searchOlder,
  searchQuery,
  setPersistentEntries,
  setSearchQuery,
  shouldHandleNavigation,
  startSearch,
  type Recalled,
} from './history.js';
import { appendCharRun, basicInput, endBurstWindow, flushBurstBeforeKey, flushDueBurst } from './input.js';
import { clearAfterExplicitPaste, isBuffering, recommendedFlushDelay, touchBurst } from './paste-burst.js';
import { attach, insertPaste } from './paste.js';
import { chipUnderCursor, followEdits, isPasteChipKey, togglePasteChip } from './paste-chips.js';
import { dismissKey, insertFileSelection, insertSkillSelection, moveSelection, popupView, skillMatches, syncPopups } from './popup.js';
import { clearDraft, currentHistoryEntry, loadDraft, isEmpty, isInPasteBurst, syncSlashElement } from './draft.js';
import { applyExternalEdit, externalEditorText } from './external-edit.js';
import { isDraftCommand } from './slash-commands.js';
import { canonicalText, commitTextArea, type ComposerHistoryEntry, type ComposerState } from './state.js';
import { NONE, step, withHistory, type ComposerOutput, type Step } from './step.js';
import { dispatchCommand, handleSubmission } from './submit-key.js';
import { cursorByte, insertText, moveRight, replaceRange, setCursor } from './textarea.js';
import { byteLength } from '../../protocol/utf8.js';
import type { ComposerEvent } from './types.js';
import {
  clampNormal,
  isNormalModeKey,
  toInsert,
  vimEscape,
  vimHoldsKeys,
  vimInsertKey,
  vimNormalKey,
  vimOwnsCtrlR,
  vimReset,
} from './vim.js';
import { applyKillKey, yankNewest, yankPop } from './kill-ring.js';
import { stashKey } from './stash.js';
import { trackEdits } from './track-edits.js';
import { recordChange, redoDraft, snapshotDraft, undoDraft } from './undo.js';

export { initialComposerState, type ComposerState, type ComposerOptions } from './state.js';
export {
  attachmentRows,
  currentDraft,
  footerHint,
  hasPopup,
  isEmpty,
  isHistorySearching,
  isInPasteBurst,
  popupRows,
  renderComposer,
  restorableDraft,
  shortcutsVisible,
  vimIndicator,
  vimInsertOwnsEscape,
  type ComposerRender,
} from './selectors.js';
export type { ComposerOutput } from './step.js';

export function composerReducer(state: ComposerState, event: ComposerEvent, now: number): ComposerOutput {
  // Ctrl+Enter is an Enter whose submission says to send it alone at once; with a popup open it is a newline.
  if (event.type === 'key' && isSendNowKey(event) && state.popup === null) {
    const out = composerReducer(state, { ...event, ctrl: false }, now);
    return out.result.type === 'submitted' ? { ...out, result: { ...out.result, mode: 'sendNow' } } : out;
  }
  if (event.type === 'burstChars') {
    const next = appendCharRun(state, event.chars, now);
    // Refused: nothing changes, and the caller sends the characters as keys.
    if (next === null) return { state, result: NONE, effects: [], handled: false };
    return finish(trackEdits(state, event, step(next), now));
  }
  const out = trackEdits(state, event, dispatch(state, event, now), now);
  let next = out.state;
  // Editing a recalled entry ends history browsing (popups come back, Up/Down move the caret).
  if (out.navigated !== true && next.ta.text !== state.ta.text && isBrowsing(next.history)) {
    next = withHistory(next, resetNavigation(next.history));
  }
  return finish({ ...out, state: followEdits(state, next) });
}

function dispatch(state: ComposerState, event: Exclude<ComposerEvent, { type: 'burstChars' }>, now: number): Step {
  switch (event.type) {
    case 'key':
      return handleKey(state, event, now);
    case 'paste': {
      if (isSearching(state.history)) return searchQueryEdit(state, searchQuery(state.history) + event.text);
      const next = insertPaste(flushBurstBeforeKey(state), event.text);
      return step({ ...next, burst: clearAfterExplicitPaste(next.burst), showShortcuts: false });
    }
    case 'tick':
      return step(flushDueBurst(state, now));
    case 'inputRead':
      return step({ ...state, burst: touchBurst(state.burst, now) });
    case 'attach':
      return step(attach(flushBurstBeforeKey(state), event.attachment));
    case 'fileSearchResult': {
      const p = state.popup;
      if (p?.kind !== 'file' || !p.token.query.startsWith(event.query)) return step(state);
      return step({ ...state, popup: { ...p, results: event.paths, selected: 0 } });
    }
    case 'setTaskRunning':
      return step({ ...state, taskRunning: event.running });
    case 'setVimEnabled':
      return step(setVimEnabled(state, event.enabled));
    case 'restoreDraft':
      return step(loadDraft(flushBurstBeforeKey(state), { ...event.draft, pendingPastes: event.pendingPastes ?? [] }));
    case 'loadPersistentHistory':
      return step(withHistory(state, setPersistentEntries(state.history, event.entries)));
    case 'setSkills':
      return step({ ...state, skills: event.skills });
    case 'setWidth':
      return step({ ...state, width: Math.max(1, Math.floor(event.width)) });
    case 'externalEditResult':
      return step(applyExternalEdit(flushBurstBeforeKey(state), event.text));
  }
}

/** After every event: Normal mode after a dispatch, popups and slash elements in sync, the burst tick. */
function finish(s: Step): ComposerOutput {
  let state = s.state;
  if (s.result.type !== 'none' && s.keepsDraft !== true && state.vimEnabled) state = vimReset(state);
  state = syncSlashElement(state);
  const synced = syncPopups(state);
  state = synced.state;
  const effects = [...s.effects, ...synced.effects];
  if (isInPasteBurst(state)) effects.push({ type: 'scheduleTick', delayMs: recommendedFlushDelay(state.burst) });
  return { state, result: s.result, effects, handled: s.handled };
}

function setVimEnabled(state: ComposerState, enabled: boolean): ComposerState {
  const flushed = flushBurstBeforeKey(state);
  const cleared = { ...flushed, burst: clearAfterExplicitPaste(flushed.burst) };
  if (!enabled) return { ...cleared, vimEnabled: false, vim: toInsert(cleared.vim) };
  return vimReset({ ...cleared, vimEnabled: true });
}

function handleKey(state0: ComposerState, key: KeyEvent, now: number): Step {
  if (key.kind === 'release') return step(state0);
  // What a late tick would have done: a burst that went idle is flushed before this key counts, and
  // the popups follow the flushed text, so the key acts on what is on screen (not one key earlier).
  const flushed = flushDueBurst(state0, now);
  if (flushed.ta.text === state0.ta.text) return handleKeyOn(flushed, key, now, state0);
  const synced = syncPopups(flushed);
  const out = handleKeyOn(synced.state, key, now, state0);
  return { ...out, effects: [...synced.effects, ...out.effects] };
}

/** `unflushed`: the state before a due burst was flushed (what the undo history last saw). */
function handleKeyOn(state0: ComposerState, key: KeyEvent, now: number, unflushed: ComposerState = state0): Step {
  let state = state0;

  if (isCtrl(key, 'c')) return ctrlC(state);
  if (isSearching(state.history)) return searchKey(state, key);
  if (isUndoKey(key) || isRedoKey(key)) return undoKey(state, isUndoKey(key), now, unflushed);
  // In Vim's Normal and Visual modes Ctrl+R is redo.
  if (isCtrl(key, 'r') && !vimOwnsCtrlR(state)) {
    state = flushBurstBeforeKey(state);
    return step({ ...state, history: startSearch(state.history, currentHistoryEntry(state)), popup: null });
  }
  if (key.name === 'char' && (key.ctrl || key.alt) && key.char === 'v') {
    return step(flushBurstBeforeKey(state), NONE, [{ type: 'pasteClipboardImage' }]);
  }
  if (isCtrl(key, 'g')) {
    const flushedState = flushBurstBeforeKey(state);
    return step({ ...flushedState, popup: null }, NONE, [{ type: 'openExternalEditor', text: externalEditorText(flushedState) }]);
  }
  if (state.popup !== null) {
    const r = popupKey(state, key, now);
    // A completion is one undo step.
    if (r !== null) return r.result.type === 'none' && r.state.ta.text !== state.ta.text ? { ...r, change: 'completion' } : r;
  }
  return noPopupKey(state, key, now);
}

/**
 * Ctrl+Z / Ctrl+_ undo, Ctrl+Shift+Z / Alt+_ redo (undo.ts); a burst in flight is a paste step first.
 * A held character that has just stayed (`before` does not have it yet) is typing, as it would be had
 * the tick come first: it joins its word.
 */
function undoKey(state0: ComposerState, isUndo: boolean, now: number, before: ComposerState): Step {
  const flushed = endBurstWindow(flushBurstBeforeKey(state0));
  const kind = isBuffering(before.burst) ? 'paste' : 'type';
  const state = { ...flushed, undo: recordChange(flushed.undo, snapshotDraft(before), snapshotDraft(flushed), kind, now) };
  const next = (isUndo ? undoDraft(state) : redoDraft(state)) ?? state;
  const vimTa = next.vimEnabled && next.vim.mode === 'normal' ? clampNormal(next.ta) : next.ta;
  return { ...step({ ...next, ta: vimTa, showShortcuts: false }), skipUndo: true };
}

// ---------- Ctrl+C and history search ----------

/** A history step that may give a draft to load (search accepted or cancelled, Up/Down). */
function recall(state: ComposerState, r: Recalled<ComposerHistoryEntry>, opts: { keepBrowsing?: boolean } = {}): ComposerState {
  const next = withHistory(state, r.history);
  return r.entry === null ? next : loadDraft(next, r.entry, opts);
}

function ctrlC(state0: ComposerState): Step {
  if (isSearching(state0.history)) return step(recall(state0, cancelSearch(state0.history)));
  const state = flushBurstBeforeKey(state0);
  if (isEmpty(state)) return step(state, NONE, [], false);
  const recorded = withHistory(state, recordLocalSubmission(state.history, currentHistoryEntry(state)));
  return step(clearDraft(recorded), NONE, [{ type: 'quitHint' }]);
}

/** After a search step: the draft shows the current match, if any. */
function searchPreview(state: ComposerState, history: ComposerState['history']): ComposerState {
  const next = withHistory(state, history);
  const match = currentSearchMatch(history);
  return match === null ? next : loadDraft(next, match.entry);
}

function searchQueryEdit(state: ComposerState, query: string): Step {
  return step(searchPreview(state, setSearchQuery(state.history, query).history));
}

function searchKey(state: ComposerState, key: KeyEvent): Step {
  const h = state.history;
  if (key.name === 'escape') return step(recall(state, cancelSearch(h)));
  if (key.name === 'enter') return step(recall(state, acceptSearch(h)));
  if (isCtrl(key, 'r')) return step(searchPreview(state, searchOlder(h).history));
  if (isCtrl(key, 's')) return step(searchPreview(state, searchNewer(h).history));
  if (key.name === 'backspace') return searchQueryEdit(state, [...searchQuery(h)].slice(0, -1).join(''));
  if (key.name === 'char' && !key.ctrl && !key.alt && key.char !== undefined) {
    return searchQueryEdit(state, searchQuery(h) + key.char);
  }
  return step(state);
}

// ---------- popups ----------

/** A popup's answer to a key, or null to handle the key as if no popup were open. */
function popupKey(state: ComposerState, key: KeyEvent, now: number): Step | null {
  const popup = state.popup!;
  if (isPlainKey(key, 'up') || isCtrl(key, 'p')) return step(moveSelection(state, -1));
  if (isPlainKey(key, 'down') || isCtrl(key, 'n')) return step(moveSelection(state, 1));
  if (isPlainKey(key, 'escape')) return step({ ...state, popup: null, dismissedToken: dismissKey(popup) });
  const tab = isPlainKey(key, 'tab');
  const enter = isPlainKey(key, 'enter');
  // A `/` inside a paste burst is pasted text (a path), not a completion.
  const slash = popup.kind === 'command' && insertableChar(key) === '/' && !isInPasteBurst(state);
  if (!tab && !enter && !slash) return null;
  const view = popupView(state);
  const selected = view?.selected ?? null;

  if (popup.kind === 'command') {
    if (selected === null) return null;
    const name = view!.rows[selected]!.label.slice(1);
    const token = { start: popup.at ?? 0, end: (popup.at ?? 0) + 1 + popup.filter.length };
    // Inside the draft a `/` is text (a path); Tab and Enter run the command on the draft.
    if (popup.at !== null) return slash ? null : dispatchCommand(state, name, token, now);
    const first = state.ta.text.split('\n')[0]!;
    if (slash) {
      // `/` accepts the highlighted command as text; after a complete name it only moves the caret to the end.
      if (first.trimStart().startsWith(`/${name}`)) return step({ ...state, ta: setCursor(state.ta, state.ta.text.length) });
      return step(completeCommand(state, name));
    }
    if (tab) {
      if (name === 'skills' || isDraftCommand(name)) return dispatchCommand(state, name, token, now);
      if (first.trimEnd() === `/${name}`) return null;
      return step(completeCommand(state, name));
    }
    return dispatchCommand(state, name, token, now);
  }

  if (popup.kind === 'file') {
    if (selected === null) {
      // Nothing to choose: Tab just closes; Enter closes and submits what was typed.
      const closed = { ...state, popup: null, dismissedToken: dismissKey(popup) };
      return tab ? step(closed) : handleSubmission(closed, false, 'enter', now);
    }
    return step(insertFileSelection(state, popup.token, popup.results[selected]!));
  }

  const skill = skillMatches(state.skills, popup.token.query)[selected ?? -1];
  if (skill === undefined) return step({ ...state, popup: null, dismissedToken: dismissKey(popup) });
  return step(insertSkillSelection(state, popup.token, skill));
}

/** Replaces the leading `/token` (and the blanks after it) by `/name `; the rest of the draft stays. */
function completeCommand(state: ComposerState, name: string): ComposerState {
  const token = /^\/\S*[^\S\n]*/u.exec(state.ta.text)![0];
  return { ...commitTextArea(state, replaceRange(state.ta, 0, token.length, `/${name} `)), popup: null };
}

// ---------- no popup ----------

/** Alt+, / Alt+. (chat/app-keys.ts effortKeyStep). */
function isEffortKey(key: KeyEvent): boolean {
  return key.name === 'char' && !key.ctrl && (key.alt || key.meta) && (key.char === ',' || key.char === '.');
}

function noPopupKey(state0: ComposerState, key: KeyEvent, now: number): Step {
  let state = state0;
  const plainChar = key.name === 'char' && !key.ctrl && !key.alt && !key.meta ? key.char : undefined;

  if (plainChar === '?' && isEmpty(state) && !isInPasteBurst(state) && key.kind === 'press') {
    return step({ ...state, showShortcuts: !state.showShortcuts });
  }
  if (state.showShortcuts) {
    state = { ...state, showShortcuts: false };
    if (isPlainKey(key, 'escape')) return step(state);
  }

  if (state.bashMode && isPlainKey(key, 'escape')) {
    state = endBurstWindow(flushBurstBeforeKey(state));
    if (state.ta.text === '') return step({ ...state, bashMode: false });
  }

  if (state.vimEnabled) {
    // Vim's commands record their own undo steps (vim/index.ts); an Insert session is one group.
    if (state.vim.mode === 'insert') {
      if (isPlainKey(key, 'escape')) return step(vimEscape(endBurstWindow(flushBurstBeforeKey(state))));
      const r = vimInsertKey(state, key, now);
      if (r.escaped) return { ...step(r.state), skipUndo: true };
      state = r.state;
    }
    if (vimHoldsKeys(state.vim)) {
      // A command being typed, or Visual mode, consumes the key, Enter included: nothing is submitted.
      return { ...step(vimNormalKey(state, key, now)), skipUndo: true };
    }
    if (state.vim.mode === 'normal' && ta0Empty(state)) {
      if (plainChar === '/') return step({ ...state, ta: insertText(state.ta, '/'), vim: toInsert(state.vim) });
      if (plainChar === '!') return step({ ...state, bashMode: true, vim: toInsert(state.vim) });
    }
  }

  if (isPlainKey(key, 'escape')) return step(state, NONE, [], false);
  // Ctrl+L (clear the screen), Ctrl+O (copy the last answer), Ctrl+T (the transcript), Shift+Tab
  // (the approval mode) and Alt+, / Alt+. (the reasoning effort) are the app's; the draft stays as it is.
  if (isCtrl(key, 'l') || isCtrl(key, 'o') || isCtrl(key, 't') || key.name === 'backtab' || isEffortKey(key)) {
    return step(flushBurstBeforeKey(state), NONE, [], false);
  }
  if (isPasteChipKey(key)) return pasteChipKey(state);

  if (isStashKey(key)) return { ...step(stashKey(endBurstWindow(flushBurstBeforeKey(state)))), skipUndo: true };

  if (isPlainKey(key, 'tab')) {
    if (state.taskRunning || !canonicalText(state).trimStart().startsWith('!')) {
      return handleSubmission(state, state.taskRunning, 'tab', now);
    }
    return step(state);
  }
  if (isPlainKey(key, 'enter')) return handleSubmission(state, false, 'enter', now);
  if (isCtrl(key, 'd') && isEmpty(state)) return step(state, NONE, [], false);

  const normal = state.vimEnabled && state.vim.mode === 'normal';
  const up = isPlainKey(key, 'up') || isCtrl(key, 'p') || (normal && plainChar === 'k');
  const down = isPlainKey(key, 'down') || isCtrl(key, 'n') || (normal && plainChar === 'j');
  if ((up || down) && shouldNavigateHistory(state)) {
    state = endBurstWindow(flushBurstBeforeKey(state));
    const r = up ? navigateUp(state.history) : navigateDown(state.history);
    return { ...step(recall(state, r, { keepBrowsing: true })), navigated: true };
  }

  if (normal && (isNormalModeKey(key) || plainChar !== undefined)) {
    return { ...step(vimNormalKey(state, key, now)), skipUndo: true };
  }
  const kill = killDirection(key);
  if (kill !== null || isYankKey(key) || isYankPopKey(key)) return killRingKey(state, key, kill);
  return step(basicInput(state, key, now));
}

/**
 * Ctrl+X expands the placeholder under the caret or collapses it again (paste-chips.ts): one undo
 * step. On an image chip it opens the inspector, which shows the image as the model will get it.
 */
function pasteChipKey(state0: ComposerState): Step {
  const state = endBurstWindow(flushBurstBeforeKey(state0));
  if (chipUnderCursor(state)?.kind === 'attachment')
    return { ...step(state, { type: 'command', command: 'inspect' }), skipUndo: true, keepsDraft: true };
  return { ...step(togglePasteChip(state)), change: 'expand' };
}

/** Kills into the kill ring, Ctrl+Y and Alt+Y (kill-ring.ts). */
function killRingKey(state0: ComposerState, key: KeyEvent, kill: ReturnType<typeof killDirection>): Step {
  const state = endBurstWindow(flushBurstBeforeKey(state0));
  if (kill !== null) return { ...step(applyKillKey(state, key, kill)), change: 'kill' };
  return { ...step(isYankKey(key) ? yankNewest(state) : yankPop(state)), change: 'yank' };
}

function ta0Empty(state: ComposerState): boolean {
  return state.ta.text === '' && !state.bashMode;
}

function shouldNavigateHistory(state: ComposerState): boolean {
  const text = canonicalText(state);
  const ta = state.ta;
  // In Normal mode the caret rests on the last character, which counts as the end.
  const atEnd =
    ta.cursor === ta.text.length || (state.vimEnabled && state.vim.mode === 'normal' && moveRight(ta).cursor === ta.text.length);
  if (atEnd) return shouldHandleNavigation(state.history, text, byteLength(text));
  const cursor = state.bashMode && ta.cursor > 0 ? cursorByte(ta) + 1 : cursorByte(ta);
  return shouldHandleNavigation(state.history, text, cursor);
}
