/**
 * What the next request carries for one message (`tiller/inspectInput`, runtime/inspect-input.ts
 * builds it): every content part of its Responses input after media processing, the skills injected
 * after it, the hooks that run first, and its text against the limit. Also the one text rendering
 * that `tiller inspect --report` prints and /inspect shows, so both give the same numbers.
 */
import { dataUrlInfo } from './data-url.js';
import { countChars } from './limits.js';
import { IMAGE_SNIFF_BYTES, sniffImage } from './media-type.js';
import type { ContentItem, MessageRole, ResponseItem } from './response-items.js';
import type { ImageDetail } from './user-input.js';

/** One content part of a Responses input message. `ref`: a remote URL or a Files API id (null for data). */
export type TillerInputPart =
  | { role: MessageRole; type: 'text'; chars: number; preview: string }
  | {
      role: MessageRole;
      type: 'image';
      detail: ImageDetail;
      mime: string | null;
      /** Pixels as sent (after resizing), read from the encoded image's header. */
      width: number | null;
      height: number | null;
      bytes: number | null;
      ref: string | null;
    }
  | { role: MessageRole; type: 'audio'; mime: string | null; bytes: number | null; ref: string | null };

export interface TillerInjectedSkill {
  name: string;
  path: string;
  /** Code points of the `<skill>` fragment sent as a user message after the input. */
  chars: number;
}

export interface TillerInputReport {
  /** In request order: the user message's parts, then the developer message of path-free notices. */
  parts: TillerInputPart[];
  skills: TillerInjectedSkill[];
  /** UserPromptSubmit hook commands: they run when the message is sent; what they add is known only then. */
  hooks: string[];
  /** Code points of the text items, as the limit counts them. */
  textChars: number;
  maxTextChars: number;
}

/** Code points of a text part's preview. */
export const PREVIEW_CHARS = 120;

/** The first PREVIEW_CHARS code points. */
export function textPreview(text: string): string {
  let end = 0;
  let count = 0;
  for (const ch of text) {
    if (count++ === PREVIEW_CHARS) break;
    end += ch.length;
  }
  return text.slice(0, end);
}

/** Every content part of the messages, in order. */
export function describeParts(items: readonly ResponseItem[]): TillerInputPart[] {
  return items.flatMap((item) => (item.type === 'message' ? item.content.map((c) => describePart(item.role, c)) : []));
}

function describePart(role: MessageRole, c: ContentItem): TillerInputPart {
  switch (c.type) {
    case 'input_text':
    case 'output_text':
      return { role, type: 'text', chars: countChars(c.text), preview: textPreview(c.text) };
    case 'input_image': {
      const none = { role, type: 'image' as const, detail: c.detail, mime: null, width: null, height: null, bytes: null };
      if ('file_id' in c) return { ...none, ref: c.file_id };
      const data = dataUrlInfo(c.image_url, IMAGE_SNIFF_BYTES);
      if (data === null) return { ...none, ref: c.image_url };
      const size = sniffImage(data.head);
      return { ...none, mime: data.mime, width: size?.width ?? null, height: size?.height ?? null, bytes: data.bytes, ref: null };
    }
    case 'input_audio': {
      const data = dataUrlInfo(c.audio_url);
      return data === null
        ? { role, type: 'audio', mime: null, bytes: null, ref: c.audio_url }
        : { role, type: 'audio', mime: data.mime, bytes: data.bytes, ref: null };
    }
    case 'input_file':
      return { role, type: 'audio', mime: null, bytes: null, ref: c.file_id };
  }
}

const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;

/** Control characters as `\uXXXX`: user text must not reach the terminal as escape sequences. */
export function visible(text: string): string {
  return text.replace(CONTROL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** A text preview in quotes, `…` after it when the text goes on. */
export function quotedPreview(preview: string, chars: number): string {
  const quoted = visible(JSON.stringify(preview));
  return chars > countChars(preview) ? `${quoted}…` : quoted;
}

function partLine(part: TillerInputPart): string {
  if (part.type === 'text') return `text   ${part.chars} chars  ${quotedPreview(part.preview, part.chars)}`;
  const size = part.type === 'image' && part.width !== null && part.height !== null ? `${part.width}×${part.height}` : null;
  const facts = [part.mime, size, part.bytes === null ? null : `${part.bytes} bytes`, part.ref === null ? null : visible(part.ref)];
  if (part.type === 'image') facts.push(`detail ${part.detail}`);
  return `${part.type === 'image' ? 'image' : 'audio'}  ${facts.filter((f) => f !== null).join(', ')}`;
}

function roleHeader(role: MessageRole): string {
  return role === 'developer' ? 'developer message (path-free notices):' : `${role} message:`;
}

/** The report as lines of text (unwrapped, no styling). */
export function inputReportLines(report: TillerInputReport): string[] {
  const out: string[] = [];
  let role: MessageRole | null = null;
  for (const part of report.parts) {
    if (part.role !== role) out.push(roleHeader((role = part.role)));
    out.push(`  ${partLine(part)}`);
  }
  if (report.parts.length === 0) out.push('user message: empty');
  out.push(report.skills.length === 0 ? 'skills injected: none' : 'skills injected after it:');
  for (const skill of report.skills) out.push(`  $${visible(skill.name)}  ${visible(skill.path)} (${skill.chars} chars)`);
  out.push(
    report.hooks.length === 0
      ? 'UserPromptSubmit hooks: none'
      : 'UserPromptSubmit hooks (run when it is sent; what they add is known only then):',
  );
  for (const hook of report.hooks) out.push(`  ${visible(hook)}`);
  const over = report.textChars - report.maxTextChars;
  out.push(
    `text: ${report.textChars} of ${report.maxTextChars} characters${over > 0 ? `, ${over} over the limit: it would be refused` : ''}`,
  );
  return out;
}
