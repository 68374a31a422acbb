/**
 * Undo/redo for the composer draft. Plain data and pure functions: an `UndoHistory` is a value, every
 * function returns a new one, and time is passed in (`now`, milliseconds).
 *
 * A snapshot is the whole draft: text, caret, elements (with their ids), shell mode, the payloads of
 * pending pastes, attachments with their labels/numbers and the mentions bound to elements. Restoring a
 * snapshot therefore brings back `[Image #2]` as image 2 with its file, and a `[Pasted Content …]`
 * label with its payload.
 *
 * Usage (any editor, Vim included):
 *
 *     const before = snapshotDraft(state);
 *     const next = edit(state);
 *     history = recordChange(history, before, snapshotDraft(next), 'type', now);
 *     …
 *     const r = undo(history, snapshotDraft(state));   // null: nothing to undo
 *     if (r) { history = r.history; state = applySnapshot(state, r.draft); }
 *
 * Coalescing (one undo step for a run of small edits):
 * - `type` joins the open `type` run when it continues where the run left off (same text and caret:
 *   no cursor move or other edit in between, not even in the same event), at most `COALESCE_MS` after
 *   the run's last change, and does not start a new word: a non-blank typed right after a blank opens
 *   a new step, so `hello world` undoes as `world`, then `hello `.
 * - `delete` (Backspace/Delete one character at a time) joins the open `delete` run by the same rules
 *   (without the word rule).
 * - `recall` (history browsing, Ctrl+R previews) joins the open `recall` run whatever the time: one
 *   undo returns to the draft before browsing started.
 * - `group` joins the open `group` run until `sealRun` (for Vim: an Insert session is one change; seal
 *   it on Esc).
 * - `burst` (a paste burst took back the characters typed just before it) is joined by the `paste` the
 *   burst flushes as, so a fast unbracketed paste is one step too.
 * - Every other kind (`paste`, `expand`, `attach`, `completion`, `kill`, `yank`, `edit`) is always one
 *   step of its own.
 * `sealRun` ends the open run explicitly (a cursor move, a mode change); `undo`/`redo` seal too.
 *
 * In the composer the reducer records every event itself (track-edits.ts: the kind from the event and
 * the text diff, or the handler's `change`); a handler that keeps `state.undo` itself (undo, redo, the
 * stash, Vim's own commands) returns `skipUndo: true`. A submit clears the history.
 */
import type { ChangeKind, DraftSnapshot, OpenRun, UndoHistory } from './draft-types.js';
import type { ComposerState } from './state-types.js';

/** A pause longer than this ends a typing (or deleting) run. */
export const COALESCE_MS = 1000;
/** Steps kept; the oldest are dropped beyond this. */
export const MAX_UNDO_STEPS = 200;

export const EMPTY_UNDO: UndoHistory = { past: [], future: [], run: null };

export function emptyUndoHistory(): UndoHistory {
  return EMPTY_UNDO;
}

export function canUndo(history: UndoHistory): boolean {
  return history.past.length > 0;
}

export function canRedo(history: UndoHistory): boolean {
  return history.future.length > 0;
}

/** Same draft content (caret excluded)? Cheap reference checks first. */
export function sameDraft(a: DraftSnapshot, b: DraftSnapshot): boolean {
  return (
    a.text === b.text &&
    a.bashMode === b.bashMode &&
    sameList(a.elements, b.elements, (x, y) => x.id === y.id && x.start === y.start && x.end === y.end && x.kind === y.kind) &&
    sameList(a.pendingPastes, b.pendingPastes, (x, y) => x.placeholder === y.placeholder && x.text === y.text) &&
    sameList(
      a.attachments,
      b.attachments,
      (x, y) => x === y || (x.placeholder === y.placeholder && x.path === y.path && x.elementId === y.elementId),
    ) &&
    sameList(a.mentions, b.mentions, (x, y) => x === y || (x.name === y.name && x.path === y.path && x.elementId === y.elementId))
  );
}

function sameList<T>(a: readonly T[], b: readonly T[], eq: (x: T, y: T) => boolean): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  return a.every((x, i) => eq(x, b[i]!));
}

function isBlank(ch: string | undefined): boolean {
  return ch !== undefined && /\s/u.test(ch);
}

/** The text inserted at `before.cursor` if that is all that changed in the text, else null. */
export function insertedText(before: DraftSnapshot, after: DraftSnapshot): string | null {
  const n = after.text.length - before.text.length;
  if (n <= 0) return null;
  const c = before.cursor;
  if (after.text.slice(0, c) !== before.text.slice(0, c) || after.text.slice(c + n) !== before.text.slice(c)) return null;
  return after.text.slice(c, c + n);
}

/** Does this change continue the open run? */
function joinsRun(run: OpenRun | null, before: DraftSnapshot, after: DraftSnapshot, kind: ChangeKind, now: number): boolean {
  if (run === null) return false;
  const adjacent = before.text === run.text && before.cursor === run.cursor;
  // A paste burst that began by taking back what was typed before it (`burst`) ends as one `paste`.
  if (run.kind === 'burst') return (kind === 'paste' || kind === 'burst') && adjacent;
  if (run.kind !== kind) return false;
  if (kind === 'group' || kind === 'recall') return true;
  if (kind !== 'type' && kind !== 'delete') return false;
  if (!adjacent || now - run.at > COALESCE_MS || now < run.at) return false;
  if (kind === 'type') {
    const inserted = insertedText(before, after) ?? '';
    const startsWord = inserted !== '' && !isBlank(inserted[0]) && isBlank(before.text[before.cursor - 1]);
    if (startsWord) return false;
  }
  return true;
}

/** For `type`/`delete`: the caret ended where the edit itself leaves it (no move in the same event). */
function caretFollowsEdit(before: DraftSnapshot, after: DraftSnapshot, kind: ChangeKind): boolean {
  if (kind === 'type') return after.cursor === before.cursor + (after.text.length - before.text.length);
  if (kind === 'delete') return after.cursor === before.cursor || after.cursor === before.cursor - (before.text.length - after.text.length);
  return true;
}

/**
 * Records one change from `before` to `after`. A change that leaves the draft as it was (caret moves
 * only) records nothing but ends the open run when the caret moved. Any recorded change drops the redo
 * list. A run that comes back to the draft it started from (a history browse ending where it began)
 * leaves no step.
 */
export function recordChange(
  history: UndoHistory,
  before: DraftSnapshot,
  after: DraftSnapshot,
  kind: ChangeKind,
  now: number,
): UndoHistory {
  if (sameDraft(before, after)) {
    return before.cursor === after.cursor ? history : sealRun(history);
  }
  const follows = caretFollowsEdit(before, after, kind);
  const start = history.past[history.past.length - 1];
  if (start !== undefined && joinsRun(history.run, before, after, kind, now)) {
    if (sameDraft(start, after)) return { past: history.past.slice(0, -1), future: [], run: null };
    // A burst's run goes on as a `paste` run (which nothing else joins).
    const runKind = history.run!.kind === 'burst' && kind === 'paste' ? 'paste' : kind;
    return { past: history.past, future: [], run: follows ? { kind: runKind, at: now, text: after.text, cursor: after.cursor } : null };
  }
  const past = [...history.past, before];
  if (past.length > MAX_UNDO_STEPS) past.splice(0, past.length - MAX_UNDO_STEPS);
  return { past, future: [], run: follows ? { kind, at: now, text: after.text, cursor: after.cursor } : null };
}

/** Ends the open run: the next change is a step of its own. */
export function sealRun(history: UndoHistory): UndoHistory {
  return history.run === null ? history : { ...history, run: null };
}

export interface UndoResult {
  history: UndoHistory;
  /** The draft to show now. */
  draft: DraftSnapshot;
}

/** Steps back: `current` goes to the redo list. Null when there is nothing to undo. */
export function undo(history: UndoHistory, current: DraftSnapshot): UndoResult | null {
  const draft = history.past[history.past.length - 1];
  if (draft === undefined) return null;
  return { history: { past: history.past.slice(0, -1), future: [...history.future, current], run: null }, draft };
}

/** Steps forward again after an undo. Null when there is nothing to redo. */
export function redo(history: UndoHistory, current: DraftSnapshot): UndoResult | null {
  const draft = history.future[history.future.length - 1];
  if (draft === undefined) return null;
  return { history: { past: [...history.past, current], future: history.future.slice(0, -1), run: null }, draft };
}

// ---------- the composer state ----------

/** The draft part of a composer state. */
export function snapshotDraft(state: ComposerState): DraftSnapshot {
  // A character drawn while the paste-burst detector still holds it (input.ts) is not in the draft
  // yet: a paste may take it back, so undo learns of it only once it stays.
  const p = state.provisional;
  const held = p !== null && state.ta === p.after;
  const ta = held ? p.before : state.ta;
  return {
    text: ta.text,
    cursor: ta.cursor,
    elements: ta.elements,
    bashMode: held ? p.bashMode : state.bashMode,
    pendingPastes: state.pendingPastes,
    attachments: state.attachments,
    mentions: state.mentions,
    pasteExpansions: state.pasteExpansions,
  };
}

/**
 * Puts a snapshot back into the state. The kill buffer, the element id counter (ids are never reused),
 * Vim mode and everything else that is not the draft stay as they are.
 */
export function applySnapshot(state: ComposerState, snap: DraftSnapshot): ComposerState {
  const maxId = snap.elements.reduce((m, e) => Math.max(m, e.id), 0);
  return {
    ...state,
    ta: {
      ...state.ta,
      text: snap.text,
      cursor: Math.min(snap.cursor, snap.text.length),
      elements: snap.elements,
      nextElementId: Math.max(state.ta.nextElementId, maxId + 1),
      preferredCol: null,
    },
    bashMode: snap.bashMode,
    pendingPastes: [...snap.pendingPastes],
    attachments: [...snap.attachments],
    mentions: [...snap.mentions],
    pasteExpansions: snap.pasteExpansions ?? [],
  };
}

/** Undo on a composer state (its `undo` field); null when there is nothing to undo. */
export function undoDraft(state: ComposerState): ComposerState | null {
  const r = undo(state.undo, snapshotDraft(state));
  return r === null ? null : { ...applySnapshot(state, r.draft), undo: r.history };
}

/** Redo on a composer state; null when there is nothing to redo. */
export function redoDraft(state: ComposerState): ComposerState | null {
  const r = redo(state.undo, snapshotDraft(state));
  return r === null ? null : { ...applySnapshot(state, r.draft), undo: r.history };
}
