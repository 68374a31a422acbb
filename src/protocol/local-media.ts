/**
 * Local media (docs/codex-parity.md#image-preparation, #local-media-snapshots): bounded reads of local
 * files, image preparation for the prompt (resize to fit 2048 px through sharp, loaded lazily), and
 * snapshots that turn LocalImage/LocalAudio into portable Image/Audio data URLs.
 */
import { createHash } from 'node:crypto';
import { constants as fsConstants, promises as fsp } from 'node:fs';
import { errorMessage } from '../error-message.js';
import type { ImageDetail, UserInput } from './user-input.js';
import { IMAGE_MIME, audioMimeForPath, imageFormatOf, mayBeImage, sniffImage } from './media-type.js';

export const MAX_PROMPT_IMAGE_INPUT_BYTES = 1024 * 1024 * 1024;
export const MAX_PROMPT_AUDIO_INPUT_BYTES = 50 * 1024 * 1024;
/**
 * Images with more pixels than this are refused before they are decoded (from the header when it
 * says, else by sharp's own limit): decoding is what takes memory (4 bytes a pixel where a format
 * cannot be decoded in strips, as GIF), and this keeps it bounded: 2^25, 33.5 million, so an 8K
 * screenshot (7680×4320) still passes.
 */
export const MAX_IMAGE_INPUT_PIXELS = 2 ** 25;
/** Bytes read first, to refuse a file that is no image before reading the rest. */
const IMAGE_HEAD_BYTES = 32;
/** Longest side after resize-to-fit; both width and height end up at most this. */
export const MAX_DIMENSION = 2048;
export const JPEG_QUALITY = 85;
/**
 * 32 entries as Codex; and, beyond Codex, a byte budget: `original` images up to 1 GiB pass through,
 * so the entry cap alone could pin gigabytes. An image over a quarter of the budget is not cached.
 */
export const DEFAULT_IMAGE_CACHE_LIMITS = { entries: 32, bytes: 256 * 1024 * 1024 } as const;
let cacheLimits: { entries: number; bytes: number } = { ...DEFAULT_IMAGE_CACHE_LIMITS };

/** Error kinds named as Rust's io::ErrorKind, as Codex's local-media errors are; fs failures keep their own. */
export type LocalMediaErrorKind = 'InvalidInput' | 'InvalidData' | 'NotFound' | 'PermissionDenied' | 'Other';

/**
 * Why local media could not be used, which chooses the path-free notice: `unreadable` (fs, encode),
 * `tooLarge` (bytes or pixels over the limit), `invalid` (the bytes do not decode as an image),
 * `unsupported` (a format we cannot use).
 */
export type LocalMediaFailure = 'unreadable' | 'tooLarge' | 'invalid' | 'unsupported';

export class LocalMediaError extends Error {
  constructor(
    readonly kind: LocalMediaErrorKind,
    readonly failure: LocalMediaFailure,
    message: string,
    /** Why, without the path, for the model's notice (`no such file`, `30000×30000 pixels, the limit is …`). */
    readonly reason: string | null = null,
  ) {
    super(message);
    this.name = 'LocalMediaError';
  }
}

/** `1.5 MiB`, `1 GiB`, `68 bytes`. */
export function formatBytes(bytes: number): string {
  const units = ['KiB', 'MiB', 'GiB'];
  let value = bytes;
  let unit = 'bytes';
  for (const next of units) {
    if (value < 1024) break;
    value /= 1024;
    unit = next;
  }
  return unit === 'bytes' ? `${bytes} bytes` : `${Number(value.toFixed(1))} ${unit}`;
}

export type MediaKind = 'image' | 'audio';

/** File system calls used for local media; injectable so tests can prove a file was never opened. */
export interface LocalMediaIo {
  stat(path: string): Promise<{ isFile(): boolean; size: number }>;
  open(path: string): Promise<fsp.FileHandle>;
}

export const nodeLocalMediaIo: LocalMediaIo = {
  stat: (path) => fsp.stat(path),
  // O_NONBLOCK: if the path was swapped for a FIFO after stat, open must not hang waiting for a writer.
  open: (path) => fsp.open(path, fsConstants.O_RDONLY | fsConstants.O_NONBLOCK),
};

export interface ReadOptions {
  /** Byte limit; defaults to the kind's limit (1 GiB image, 50 MiB audio). */
  maxBytes?: number;
  io?: LocalMediaIo;
}

function fsError(error: unknown): LocalMediaError {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const kind: LocalMediaErrorKind = code === 'ENOENT' ? 'NotFound' : code === 'EACCES' || code === 'EPERM' ? 'PermissionDenied' : 'Other';
  const message = errorMessage(error);
  const reason = kind === 'NotFound' ? 'no such file' : kind === 'PermissionDenied' ? 'permission denied' : null;
  return new LocalMediaError(kind, 'unreadable', message, reason);
}

/**
 * Reads a local media file: refuses anything but a regular file before opening it, refuses a file
 * over the limit before reading it, then reads at most limit+1 bytes and checks again (the file may
 * have grown since the stat).
 */
export async function readBoundedLocalMedia(path: string, kind: MediaKind, options: ReadOptions = {}): Promise<Buffer> {
  const max = options.maxBytes ?? (kind === 'image' ? MAX_PROMPT_IMAGE_INPUT_BYTES : MAX_PROMPT_AUDIO_INPUT_BYTES);
  const io = options.io ?? nodeLocalMediaIo;
  const tooLarge = (size: number): LocalMediaError =>
    new LocalMediaError(
      'InvalidData',
      'tooLarge',
      `${kind} input exceeds ${max} bytes`,
      `${formatBytes(size)}, the limit is ${formatBytes(max)}`,
    );
  const notFile = (): LocalMediaError =>
    new LocalMediaError('InvalidInput', 'unreadable', `${kind} input path is not a regular file`, 'not a regular file');

  let stat: { isFile(): boolean; size: number };
  try {
    stat = await io.stat(path);
  } catch (error) {
    throw fsError(error);
  }
  if (!stat.isFile()) throw notFile();
  if (stat.size > max) throw tooLarge(stat.size);

  let handle: fsp.FileHandle;
  try {
    handle = await io.open(path);
  } catch (error) {
    throw fsError(error);
  }
  try {
    const opened = await handle.stat();
    if (!opened.isFile()) throw notFile();
    if (kind === 'image') {
      // A positioned read: the reads below still start at the beginning.
      const head = Buffer.alloc(IMAGE_HEAD_BYTES);
      const { bytesRead } = await handle.read(head, 0, head.length, 0);
      if (!mayBeImage(head.subarray(0, bytesRead))) throw new LocalMediaError('Other', 'unsupported', 'unsupported image format');
    }
    // Sized from the stat, but read on until EOF or limit+1: the file may have changed since.
    const chunks: Buffer[] = [];
    let total = 0;
    let chunkSize = Math.min(max + 1, Math.max(opened.size, 0) + 1);
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(chunkSize, max + 1 - total));
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
      if (bytesRead === 0) break;
      chunks.push(chunk.subarray(0, bytesRead));
      total += bytesRead;
      if (total > max) throw tooLarge(total);
      chunkSize = 64 * 1024;
    }
    return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total);
  } catch (error) {
    throw error instanceof LocalMediaError ? error : fsError(error);
  } finally {
    await handle.close().catch(() => undefined);
  }
}

// ---- image preparation -----------------------------------------------------------------------

export type PromptImageMode = 'resizeToFit' | 'original';

export function promptImageMode(detail: ImageDetail | null | undefined): PromptImageMode {
  return detail === 'original' ? 'original' : 'resizeToFit';
}

export interface PreparedImage {
  mime: string;
  data: Buffer;
  width: number;
  height: number;
}

export function dataUrlFromBytes(mime: string, bytes: Uint8Array): string {
  return `data:${mime};base64,${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64')}`;
}

/** Target size as Rust image's resize_dimensions (fit inside, round, at least 1 px). */
export function fitWithin(width: number, height: number, max: number = MAX_DIMENSION): { width: number; height: number } {
  if (width <= max && height <= max) return { width, height };
  const ratio = Math.min(max / width, max / height);
  return { width: Math.max(1, Math.round(width * ratio)), height: Math.max(1, Math.round(height * ratio)) };
}

type Sharp = typeof import('sharp')['default'];
let sharpModule: Promise<Sharp> | undefined;

async function loadSharp(): Promise<Sharp> {
  sharpModule ??= import('sharp').then((m) => m.default);
  try {
    return await sharpModule;
  } catch (error) {
    sharpModule = undefined;
    throw new LocalMediaError('Other', 'unreadable', `image support unavailable: ${errorMessage(error)}`);
  }
}

/** Small LRU keyed by sha1(bytes) + mode: the same screenshot is often sent more than once. */
const imageCache = new Map<string, PreparedImage>();

function cacheGet(key: string): PreparedImage | undefined {
  const hit = imageCache.get(key);
  if (hit) {
    imageCache.delete(key);
    imageCache.set(key, hit);
  }
  return hit;
}

let imageCacheBytes = 0;

function cacheSet(key: string, value: PreparedImage): void {
  const previous = imageCache.get(key);
  if (previous) {
    imageCache.delete(key);
    imageCacheBytes -= previous.data.length;
  }
  if (value.data.length > cacheLimits.bytes / 4) return;
  imageCache.set(key, value);
  imageCacheBytes += value.data.length;
  while (imageCache.size > cacheLimits.entries || imageCacheBytes > cacheLimits.bytes) {
    const oldest = imageCache.entries().next().value;
    if (oldest === undefined) break;
    imageCache.delete(oldest[0]);
    imageCacheBytes -= oldest[1].data.length;
  }
}

/** Entries and bytes currently cached. */
export function imageCacheSize(): { entries: number; bytes: number } {
  return { entries: imageCache.size, bytes: imageCacheBytes };
}

/** Changes the cache limits (tests use small ones) and empties the cache. */
export function setImageCacheLimits(limits: { entries: number; bytes: number }): void {
  cacheLimits = { ...limits };
  clearImageCache();
}

export function clearImageCache(): void {
  imageCache.clear();
  imageCacheBytes = 0;
}

/** sharp reports unknown containers this way; anything else that fails to decode is "invalid". */
function isUnsupportedFormatError(error: unknown): boolean {
  return error instanceof Error && /unsupported image format/i.test(error.message);
}

function tooManyPixels(width: number, height: number): LocalMediaError {
  const limit = `${MAX_IMAGE_INPUT_PIXELS.toLocaleString('en-US')} pixels`;
  return new LocalMediaError(
    'InvalidData',
    'tooLarge',
    `image input is ${width}×${height} pixels, more than ${MAX_IMAGE_INPUT_PIXELS}`,
    `${width}×${height} pixels, the limit is ${limit}`,
  );
}

/**
 * No compressed format holds more than this many pixels a byte (deflate's best is about 8,000 for
 * 1-bit pixels): a file smaller than its header's size needs is a header with no image behind it.
 */
const MAX_PIXELS_PER_BYTE = 65_536;

/** Over the pixel limit: too large, unless the file could not hold that many pixels at all (invalid). */
function headerOverLimit(width: number, height: number, bytes: number): LocalMediaError {
  if (bytes * MAX_PIXELS_PER_BYTE < width * height) return new LocalMediaError('Other', 'invalid', 'invalid image');
  return tooManyPixels(width, height);
}

const SHARP_LIMITS = { limitInputPixels: MAX_IMAGE_INPUT_PIXELS } as const;

async function decodeAndEncode(bytes: Buffer, mode: PromptImageMode): Promise<PreparedImage> {
  const sharp = await loadSharp();
  const known = imageFormatOf(bytes);
  let meta: { width?: number | undefined; height?: number | undefined };
  try {
    meta = await sharp(bytes).metadata();
  } catch (error) {
    if (!known && isUnsupportedFormatError(error)) {
      throw new LocalMediaError('Other', 'unsupported', 'unsupported image format');
    }
    throw new LocalMediaError('Other', 'invalid', 'invalid image');
  }
  if (!meta.width || !meta.height) throw new LocalMediaError('Other', 'invalid', 'invalid image');
  if (meta.width * meta.height > MAX_IMAGE_INPUT_PIXELS) throw tooManyPixels(meta.width, meta.height);
  const target = mode === 'original' ? { width: meta.width, height: meta.height } : fitWithin(meta.width, meta.height);
  const resize = target.width !== meta.width || target.height !== meta.height;

  let pipeline = sharp(bytes, SHARP_LIMITS).keepIccProfile().keepExif();
  if (resize) pipeline = pipeline.resize(target.width, target.height, { fit: 'fill', kernel: 'linear' });
  // Re-encode in the source format when the API takes it (JPEG q85, WebP lossless), else PNG.
  let mime: string;
  if (known === 'jpeg') {
    pipeline = pipeline.jpeg({ quality: JPEG_QUALITY });
    mime = IMAGE_MIME.jpeg;
  } else if (known === 'webp') {
    pipeline = pipeline.webp({ lossless: true });
    mime = IMAGE_MIME.webp;
  } else {
    pipeline = pipeline.png();
    mime = IMAGE_MIME.png;
  }
  try {
    const { data, info } = await pipeline.toBuffer({ resolveWithObject: true });
    return { mime, data, width: info.width, height: info.height };
  } catch (error) {
    if (error instanceof LocalMediaError) throw error;
    throw new LocalMediaError('Other', 'invalid', 'invalid image');
  }
}

/**
 * Decodes the whole image and throws `invalid` if it does not decode: a header alone does not catch
 * a truncated or corrupt body, which the API would reject, failing the whole turn. Decoded into a
 * thumbnail, so the pixels flow through in strips instead of being held.
 */
async function assertDecodes(bytes: Buffer): Promise<void> {
  const sharp = await loadSharp();
  try {
    await sharp(bytes, SHARP_LIMITS).resize(64, 64, { fit: 'inside' }).raw().toBuffer();
  } catch {
    throw new LocalMediaError('Other', 'invalid', 'invalid image');
  }
}

/**
 * Prepares image bytes for the prompt (docs/codex-parity.md#image-preparation). PNG, JPEG and WebP that need no resize pass
 * through byte for byte (after a full decode check, as Codex decodes first); the rest is decoded,
 * resized to fit 2048×2048 unless `original`, and re-encoded. Results are cached by content and mode.
 */
export async function prepareImageBytes(bytes: Buffer, mode: PromptImageMode): Promise<PreparedImage> {
  const key = `${createHash('sha1').update(bytes).digest('hex')}:${mode}`;
  const cached = cacheGet(key);
  if (cached) return cached;

  const header = sniffImage(bytes);
  if (header && header.width * header.height > MAX_IMAGE_INPUT_PIXELS) throw headerOverLimit(header.width, header.height, bytes.length);
  let prepared: PreparedImage;
  if (header && header.format !== 'gif' && (mode === 'original' || (header.width <= MAX_DIMENSION && header.height <= MAX_DIMENSION))) {
    await assertDecodes(bytes);
    prepared = { mime: header.mime, data: bytes, width: header.width, height: header.height };
  } else {
    prepared = await decodeAndEncode(bytes, mode);
  }
  cacheSet(key, prepared);
  return prepared;
}

export interface PreparedLocalImage {
  dataUrl: string;
  mime: string;
  width: number;
  height: number;
  /** Size of the prepared (possibly re-encoded) image in bytes. */
  bytes: number;
}

/** Reads and prepares a local image for the TUI (attachment preview) and for conversion. */
export async function prepareLocalImage(
  path: string,
  detail: ImageDetail | null | undefined,
  options: ReadOptions = {},
): Promise<PreparedLocalImage> {
  const bytes = await readBoundedLocalMedia(path, 'image', options);
  const image = await prepareImageBytes(bytes, promptImageMode(detail));
  return {
    dataUrl: dataUrlFromBytes(image.mime, image.data),
    mime: image.mime,
    width: image.width,
    height: image.height,
    bytes: image.data.length,
  };
}

/** Reads a local audio file into a data URL; the format comes from the extension. */
export async function prepareLocalAudio(
  path: string,
  options: ReadOptions = {},
): Promise<{ dataUrl: string; mime: string; bytes: number }> {
  const mime = audioMimeForPath(path);
  if (!mime) throw new LocalMediaError('InvalidData', 'unsupported', 'unsupported audio format');
  const bytes = await readBoundedLocalMedia(path, 'audio', options);
  return { dataUrl: dataUrlFromBytes(mime, bytes), mime, bytes: bytes.length };
}

// ---- snapshots -------------------------------------------------------------------------------

export type SnapshotResult = { ok: true; input: UserInput } | { ok: false; error: LocalMediaError };

function asLocalMediaError(error: unknown): LocalMediaError {
  return error instanceof LocalMediaError ? error : new LocalMediaError('Other', 'unreadable', errorMessage(error));
}

/**
 * LocalImage → Image (data URL, same detail) and LocalAudio → Audio (data URL), so the input no
 * longer depends on the file (docs/codex-parity.md#local-media-snapshots). Other variants come back as they are. The given
 * input is never modified; on error it is simply not replaced.
 */
export async function snapshotLocalUserInput(input: UserInput, options: ReadOptions = {}): Promise<SnapshotResult> {
  try {
    if (input.type === 'local_image') {
      const image = await prepareLocalImage(input.path, input.detail, options);
      const snapshot: UserInput = { type: 'image', image_url: image.dataUrl };
      if (input.detail != null) snapshot.detail = input.detail;
      return { ok: true, input: snapshot };
    }
    if (input.type === 'local_audio') {
      const audio = await prepareLocalAudio(input.path, options);
      return { ok: true, input: { type: 'audio', audio_url: audio.dataUrl } };
    }
    return { ok: true, input };
  } catch (error) {
    return { ok: false, error: asLocalMediaError(error) };
  }
}
