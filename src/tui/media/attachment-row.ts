/**
 * The row shown above the composer for each attachment: `[Image #1] shot.png · 1.2 MB · 4000×3000`.
 * A file over the size limit says so at once (the model would only be told it could not be read).
 */
import { MAX_PROMPT_AUDIO_INPUT_BYTES, MAX_PROMPT_IMAGE_INPUT_BYTES } from '../../protocol/local-media.js';
import type { Attachment } from '../composer/types.js';
import { sanitize } from '../markdown.js';

type RowFields = Pick<Attachment, 'kind' | 'placeholder' | 'fileName' | 'bytes' | 'width' | 'height'>;

export function formatAttachmentRow(att: RowFields): string {
  const parts = [`${att.placeholder} ${sanitize(att.fileName)}`, humanSize(att.bytes)];
  if (att.width !== null && att.height !== null) parts.push(`${att.width}×${att.height}`);
  const limit = att.kind === 'image' ? MAX_PROMPT_IMAGE_INPUT_BYTES : MAX_PROMPT_AUDIO_INPUT_BYTES;
  if (att.bytes > limit) parts.push(`too large to send (${att.kind} limit ${binarySize(limit)})`);
  return parts.join(' · ');
}

function binarySize(bytes: number): string {
  return bytes % 2 ** 30 === 0 ? `${bytes / 2 ** 30} GiB` : `${bytes / 2 ** 20} MiB`;
}

const UNITS = ['KB', 'MB', 'GB'] as const;

/**
 * Decimal units (1 KB = 1000 B), as the labels say and as file managers such as Finder show them:
 * bytes as an integer, larger sizes with one decimal (`999 B`, `1.2 KB`, `3.4 MB`, `1.1 GB`).
 */
export function humanSize(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  let value = bytes;
  let unit: (typeof UNITS)[number] = 'KB';
  for (const u of UNITS) {
    value /= 1000;
    unit = u;
    // Round first so 999,960 B shows as `1.0 MB`, not `1000.0 KB`.
    if (Number(value.toFixed(1)) < 1000 || u === 'GB') break;
  }
  return `${value.toFixed(1)} ${unit}`;
}
