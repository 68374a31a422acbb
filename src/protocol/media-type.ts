/**
 * Synchronous media sniffing from the first bytes of a file: image format and pixel size from the
 * header (no decoder, so the TUI's paste probe stays cheap), and audio MIME from the file extension.
 */

export type ImageFormat = 'png' | 'jpeg' | 'gif' | 'webp';

export interface SniffedImage {
  format: ImageFormat;
  mime: string;
  width: number;
  height: number;
}

export const IMAGE_MIME: Readonly<Record<ImageFormat, string>> = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
};

/** Enough bytes for PNG, GIF and WebP headers; JPEG may need more (SOFn can follow large EXIF). */
export const IMAGE_SNIFF_BYTES = 64 * 1024;

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function startsWith(bytes: Uint8Array, prefix: readonly number[], at = 0): boolean {
  if (bytes.length < at + prefix.length) return false;
  return prefix.every((b, i) => bytes[at + i] === b);
}

function ascii(bytes: Uint8Array, at: number, length: number): string {
  if (bytes.length < at + length) return '';
  return String.fromCharCode(...bytes.subarray(at, at + length));
}

function u16be(b: Uint8Array, at: number): number {
  return (b[at]! << 8) | b[at + 1]!;
}
function u16le(b: Uint8Array, at: number): number {
  return b[at]! | (b[at + 1]! << 8);
}
function u24le(b: Uint8Array, at: number): number {
  return b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16);
}
function u32be(b: Uint8Array, at: number): number {
  return ((b[at]! << 24) >>> 0) + ((b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!);
}

function result(format: ImageFormat, width: number, height: number): SniffedImage | null {
  if (!(width > 0 && height > 0)) return null;
  return { format, mime: IMAGE_MIME[format], width, height };
}

function sniffPng(b: Uint8Array): SniffedImage | null {
  // Signature, then the IHDR chunk: length(4) "IHDR"(4) width(4) height(4).
  if (b.length < 24 || ascii(b, 12, 4) !== 'IHDR') return null;
  return result('png', u32be(b, 16), u32be(b, 20));
}

function sniffGif(b: Uint8Array): SniffedImage | null {
  if (b.length < 10) return null;
  return result('gif', u16le(b, 6), u16le(b, 8));
}

/** SOFn markers carry the frame size; C4 (DHT), C8 (JPG) and CC (DAC) share the range but don't. */
function isStartOfFrame(marker: number): boolean {
  return marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
}

function sniffJpeg(b: Uint8Array): SniffedImage | null {
  let at = 2;
  while (at + 4 <= b.length) {
    if (b[at] !== 0xff) return null;
    const marker = b[at + 1]!;
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    // Markers without a length field.
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) {
      at += 2;
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return null; // end of image / start of scan before any SOF
    const length = u16be(b, at + 2);
    if (length < 2) return null;
    if (isStartOfFrame(marker)) {
      if (at + 9 > b.length) return null;
      return result('jpeg', u16be(b, at + 7), u16be(b, at + 5));
    }
    at += 2 + length;
  }
  return null;
}

function sniffWebp(b: Uint8Array): SniffedImage | null {
  const chunk = ascii(b, 12, 4);
  if (chunk === 'VP8 ') {
    // Lossy: frame tag (3 bytes) at 20, start code 9d 01 2a at 23, then 14-bit width/height.
    if (b.length < 30 || !startsWith(b, [0x9d, 0x01, 0x2a], 23)) return null;
    return result('webp', u16le(b, 26) & 0x3fff, u16le(b, 28) & 0x3fff);
  }
  if (chunk === 'VP8L') {
    // Lossless: signature 0x2f at 20, then 14-bit (width-1) and (height-1) packed little-endian.
    if (b.length < 25 || b[20] !== 0x2f) return null;
    const bits = (b[21]! | (b[22]! << 8) | (b[23]! << 16) | (b[24]! << 24)) >>> 0;
    return result('webp', (bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1);
  }
  if (chunk === 'VP8X') {
    // Extended: flags(4) at 20, then 24-bit (canvas width-1) and (canvas height-1).
    if (b.length < 30) return null;
    return result('webp', u24le(b, 24) + 1, u24le(b, 27) + 1);
  }
  return null;
}

/** Format and pixel size from magic bytes and header, or null when not a recognised image. */
export function sniffImage(bytes: Uint8Array): SniffedImage | null {
  if (startsWith(bytes, PNG_SIGNATURE)) return sniffPng(bytes);
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return sniffJpeg(bytes);
  const gif = ascii(bytes, 0, 6);
  if (gif === 'GIF87a' || gif === 'GIF89a') return sniffGif(bytes);
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'WEBP') return sniffWebp(bytes);
  return null;
}

/** Format from magic bytes only (no size), for choosing how to re-encode. */
export function imageFormatOf(bytes: Uint8Array): ImageFormat | null {
  if (startsWith(bytes, PNG_SIGNATURE)) return 'png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'jpeg';
  const gif = ascii(bytes, 0, 6);
  if (gif === 'GIF87a' || gif === 'GIF89a') return 'gif';
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'WEBP') return 'webp';
  return null;
}

/**
 * Whether the first bytes may start an image sharp decodes: PNG, JPEG, GIF, WebP, TIFF, HEIF/AVIF
 * (an ISO `ftyp` box), JPEG 2000, or SVG (text starting with `<`). False means certainly not.
 */
export function mayBeImage(head: Uint8Array): boolean {
  if (imageFormatOf(head) !== null) return true;
  if (startsWith(head, [0x49, 0x49, 0x2a, 0x00]) || startsWith(head, [0x4d, 0x4d, 0x00, 0x2a])) return true;
  if (ascii(head, 4, 4) === 'ftyp') return true;
  if (startsWith(head, [0x00, 0x00, 0x00, 0x0c, 0x6a, 0x50, 0x20, 0x20]) || startsWith(head, [0xff, 0x4f, 0xff, 0x51])) return true;
  // SVG: markup, after an optional byte-order mark and white space.
  let at = startsWith(head, [0xef, 0xbb, 0xbf]) ? 3 : 0;
  while (at < head.length && (head[at] === 0x20 || head[at] === 0x09 || head[at] === 0x0a || head[at] === 0x0d)) at++;
  return head[at] === 0x3c;
}

const AUDIO_MIME_BY_EXTENSION: Readonly<Record<string, string>> = {
  wav: 'audio/wav',
  mp3: 'audio/mpeg',
  m4a: 'audio/mp4',
  webm: 'audio/webm',
  ogg: 'audio/ogg',
};

/** Audio MIME type by file extension (case-insensitive), or null when unsupported. */
export function audioMimeForPath(path: string): string | null {
  const base = path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
  const dot = base.lastIndexOf('.');
  // As Rust's Path::extension: a leading dot (".mp3") names a hidden file, not an extension.
  if (dot <= 0) return null;
  const ext = base.slice(dot + 1).toLowerCase();
  return AUDIO_MIME_BY_EXTENSION[ext] ?? null;
}
