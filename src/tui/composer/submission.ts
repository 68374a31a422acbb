/**
 * Submission preparation (docs/codex-parity.md#submission-preparation, step 4): expand pending pastes, trim with element rebasing,
 * validate slash commands and the length limit, apply the empty rule. Pure: a refusal leaves the
 * draft as it was, so "restore the draft" is simply not clearing it.
 */
import { trimTextWithElements } from '../../protocol/text-element.js';
import { countChars, exceedsLimit, tuiTooLargeMessage } from '../../protocol/limits.js';
import type { TextElement } from '../../protocol/user-input.js';
import { byteLength, sliceBytes } from '../../protocol/utf8.js';
import { isKnownCommand, parseSlash } from './slash-commands.js';
import type { ComposerHistoryEntry, ComposerState } from './state.js';
import type { ElementKind } from './textarea.js';
import type { ComposerEffect, MentionBinding, Submission } from './types.js';

interface IndexElement {
  start: number;
  end: number;
  id: number;
  kind: ElementKind;
  /** An expanded paste's `[Pasted Content N chars]` label (the element covers the paste itself). */
  label?: string;
}

/** Converts sorted-by-start string-index elements to UTF-8 byte ranges in one pass over the text. */
export function toByteElements(text: string, elements: readonly { start: number; end: number; label?: string }[]): TextElement[] {
  const out: TextElement[] = [];
  let index = 0;
  let bytes = 0;
  const advance = (to: number): number => {
    bytes += byteLength(text.slice(index, to));
    index = to;
    return bytes;
  };
  for (const el of elements) {
    const start = advance(el.start);
    const end = advance(el.end);
    out.push({ byte_range: { start, end }, placeholder: el.label ?? text.slice(el.start, el.end) });
  }
  return out;
}

/**
 * Splices each paste placeholder's full text in (FIFO per identical label) and drops its element;
 * `keepPastes` keeps it instead, over the paste, labelled (a sent message's pastes can come back as
 * their labels: chat/prompt-draft.ts).
 */
export function expandPendingPastes(state: ComposerState, opts: { keepPastes?: boolean } = {}): { text: string; elements: IndexElement[] } {
  const { text } = state.ta;
  const queues = new Map<string, string[]>();
  for (const p of state.pendingPastes) {
    const q = queues.get(p.placeholder);
    if (q === undefined) queues.set(p.placeholder, [p.text]);
    else q.push(p.text);
  }
  const prefix = state.bashMode ? '!' : '';
  const parts: string[] = [prefix];
  let length = prefix.length;
  let last = 0;
  const elements: IndexElement[] = [];
  for (const el of state.ta.elements) {
    const chunk = text.slice(last, el.start);
    parts.push(chunk);
    length += chunk.length;
    const label = text.slice(el.start, el.end);
    const payload = el.kind === 'paste' ? queues.get(label)?.shift() : undefined;
    if (payload !== undefined) {
      if (opts.keepPastes === true && payload !== '')
        elements.push({ start: length, end: length + payload.length, id: el.id, kind: el.kind, label });
      parts.push(payload);
      length += payload.length;
    } else {
      elements.push({ start: length, end: length + label.length, id: el.id, kind: el.kind });
      parts.push(label);
      length += label.length;
    }
    last = el.end;
  }
  parts.push(text.slice(last));
  return { text: parts.join(''), elements };
}

export type Prepared = { ok: true; submission: Submission; historyEntry: ComposerHistoryEntry } | { ok: false; effects: ComposerEffect[] };

export interface PrepareOptions {
  /** False on the queue path for `/…` text: slash parsing happens when the message is dequeued. */
  validateSlash: boolean;
}

export function prepareSubmission(state: ComposerState, opts: PrepareOptions): Prepared {
  const draft = buildSubmission(state);
  const text = draft.trimmed;

  if (opts.validateSlash && !state.bashMode && !/^\s/u.test(draft.expanded)) {
    const parsed = parseSlash(text);
    if (parsed !== null && !isKnownCommand(parsed.name)) {
      return {
        ok: false,
        effects: [{ type: 'info', text: `Unrecognized command '/${parsed.name}'. Type "/" for a list of supported commands.` }],
      };
    }
  }

  const chars = countChars(text);
  if (exceedsLimit(chars)) return { ok: false, effects: [{ type: 'error', text: tuiTooLargeMessage(chars) }] };
  return draft.built === null ? { ok: false, effects: [] } : { ok: true, ...draft.built };
}

/** The draft as Enter would send it (pastes expanded, trimmed), whatever its length; null when it sends nothing (/inspect). */
export function draftSubmission(state: ComposerState): Submission | null {
  return buildSubmission(state).built?.submission ?? null;
}

/** The expanded and the trimmed text, and what the draft sends (null: nothing). */
function buildSubmission(state: ComposerState): {
  expanded: string;
  trimmed: string;
  built: { submission: Submission; historyEntry: ComposerHistoryEntry } | null;
} {
  const expanded = expandPendingPastes(state, { keepPastes: true });
  const byteElements = toByteElements(expanded.text, expanded.elements);
  const trimmed = trimTextWithElements(expanded.text, byteElements);
  const text = trimmed.text;
  const out = (built: { submission: Submission; historyEntry: ComposerHistoryEntry } | null) => ({
    expanded: expanded.text,
    trimmed: text,
    built,
  });

  // Trimming removes only whitespace and no label is whitespace, so every element survives it;
  // attachments and mentions whose element was deleted are already gone (commitTextArea).
  const survivingIds = new Set(expanded.elements.map((e) => e.id));
  const attachments = state.attachments.filter((a) => survivingIds.has(a.elementId)).map(stripElementId);
  if (text === '' && attachments.length === 0) return out(null);

  // Only attachment labels and whitespace: an image-only message, sent with empty text.
  if (attachments.length > 0 && onlyAttachmentLabels(expanded)) {
    return out({
      submission: { text: '', textElements: [], attachments },
      historyEntry: { text: '', textElements: [], attachments, pendingPastes: [] },
    });
  }

  const mentions: MentionBinding[] = state.mentions.filter((m) => survivingIds.has(m.elementId)).map(({ name, path }) => ({ name, path }));
  const submission: Submission = { text, textElements: trimmed.text_elements, attachments };
  // History recalls the text as sent: a paste is plain text there, not an element.
  const historyElements = trimmed.text_elements.filter(
    (el) => el.placeholder == null || el.placeholder === sliceBytes(text, el.byte_range.start, el.byte_range.end),
  );
  const historyEntry: ComposerHistoryEntry = { text, textElements: historyElements, attachments, pendingPastes: [] };
  if (mentions.length > 0) {
    submission.mentions = mentions;
    historyEntry.mentions = mentions;
  }
  return out({ submission, historyEntry });
}

function onlyAttachmentLabels(expanded: { text: string; elements: IndexElement[] }): boolean {
  let rest = '';
  let last = 0;
  for (const el of expanded.elements) {
    if (el.kind !== 'image' && el.kind !== 'audio') continue;
    rest += expanded.text.slice(last, el.start);
    last = el.end;
  }
  rest += expanded.text.slice(last);
  return rest.trim() === '';
}

function stripElementId<T extends { elementId: number }>(a: T): Omit<T, 'elementId'> {
  const { elementId: _, ...rest } = a;
  return rest;
}
