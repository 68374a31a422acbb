/**
 * Paste chips (README "In the composer"): the chip under the caret (a `[Pasted Content N chars]`
 * placeholder, an image/audio label, or a paste expanded here), a preview of a placeholder's text for
 * the attachment row, and Ctrl+X expanding a placeholder in place into editable text or collapsing
 * that text back into the same placeholder (same payload) while it is unchanged. Pure, plain data.
 *
 * "Under the caret": the caret at the start of an element, else inside it or just after it; an
 * expansion holds the caret from its start to its end, and comes first, so the key that expanded a
 * paste collapses it again. An expansion stays collapsible while no edit reaches into its text
 * (followEdits, after every event); the first edit inside makes it ordinary text.
 */
import { countChars } from '../../protocol/limits.js';
import { isCtrl } from '../keys/ctrl.js';
import type { KeyEvent } from '../keys/types.js';
import { nextLargePastePlaceholder } from './paste.js';
import type { PasteExpansion } from './draft-types.js';
import { commitTextArea, type ComposerAttachment, type ComposerState } from './state.js';
import { insertElement, replaceRange, type TextArea, type TextAreaElement } from './textarea.js';
import { clampNormal } from './vim.js';

export type PasteChip =
  | { kind: 'paste'; element: TextAreaElement; placeholder: string; text: string; pendingIndex: number }
  | { kind: 'expanded'; expansion: PasteExpansion }
  | { kind: 'attachment'; attachment: ComposerAttachment };

/** How the key is named in the `?` overlay and the preview row. */
export const PASTE_CHIP_KEY = 'ctrl + x';

/** Ctrl+X: free in the composer (Emacs keys, Vim's Normal mode and the app's keys leave it alone). */
export function isPasteChipKey(key: KeyEvent): boolean {
  return isCtrl(key, 'x') && key.kind !== 'release';
}

function elementUnderCursor(ta: TextArea): TextAreaElement | undefined {
  const c = ta.cursor;
  return ta.elements.find((e) => e.start === c) ?? ta.elements.find((e) => e.start < c && c <= e.end);
}

/**
 * The pending paste an element shows: the k-th paste element with a label takes the k-th payload with
 * that label (as submission.ts expands them); -1 when it has none (a label from another client).
 */
function payloadIndex(state: ComposerState, el: TextAreaElement): number {
  const { text, elements } = state.ta;
  const label = text.slice(el.start, el.end);
  let k = elements.filter((e) => e.kind === 'paste' && e.start < el.start && text.slice(e.start, e.end) === label).length;
  return state.pendingPastes.findIndex((p) => p.placeholder === label && k-- === 0);
}

/** The chip under the caret (see above), or null; an attachment's is the one its row marks. */
export function chipUnderCursor(state: ComposerState): PasteChip | null {
  const { ta } = state;
  for (let i = state.pasteExpansions.length - 1; i >= 0; i--) {
    const x = state.pasteExpansions[i]!;
    if (x.start <= ta.cursor && ta.cursor <= x.end) return { kind: 'expanded', expansion: x };
  }
  const el = elementUnderCursor(ta);
  if (el === undefined) return null;
  if (el.kind === 'paste') {
    const i = payloadIndex(state, el);
    if (i < 0) return null;
    const p = state.pendingPastes[i]!;
    return { kind: 'paste', element: el, placeholder: p.placeholder, text: p.text, pendingIndex: i };
  }
  const attachment = state.attachments.find((a) => a.elementId === el.id);
  return attachment === undefined ? null : { kind: 'attachment', attachment };
}

/** The preview of the chip under the caret: a header row and the paste's first and last lines. */
export interface ChipPreview {
  header: string;
  /** Raw text (the caller makes control characters visible and fits the width); `…` stands for the lines between. */
  lines: string[];
}

/**
 * Where the paste's first line ends, where its last line ends (a final newline ends it rather than
 * starting an empty one) and how many lines it has: one pass.
 */
function lineSpan(text: string): { firstEnd: number; end: number; lines: number } {
  const end = text.endsWith('\n') ? text.length - 1 : text.length;
  const first = text.indexOf('\n');
  let lines = 1;
  for (let i = first; i !== -1 && i < end; i = text.indexOf('\n', i + 1)) lines++;
  return { firstEnd: first === -1 ? end : first, end, lines };
}

/** A line cut to `max` UTF-16 units (never inside a surrogate pair), `…` when cut: a 1 MiB line is not measured whole. */
function clip(line: string, max: number): string {
  if (line.length <= max) return line;
  const cut = (line.charCodeAt(max) & 0xfc00) === 0xdc00 ? max - 1 : max;
  return `${line.slice(0, cut)}…`;
}

function plural(n: number): string {
  return `${n} line${n === 1 ? '' : 's'}`;
}

/** Null when no placeholder or expanded paste is under the caret. `maxChars`: each line is clipped to this. */
export function chipPreview(state: ComposerState, maxChars: number): ChipPreview | null {
  const chip = chipUnderCursor(state);
  if (chip?.kind === 'expanded') {
    const x = chip.expansion;
    return { header: `${x.placeholder} expanded · ${plural(lineSpan(x.text).lines)} · ${PASTE_CHIP_KEY} collapse`, lines: [] };
  }
  if (chip?.kind !== 'paste') return null;
  const { text } = chip;
  const { firstEnd, end, lines } = lineSpan(text);
  const header = `${chip.placeholder} · ${plural(lines)} · ${PASTE_CHIP_KEY} expand`;
  const first = clip(text.slice(0, firstEnd), maxChars);
  if (lines === 1) return { header, lines: [first] };
  const last = clip(text.slice(text.lastIndexOf('\n', end - 1) + 1, end), maxChars);
  return { header, lines: lines === 2 ? [first, last] : [first, '…', last] };
}

/** Expansions after `from` move by `delta`. */
function shifted(list: readonly PasteExpansion[], from: number, delta: number): PasteExpansion[] {
  return list.map((x) => (x.start >= from ? { ...x, start: x.start + delta, end: x.end + delta } : x));
}

function withTa(state: ComposerState, ta: TextArea): TextArea {
  return state.vimEnabled && state.vim.mode === 'normal' ? clampNormal(ta) : ta;
}

function expand(state: ComposerState, chip: Extract<PasteChip, { kind: 'paste' }>): ComposerState {
  const el = chip.element;
  const replaced = replaceRange(state.ta, el.start, el.end, chip.text);
  // A caret before the placeholder stays before the text; after it, it goes after the text.
  const ta = state.ta.cursor === el.start ? { ...replaced, cursor: el.start } : replaced;
  const expansion: PasteExpansion = {
    start: el.start,
    end: el.start + chip.text.length,
    placeholder: chip.placeholder,
    text: chip.text,
    index: chip.pendingIndex,
  };
  return {
    ...state,
    ta: withTa(state, ta),
    pendingPastes: state.pendingPastes.filter((_, i) => i !== chip.pendingIndex),
    pasteExpansions: [...shifted(state.pasteExpansions, el.end, chip.text.length - (el.end - el.start)), expansion],
  };
}

function collapse(state: ComposerState, x: PasteExpansion): ComposerState {
  const { ta } = state;
  // Its label may have been given to a newer paste meanwhile: then it takes the next free one.
  const taken = [
    ...state.pendingPastes,
    ...ta.elements.filter((e) => e.kind === 'paste').map((e) => ({ placeholder: ta.text.slice(e.start, e.end) })),
  ];
  const placeholder = taken.some((p) => p.placeholder === x.placeholder)
    ? nextLargePastePlaceholder(taken, countChars(x.text))
    : x.placeholder;
  // commitTextArea: a slash element the paste's first word became goes with the text.
  const cleared = commitTextArea(state, replaceRange(ta, x.start, x.end, ''));
  const inserted = insertElement(cleared.ta, placeholder, 'paste').ta;
  const next = ta.cursor === x.start ? { ...inserted, cursor: x.start } : inserted;
  const pendingPastes = [...cleared.pendingPastes];
  pendingPastes.splice(Math.min(x.index, pendingPastes.length), 0, { placeholder, text: x.text });
  const others = state.pasteExpansions.filter((e) => e !== x);
  return {
    ...cleared,
    ta: withTa(state, next),
    pendingPastes,
    pasteExpansions: shifted(others, x.end, placeholder.length - x.text.length),
  };
}

/** Ctrl+X: expands the placeholder under the caret, or collapses the expansion the caret is in; else nothing. */
export function togglePasteChip(state: ComposerState): ComposerState {
  const chip = chipUnderCursor(state);
  if (chip?.kind === 'paste') return expand(state, chip);
  if (chip?.kind === 'expanded') return collapse(state, chip.expansion);
  return state;
}

/**
 * After an event that did not set the expansions itself: each one stays (moved by the edit) when the
 * text up to its end, or from its start on, is as it was; otherwise the edit reached into it and it is
 * ordinary text from now on. Either test alone proves its text is still there, unchanged.
 */
export function followEdits(prev: ComposerState, next: ComposerState): ComposerState {
  const list = next.pasteExpansions;
  if (list.length === 0 || list !== prev.pasteExpansions || next.ta.text === prev.ta.text) return next;
  const a = prev.ta.text;
  const b = next.ta.text;
  const delta = b.length - a.length;
  // Native string compares: a keystroke next to a 1 MiB expansion stays cheap.
  const kept = list.flatMap((x) => {
    if (b.startsWith(a.slice(0, x.end))) return [x];
    if (b.endsWith(a.slice(x.start))) return [{ ...x, start: x.start + delta, end: x.end + delta }];
    return [];
  });
  return { ...next, pasteExpansions: kept };
}
