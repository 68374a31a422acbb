/**
 * Vim registers (`:help registers`): the unnamed register `""`, `"0` (last yank), `"1`–`"9`
 * (deletes of a line or more, shifted), `"-` (smaller deletes), `"a`–`"z` (`"A`–`"Z` append) and
 * the black hole `"_`.
 *
 * A register keeps what its elements stood for: a pasted-content placeholder keeps its payload,
 * `[Image #N]` its file, `$skill` its binding. Putting it back creates new elements: a new numbered
 * placeholder with the same payload, a new attachment numbered as attachments are (paste.ts).
 */
import { countChars } from '../../../protocol/limits.js';
import { killedEntry } from '../kill-ring.js';
import { nextLargePastePlaceholder } from '../paste.js';
import { attachmentLabel, type ComposerAttachment, type ComposerMention, type ComposerState, type PendingPaste } from '../state.js';
import { markElement, replaceRange, type ElementKind } from '../textarea.js';
import type { Attachment, MentionBinding } from '../types.js';
import type { RegisterContent, RegisterElement, Registers } from './state.js';

/** A name that may follow `"`. */
export function isRegisterName(c: string): boolean {
  return /^[a-zA-Z0-9"_-]$/.test(c);
}

export function readRegister(regs: Registers, name: string | null): RegisterContent | null {
  if (name === null || name === '"') return regs.unnamed;
  if (name === '_') return null;
  return regs.named[name.toLowerCase()] ?? null;
}

/** `"A`: appended to `"a` (Vim: linewise if either part is, else the texts run on). */
export function appendContent(old: RegisterContent | undefined, add: RegisterContent): RegisterContent {
  if (old === undefined) return add;
  if (!old.linewise && !add.linewise) return joinContents([old, add], false);
  return joinContents([old, '\n', add], true);
}

function withNamed(regs: Registers, name: string, content: RegisterContent): { regs: Registers; stored: RegisterContent } {
  const lower = name.toLowerCase();
  const stored = name !== lower ? appendContent(regs.named[lower], content) : content;
  return { regs: { ...regs, named: { ...regs.named, [lower]: stored } }, stored };
}

/** A yank: into `"0` (or the named register), and the unnamed register. */
export function storeYank(regs: Registers, name: string | null, content: RegisterContent): Registers {
  if (name === '_') return regs;
  const { regs: next, stored } = withNamed(regs, name === null || name === '"' ? '0' : name, content);
  return { ...next, unnamed: stored };
}

/**
 * A delete or change: into the named register if one was given; a delete of a line or more also
 * into `"1` (the older ones shift to `"2`…`"9`), a smaller one without a name into `"-`.
 */
export function storeDelete(regs: Registers, name: string | null, content: RegisterContent): Registers {
  if (name === '_') return regs;
  let next = regs;
  let unnamed = content;
  const given = name !== null && name !== '"';
  if (given) ({ regs: next, stored: unnamed } = withNamed(next, name, content));
  const named: Record<string, RegisterContent> = { ...next.named };
  if (content.linewise || content.text.includes('\n')) {
    for (let i = 9; i > 1; i--) {
      const prev = named[String(i - 1)];
      if (prev !== undefined) named[String(i)] = prev;
    }
    named['1'] = content;
  } else if (!given) named['-'] = content;
  return { unnamed, named };
}

/** The text `[start, end)` with what its elements stand for. */
export function captureRange(state: ComposerState, start: number, end: number, linewise: boolean): RegisterContent {
  return { ...killedEntry(state, start, end), linewise };
}

/** Plain strings and register contents run together into one content. */
export function joinContents(parts: ReadonlyArray<string | RegisterContent>, linewise: boolean): RegisterContent {
  let text = '';
  const elements: RegisterElement[] = [];
  for (const part of parts) {
    if (typeof part === 'string') {
      text += part;
      continue;
    }
    for (const e of part.elements) elements.push({ ...e, start: e.start + text.length, end: e.end + text.length });
    text += part.text;
  }
  return { text, linewise, elements };
}

/** `content` repeated `times` (linewise: as that many more lines). */
export function repeatContent(content: RegisterContent, times: number): RegisterContent {
  const parts: Array<string | RegisterContent> = [];
  for (let i = 0; i < times; i++) {
    if (i > 0 && content.linewise) parts.push('\n');
    parts.push(content);
  }
  return joinContents(parts, content.linewise);
}

interface NewElement {
  start: number;
  end: number;
  kind: ElementKind;
  attachment?: Omit<Attachment, 'placeholder'> & { placeholder: string };
  mention?: MentionBinding;
}

/**
 * Inserts `content` at `at` (a character boundary) as new text and new elements; the caret ends
 * after it. Returns the state and the end of the inserted text.
 */
export function insertContent(state: ComposerState, at: number, content: RegisterContent): { state: ComposerState; end: number } {
  const pendingPastes: PendingPaste[] = [...state.pendingPastes];
  const counts = { image: 0, audio: 0 };
  for (const a of state.attachments) counts[a.kind] += 1;
  let out = '';
  let last = 0;
  const added: NewElement[] = [];
  for (const el of [...content.elements].sort((a, b) => a.start - b.start)) {
    out += content.text.slice(last, el.start);
    last = el.end;
    let label = content.text.slice(el.start, el.end);
    const start = out.length;
    if (el.kind === 'paste' && el.paste !== undefined) {
      label = nextLargePastePlaceholder(pendingPastes, countChars(el.paste));
      pendingPastes.push({ placeholder: label, text: el.paste });
      added.push({ start, end: start + label.length, kind: 'paste' });
    } else if (el.attachment !== undefined) {
      counts[el.attachment.kind] += 1;
      label = attachmentLabel(el.attachment.kind, counts[el.attachment.kind]);
      added.push({ start, end: start + label.length, kind: el.attachment.kind, attachment: { ...el.attachment, placeholder: label } });
    } else if (el.kind === 'mention' && el.mention !== undefined) {
      added.push({ start, end: start + label.length, kind: 'mention', mention: el.mention });
    }
    // Anything else (a slash command, a label without its payload) goes back as plain text.
    out += label;
  }
  out += content.text.slice(last);

  let ta = replaceRange(state.ta, at, at, out);
  const end = at + out.length;
  const attachments: ComposerAttachment[] = [...state.attachments];
  const mentions: ComposerMention[] = [...state.mentions];
  for (const el of added) {
    const elementId = ta.nextElementId;
    ta = markElement(ta, at + el.start, at + el.end, el.kind);
    if (el.attachment !== undefined) attachments.push({ ...el.attachment, elementId });
    if (el.mention !== undefined) mentions.push({ ...el.mention, elementId });
  }
  ta = { ...ta, cursor: end };
  return { state: { ...state, ta, pendingPastes, attachments, mentions }, end };
}
