/**
 * What the draft journal (chat/draft-journal.ts) keeps: everything typed and not yet sent — the
 * composer draft as shown (paste labels with their payloads, attachments with their labels, the
 * caret), the Ctrl+S stash, Vim mode, and the messages waiting above the composer — as a versioned
 * JSON document, and the way back into a composer. Pure.
 *
 * The draft is kept as shown, not expanded: loaded back, a `[Pasted Content N chars]` label is again
 * one atomic element with its payload, so Enter sends exactly what it would have sent before.
 */
import { shiftTextElements } from '../../protocol/text-element.js';
import { byteLength, byteOffsetToIndex, indexToByteOffset } from '../../protocol/utf8.js';
import type { TextElement } from '../../protocol/user-input.js';
import { currentHistoryEntry, isEmpty, loadDraft } from './draft.js';
import type { PendingPaste } from './history.js';
import type { ComposerState } from './state.js';
import { setCursor } from './textarea.js';
import type { Attachment, MentionBinding, QueuedInputAction, Submission } from './types.js';
import { applySnapshot, EMPTY_UNDO, snapshotDraft } from './undo.js';
import { clampNormal, toInsert, toNormal } from './vim.js';

export const DRAFT_DOCUMENT_VERSION = 1;

export interface SavedDraft {
  /** As shown: `!` in front in shell mode, paste labels rather than their payloads. */
  text: string;
  textElements: TextElement[];
  pendingPastes: PendingPaste[];
  attachments: Attachment[];
  mentions?: MentionBinding[];
  /** The caret, as a UTF-8 byte offset into `text`. */
  cursor: number;
}

export interface SavedVim {
  enabled: boolean;
  /** Visual modes are kept as Normal: a selection does not outlive the session. */
  mode: 'normal' | 'insert';
}

/** A message that was waiting (pending or rejected steer, queued follow-up), as it would be sent. */
export interface SavedInput {
  submission: Submission;
  action: QueuedInputAction;
}

export interface UnsentInput {
  draft: SavedDraft | null;
  stash: SavedDraft | null;
  vim: SavedVim;
  /** In the order an interrupt restores them: rejected steers, pending steers, queued follow-ups. */
  waiting: SavedInput[];
}

export interface DraftDocument extends UnsentInput {
  version: typeof DRAFT_DOCUMENT_VERSION;
  cwd: string;
  /** The thread the draft was typed in (null: none had started a turn yet). */
  threadId: string | null;
  /** The process that wrote it: a draft of a live Tiller is not taken over by another. */
  pid: number;
}

type WaitingLists = {
  [K in 'pendingSteers' | 'rejectedSteers' | 'queued']: ReadonlyArray<{ submission: Submission; action?: QueuedInputAction }>;
};

/** The composer's draft as shown, or null when it is empty. */
export function savedDraftOf(composer: ComposerState): SavedDraft | null {
  if (isEmpty(composer)) return null;
  const entry = currentHistoryEntry(composer);
  const prefix = composer.bashMode ? 1 : 0;
  const saved: SavedDraft = {
    text: entry.text,
    textElements: entry.textElements,
    pendingPastes: entry.pendingPastes,
    attachments: entry.attachments,
    cursor: indexToByteOffset(entry.text, composer.ta.cursor + prefix),
  };
  if (entry.mentions !== undefined) saved.mentions = entry.mentions;
  return saved;
}

export function unsentInputOf(composer: ComposerState, lists: WaitingLists): UnsentInput {
  const stash = composer.stash === null ? null : savedDraftOf(applySnapshot(composer, composer.stash.draft));
  const steer = (p: { submission: Submission }): SavedInput => ({ submission: p.submission, action: 'plain' });
  return {
    draft: savedDraftOf(composer),
    stash,
    vim: { enabled: composer.vimEnabled, mode: composer.vim.mode === 'insert' ? 'insert' : 'normal' },
    waiting: [
      ...lists.rejectedSteers.map(steer),
      ...lists.pendingSteers.map(steer),
      ...lists.queued.map((q) => ({ submission: q.submission, action: q.action ?? 'plain' })),
    ],
  };
}

export function hasUnsentInput(u: UnsentInput): boolean {
  return u.draft !== null || u.stash !== null || u.waiting.length > 0;
}

/** Every attachment path in it (draft, stash, waiting messages). */
export function attachmentPaths(u: UnsentInput): string[] {
  const lists = [u.draft?.attachments ?? [], u.stash?.attachments ?? [], ...u.waiting.map((w) => w.submission.attachments)];
  return lists.flatMap((list) => list.map((a) => a.path));
}

/** The same input with attachment paths replaced (`paths` maps old to new; others stay). */
export function withAttachmentPaths<T extends UnsentInput>(u: T, paths: ReadonlyMap<string, string>): T {
  if (paths.size === 0) return u;
  const move = (list: Attachment[]): Attachment[] => list.map((a) => ({ ...a, path: paths.get(a.path) ?? a.path }));
  const draft = (d: SavedDraft | null): SavedDraft | null => (d === null ? null : { ...d, attachments: move(d.attachments) });
  return {
    ...u,
    draft: draft(u.draft),
    stash: draft(u.stash),
    waiting: u.waiting.map((w) => ({ ...w, submission: { ...w.submission, attachments: move(w.submission.attachments) } })),
  };
}

export function encodeDraftDocument(doc: DraftDocument): string {
  return JSON.stringify(doc);
}

export class DraftDocumentError extends Error {
  constructor(
    message: string,
    /** Written by a newer Tiller: left alone rather than treated as damaged. */
    readonly newerVersion = false,
  ) {
    super(message);
    this.name = 'DraftDocumentError';
  }
}

/** Parses and checks a journal file; throws DraftDocumentError saying what is wrong. */
export function decodeDraftDocument(text: string): DraftDocument {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new DraftDocumentError(`not JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  const doc = record(raw, 'document');
  if (typeof doc.version === 'number' && doc.version > DRAFT_DOCUMENT_VERSION) {
    throw new DraftDocumentError(`version ${doc.version} is newer than this Tiller reads (${DRAFT_DOCUMENT_VERSION})`, true);
  }
  if (doc.version !== DRAFT_DOCUMENT_VERSION) throw new DraftDocumentError(`unknown version ${JSON.stringify(doc.version)}`);
  const vim = record(doc.vim, 'vim');
  const mode = vim.mode;
  if (mode !== 'normal' && mode !== 'insert') throw new DraftDocumentError('vim.mode: not normal or insert');
  return {
    version: DRAFT_DOCUMENT_VERSION,
    cwd: string(doc.cwd, 'cwd'),
    threadId: doc.threadId === null ? null : string(doc.threadId, 'threadId'),
    pid: integer(doc.pid, 'pid'),
    draft: doc.draft === null ? null : savedDraft(doc.draft, 'draft'),
    stash: doc.stash === null ? null : savedDraft(doc.stash, 'stash'),
    vim: { enabled: boolean(vim.enabled, 'vim.enabled'), mode },
    waiting: array(doc.waiting, 'waiting').map((w, i) => savedInput(w, `waiting[${i}]`)),
  };
}

// ---- back into the composer ---------------------------------------------------------------------

/**
 * The composer with the saved draft and stash back, in the saved Vim mode (Vim itself is switched on
 * or off by the caller, which keeps that setting). A draft already in the composer stays, after the
 * saved one; a stash already there stays too, and the saved stash joins the draft instead.
 */
export function restoreComposer(composer: ComposerState, u: UnsentInput): ComposerState {
  let state = composer;
  if (state.vimEnabled) {
    const insert = u.vim.mode === 'insert';
    state = { ...state, vim: insert ? toInsert(state.vim) : toNormal(state.vim), ta: insert ? state.ta : clampNormal(state.ta) };
  }
  const stashJoins = u.stash !== null && state.stash !== null;
  if (u.draft !== null || stashJoins) {
    const drafts = [u.draft, stashJoins ? u.stash : null, savedDraftOf(state)].filter((d): d is SavedDraft => d !== null);
    state = loadSaved(state, drafts);
  }
  if (u.stash !== null && !stashJoins) {
    const stashed = loadSaved(state, [u.stash]);
    state = {
      ...state,
      ta: { ...state.ta, nextElementId: stashed.ta.nextElementId },
      stash: { draft: snapshotDraft(stashed), undo: EMPTY_UNDO },
    };
  }
  return state;
}

/** Loads drafts as one; a single draft gets its caret back, joined ones end with the caret at the end. */
function loadSaved(state: ComposerState, drafts: readonly SavedDraft[]): ComposerState {
  const one = drafts.length === 1 ? drafts[0]! : joinDrafts(drafts);
  const loaded = loadDraft(state, one);
  if (drafts.length !== 1) return loaded;
  const at = byteOffsetToIndex(one.text, one.cursor);
  if (at === null) return loaded;
  const ta = setCursor(loaded.ta, Math.max(0, at - (loaded.bashMode ? 1 : 0)));
  return { ...loaded, ta: loaded.vimEnabled && loaded.vim.mode === 'normal' ? clampNormal(ta) : ta };
}

/**
 * Several drafts as one, newline-joined. Labels may repeat (two `[Image #1]`): loadDraft binds each
 * element to the first unused attachment or payload with its label, in order, and renumbers.
 */
function joinDrafts(drafts: readonly SavedDraft[]): SavedDraft {
  let text = '';
  const joined: SavedDraft = { text: '', textElements: [], pendingPastes: [], attachments: [], cursor: 0 };
  const mentions: MentionBinding[] = [];
  for (const d of drafts) {
    if (text !== '') text += '\n';
    joined.textElements.push(...shiftTextElements(d.textElements, byteLength(text)));
    text += d.text;
    joined.pendingPastes.push(...d.pendingPastes);
    joined.attachments.push(...d.attachments);
    mentions.push(...(d.mentions ?? []));
  }
  joined.text = text;
  joined.cursor = byteLength(text);
  if (mentions.length > 0) joined.mentions = mentions;
  return joined;
}

/** The one-line notice after a restore, e.g. `Restored your unsent draft: 2 pastes, 1 image and 1 queued message`. */
export function restoreNotice(u: UnsentInput): { text: string; hint?: string } {
  const queued = u.waiting.length === 0 ? null : plural(u.waiting.length, 'queued message');
  let text: string;
  if (u.draft !== null) {
    const kinds = (kind: Attachment['kind']): number => u.draft!.attachments.filter((a) => a.kind === kind).length;
    const counts = [
      [u.draft.pendingPastes.length, 'paste'],
      [kinds('image'), 'image'],
      [kinds('audio'), 'audio file'],
    ] as const;
    const parts = counts.filter(([n]) => n > 0).map(([n, noun]) => plural(n, noun));
    text = `Restored your unsent draft${parts.length > 0 ? `: ${parts.join(', ')}` : ''}${queued === null ? '' : ` and ${queued}`}`;
  } else if (queued !== null) text = `Restored ${queued}`;
  else text = 'Restored your stashed draft';
  const hints: string[] = [];
  if (queued !== null) {
    const one = u.waiting.length === 1;
    hints.push(
      `${one ? 'The queued message waits' : `The ${queued} wait`}: your next Enter sends ${one ? 'it' : 'them'} (before anything you type).`,
    );
  }
  if (u.stash !== null)
    hints.push(u.draft !== null || queued !== null ? 'Your stashed draft is back too: Ctrl+S brings it back.' : 'Ctrl+S brings it back.');
  return hints.length > 0 ? { text, hint: hints.join(' ') } : { text };
}

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

// ---- shape checks -------------------------------------------------------------------------------

function record(v: unknown, what: string): Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new DraftDocumentError(`${what}: not an object`);
  return v as Record<string, unknown>;
}

function string(v: unknown, what: string): string {
  if (typeof v !== 'string') throw new DraftDocumentError(`${what}: not a string`);
  return v;
}

function integer(v: unknown, what: string): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) throw new DraftDocumentError(`${what}: not a whole number`);
  return v;
}

function boolean(v: unknown, what: string): boolean {
  if (typeof v !== 'boolean') throw new DraftDocumentError(`${what}: not true or false`);
  return v;
}

function array(v: unknown, what: string): unknown[] {
  if (!Array.isArray(v)) throw new DraftDocumentError(`${what}: not a list`);
  return v;
}

function nullableInteger(v: unknown, what: string): number | null {
  return v === null ? null : integer(v, what);
}

function textElement(v: unknown, what: string): TextElement {
  const el = record(v, what);
  const range = record(el.byte_range, `${what}.byte_range`);
  const out: TextElement = { byte_range: { start: integer(range.start, `${what}.start`), end: integer(range.end, `${what}.end`) } };
  if (el.placeholder !== undefined) out.placeholder = el.placeholder === null ? null : string(el.placeholder, `${what}.placeholder`);
  return out;
}

function attachment(v: unknown, what: string): Attachment {
  const a = record(v, what);
  if (a.kind !== 'image' && a.kind !== 'audio') throw new DraftDocumentError(`${what}.kind: not image or audio`);
  return {
    kind: a.kind,
    placeholder: string(a.placeholder, `${what}.placeholder`),
    path: string(a.path, `${what}.path`),
    fileName: string(a.fileName, `${what}.fileName`),
    bytes: integer(a.bytes, `${what}.bytes`),
    width: nullableInteger(a.width, `${what}.width`),
    height: nullableInteger(a.height, `${what}.height`),
    mime: string(a.mime, `${what}.mime`),
  };
}

function mentionList(v: unknown, what: string): MentionBinding[] {
  return array(v, what).map((m, i) => {
    const r = record(m, `${what}[${i}]`);
    return { name: string(r.name, `${what}[${i}].name`), path: string(r.path, `${what}[${i}].path`) };
  });
}

function savedDraft(v: unknown, what: string): SavedDraft {
  const d = record(v, what);
  const out: SavedDraft = {
    text: string(d.text, `${what}.text`),
    textElements: array(d.textElements, `${what}.textElements`).map((e, i) => textElement(e, `${what}.textElements[${i}]`)),
    pendingPastes: array(d.pendingPastes, `${what}.pendingPastes`).map((p, i) => {
      const r = record(p, `${what}.pendingPastes[${i}]`);
      return {
        placeholder: string(r.placeholder, `${what}.pendingPastes[${i}].placeholder`),
        text: string(r.text, `${what}.pendingPastes[${i}].text`),
      };
    }),
    attachments: array(d.attachments, `${what}.attachments`).map((a, i) => attachment(a, `${what}.attachments[${i}]`)),
    cursor: integer(d.cursor, `${what}.cursor`),
  };
  if (d.mentions !== undefined) out.mentions = mentionList(d.mentions, `${what}.mentions`);
  return out;
}

function savedInput(v: unknown, what: string): SavedInput {
  const w = record(v, what);
  if (w.action !== 'plain' && w.action !== 'parseSlash' && w.action !== 'runShell') throw new DraftDocumentError(`${what}.action: unknown`);
  const s = record(w.submission, `${what}.submission`);
  const submission: Submission = {
    text: string(s.text, `${what}.text`),
    textElements: array(s.textElements, `${what}.textElements`).map((e, i) => textElement(e, `${what}.textElements[${i}]`)),
    attachments: array(s.attachments, `${what}.attachments`).map((a, i) => attachment(a, `${what}.attachments[${i}]`)),
  };
  if (s.mentions !== undefined) submission.mentions = mentionList(s.mentions, `${what}.mentions`);
  return { submission, action: w.action };
}
