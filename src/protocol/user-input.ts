/**
 * The typed user input model (core JSON shape, snake_case, as Codex protocol user_input.rs).
 * Byte ranges are UTF-8 byte offsets, never UTF-16 indices.
 */

/** Longest accepted text, in Unicode code points, summed over all text items. Equality is allowed. */
export const MAX_USER_INPUT_TEXT_CHARS = 1 << 20;

export type ImageDetail = 'auto' | 'low' | 'high' | 'original';
export const DEFAULT_IMAGE_DETAIL: ImageDetail = 'high';

export interface ByteRange {
  start: number;
  end: number;
}

export interface TextElement {
  byte_range: ByteRange;
  /** Shown text of the element; when absent, the UTF-8 slice of the text at byte_range. */
  placeholder?: string | null;
}

export type UserInput =
  | { type: 'text'; text: string; text_elements: TextElement[] }
  | { type: 'image'; image_url: string; detail?: ImageDetail | null }
  /** An image uploaded to the provider (Files API), by its id. */
  | { type: 'image_file'; file_id: string; detail?: ImageDetail | null }
  | { type: 'local_image'; path: string; detail?: ImageDetail | null }
  | { type: 'audio'; audio_url: string }
  /** An audio file uploaded to the provider, by its id. */
  | { type: 'audio_file'; file_id: string }
  | { type: 'local_audio'; path: string }
  | { type: 'skill'; name: string; path: string }
  | { type: 'mention'; name: string; path: string };

export type UserInputType = UserInput['type'];
