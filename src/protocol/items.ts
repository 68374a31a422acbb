/**
 * The user message as a history item (Codex protocol items.rs UserMessageItem): the typed content
 * kept as given, with views for the transcript and history (joined text, shifted elements, attachments).
 */
import { randomUUID } from 'node:crypto';
import { placeholder } from './text-element.js';
import type { ImageDetail, TextElement, UserInput } from './user-input.js';
import { byteLength } from './utf8.js';

export class UserMessageItem {
  readonly id: string;
  readonly clientId: string | null;
  readonly content: readonly UserInput[];

  constructor(content: readonly UserInput[], options: { id?: string; clientId?: string | null } = {}) {
    this.id = options.id ?? randomUUID();
    this.clientId = options.clientId ?? null;
    this.content = [...content];
  }

  /** The text items joined with nothing between them; media never becomes text. */
  message(): string {
    return this.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
  }

  /**
   * Every text item's elements, shifted by the UTF-8 byte length of the text items before it, so
   * they index into message(). The placeholder is resolved against the item's own text.
   */
  textElements(): TextElement[] {
    const out: TextElement[] = [];
    let offset = 0;
    for (const input of this.content) {
      if (input.type !== 'text') continue;
      for (const el of input.text_elements) {
        out.push({
          byte_range: { start: offset + el.byte_range.start, end: offset + el.byte_range.end },
          placeholder: placeholder(el, input.text),
        });
      }
      offset += byteLength(input.text);
    }
    return out;
  }

  imageUrls(): string[] {
    return this.content.flatMap((c) => (c.type === 'image' ? [c.image_url] : []));
  }

  localImagePaths(): string[] {
    return this.content.flatMap((c) => (c.type === 'local_image' ? [c.path] : []));
  }

  audioUrls(): string[] {
    return this.content.flatMap((c) => (c.type === 'audio' ? [c.audio_url] : []));
  }

  localAudioPaths(): string[] {
    return this.content.flatMap((c) => (c.type === 'local_audio' ? [c.path] : []));
  }

  /**
   * The requested detail of each image (remote and local, in order; null = not given). Trailing
   * nulls are trimmed so a message without explicit details records none, not a row of nulls.
   */
  imageDetails(): Array<ImageDetail | null> {
    const details = this.content.flatMap((c) => (c.type === 'image' || c.type === 'local_image' ? [c.detail ?? null] : []));
    while (details.length > 0 && details[details.length - 1] === null) details.pop();
    return details;
  }
}
