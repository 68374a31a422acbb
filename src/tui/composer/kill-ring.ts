/**
 * The kill ring (Emacs): Ctrl+K, Ctrl+U, Ctrl+W, Alt+D, Alt+Backspace push what they cut; Ctrl+Y yanks
 * the newest entry; Alt+Y right after a yank replaces the yanked text with the next older entry.
 *
 * - At most KILL_RING_SIZE entries, newest first. The ring outlives submits (as Codex keeps its kill
 *   buffer): only the draft is cleared.
 * - Consecutive kills (no other key in between) join the newest entry: a forward kill appends, a
 *   backward kill prepends, so Ctrl+W Ctrl+W yanks back both words in their order.
 * - Elements stay atomic: a killed `[Pasted Content …]` keeps its payload, `[Image #N]` its file and
 *   `$skill` its binding, so a yank restores them (an attachment is renumbered where it lands; a paste
 *   label already in use gets the next free ` #k`).
 *
 * Plain data; the reducer calls `endKillSequence` on every other key so "consecutive" and "right after a
 * yank" hold.
 */
import type { KeyEvent } from '../keys/types.js';
import { countChars } from '../../protocol/limits.js';
import { applyEditorKey, type KillDirection } from './editor-keys.js';
import { nextLargePastePlaceholder } from './paste.js';
import type { KilledElement } from './draft-types.js';
import { attachmentLabel, commitTextArea, relabelAttachments, type ComposerState } from './state.js';
import type { KillEntry, KillRing } from './state-types.js';
import { insertElement, insertText, replaceRange, setCursor, yank as yankKillBuffer, type TextArea } from './textarea.js';

export const KILL_RING_SIZE = 10;

export const EMPTY_KILL_RING: KillRing = { entries: [], appending: false, yank: null };

/** Any key that is not a kill or a yank ends the kill sequence (and the chance to Alt+Y). */
export function endKillSequence(ring: KillRing): KillRing {
  return ring.appending || ring.yank !== null ? { ...ring, appending: false, yank: null } : ring;
}

/** The text in `[start, end)` of the draft with its elements and their payloads. */
export function killedEntry(state: ComposerState, start: number, end: number): KillEntry {
  const { ta } = state;
  const text = ta.text.slice(start, end);
  const elements: KilledElement[] = [];
  for (const el of ta.elements) {
    if (el.start < start || el.end > end) continue;
    const label = ta.text.slice(el.start, el.end);
    const out: KilledElement = { start: el.start - start, end: el.end - start, kind: el.kind };
    if (el.kind === 'paste') {
      const p = state.pendingPastes.find((pp) => pp.placeholder === label);
      if (p !== undefined) out.paste = p.text;
    }
    const att = state.attachments.find((a) => a.elementId === el.id);
    if (att !== undefined) {
      const { elementId: _, placeholder: _label, ...rest } = att;
      out.attachment = rest;
    }
    const mention = state.mentions.find((m) => m.elementId === el.id);
    if (mention !== undefined) out.mention = { name: mention.name, path: mention.path };
    elements.push(out);
  }
  return { text, elements };
}

function joinEntries(first: KillEntry, second: KillEntry): KillEntry {
  const shift = first.text.length;
  return {
    text: first.text + second.text,
    elements: [...first.elements, ...second.elements.map((e) => ({ ...e, start: e.start + shift, end: e.end + shift }))],
  };
}

/** Pushes a kill; right after another kill it joins the newest entry in the kill's direction. */
export function pushKill(ring: KillRing, entry: KillEntry, direction: KillDirection): KillRing {
  const newest = ring.entries[0];
  if (ring.appending && newest !== undefined) {
    const joined = direction === 'forward' ? joinEntries(newest, entry) : joinEntries(entry, newest);
    return { entries: [joined, ...ring.entries.slice(1)], appending: true, yank: null };
  }
  return { entries: [entry, ...ring.entries].slice(0, KILL_RING_SIZE), appending: true, yank: null };
}

/**
 * A kill key (see editor-keys `killDirection`): the textarea cuts as before (whole elements; its
 * single kill buffer still feeds Vim's `p`), and the cut text with its elements goes to the ring.
 */
export function applyKillKey(state: ComposerState, key: KeyEvent, direction: KillDirection): ComposerState {
  const before = state.ta;
  const after = applyEditorKey(before, key, state.width);
  const removed = before.text.length - after.text.length;
  if (after === before || removed <= 0) return { ...state, killRing: { ...state.killRing, appending: true, yank: null } };
  // A kill is replaceRange(start, end, ''): the caret lands on `start`.
  const start = after.cursor;
  const entry = killedEntry(state, start, start + removed);
  const next = commitTextArea(state, after);
  return { ...next, killRing: pushKill(state.killRing, entry, direction) };
}

function labelInUse(state: ComposerState, label: string): boolean {
  return state.pendingPastes.some((p) => p.placeholder === label);
}

/** Inserts an entry at the caret, elements rebuilt with their payloads; returns where it went. */
export function insertKillEntry(state0: ComposerState, entry: KillEntry): { state: ComposerState; start: number; end: number } {
  let state = state0;
  let ta: TextArea = state.ta;
  const start = ta.cursor;
  const pendingPastes = [...state.pendingPastes];
  const attachments = [...state.attachments];
  const mentions = [...state.mentions];
  let pos = 0;
  for (const el of entry.elements) {
    if (el.start > pos) ta = insertText(ta, entry.text.slice(pos, el.start));
    let label = entry.text.slice(el.start, el.end);
    if (el.kind === 'slash') {
      // A `/command` element is plain text anywhere but at the start; syncSlashElement re-marks it there.
      ta = insertText(ta, label);
    } else if (el.attachment !== undefined) {
      const n = attachments.filter((a) => a.kind === el.attachment!.kind).length + 1;
      label = attachmentLabel(el.attachment.kind, n);
      const r = insertElement(ta, label, el.kind);
      ta = r.ta;
      attachments.push({ ...el.attachment, placeholder: label, elementId: r.id });
    } else {
      if (el.paste !== undefined) {
        if (labelInUse({ ...state, pendingPastes }, label)) label = nextLargePastePlaceholder(pendingPastes, countChars(el.paste));
        pendingPastes.push({ placeholder: label, text: el.paste });
      }
      const r = insertElement(ta, label, el.kind);
      ta = r.ta;
      if (el.mention !== undefined) mentions.push({ ...el.mention, elementId: r.id });
    }
    pos = el.end;
  }
  if (pos < entry.text.length) ta = insertText(ta, entry.text.slice(pos));
  state = relabelAttachments({ ...state, ta, pendingPastes, attachments, mentions });
  return { state, start, end: state.ta.cursor };
}

/** Ctrl+Y: the newest entry at the caret. With an empty ring, the textarea's kill buffer (a Vim yank). */
export function yankNewest(state: ComposerState): ComposerState {
  const newest = state.killRing.entries[0];
  if (newest === undefined) {
    const ta = yankKillBuffer(state.ta);
    return { ...commitTextArea(state, ta), killRing: endKillSequence(state.killRing) };
  }
  const r = insertKillEntry(state, newest);
  return { ...r.state, killRing: { ...state.killRing, appending: false, yank: { start: r.start, end: r.end, index: 0 } } };
}

/** Alt+Y right after a yank: the yanked text is replaced by the next older entry (cycling). Else nothing. */
export function yankPop(state: ComposerState): ComposerState {
  const ring = state.killRing;
  const last = ring.yank;
  if (last === null || ring.entries.length === 0) return state;
  // The yanked text must still be where it was (nothing else happened in between, by construction).
  const end = Math.min(last.end, state.ta.text.length);
  const removed = commitTextArea(state, replaceRange(state.ta, last.start, end, ''));
  const index = (last.index + 1) % ring.entries.length;
  const at = { ...removed, ta: setCursor(removed.ta, last.start) };
  const r = insertKillEntry(at, ring.entries[index]!);
  return { ...r.state, killRing: { ...ring, appending: false, yank: { start: r.start, end: r.end, index } } };
}
