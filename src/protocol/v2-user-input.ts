/**
 * The v2 (app-server, camelCase) shape of user input. Its own module so the wire modules that carry
 * it (thread.ts, client-requests.ts, pending-input.ts) build on it without importing each other.
 */
import type { ImageDetail } from './user-input.js';

export interface V2TextElement {
  byteRange: { start: number; end: number };
  placeholder: string | null;
}

/** v2 UserInput: variant names camelCase, field names as Codex (note `text_elements`). */
export type V2UserInput =
  | { type: 'text'; text: string; text_elements: V2TextElement[] }
  /** By `url`, or (uploaded to the provider's Files API) by `fileId`: exactly one of the two, as Codex. */
  | { type: 'image'; url?: string; fileId?: string; detail?: ImageDetail | null }
  | { type: 'localImage'; path: string; detail?: ImageDetail | null }
  | { type: 'audio'; url?: string; fileId?: string }
  | { type: 'localAudio'; path: string }
  | { type: 'skill'; name: string; path: string }
  | { type: 'mention'; name: string; path: string };
