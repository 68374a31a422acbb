/**
 * The composer's MediaProbe: is a paste one path to an image (PNG, JPEG, GIF, WebP, confirmed by its
 * header) or an audio file (by extension)? Synchronous because the reducer is; it only stats the file and
 * reads its first 64 KiB (up to 1 MiB for a JPEG with large metadata), never the whole file, so a paste
 * stays instant whatever the file's size.
 */
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import path from 'node:path';
import { IMAGE_SNIFF_BYTES, audioMimeForPath, sniffImage } from '../../protocol/media-type.js';
import type { Attachment, MediaProbe } from '../composer/types.js';
import { normalizePastedPath, type PastePathContext } from './paste-path.js';

/** How far into a JPEG to look for its frame header before giving up (still far from a whole photo). */
const JPEG_SNIFF_BYTES = 1024 * 1024;

/** WSL sets these in every shell it starts. */
export function isWsl(env: NodeJS.ProcessEnv): boolean {
  return Boolean(env.WSL_DISTRO_NAME ?? env.WSL_INTEROP);
}

/** `wsl` defaults to what the environment says (see isWsl). */
export function createMediaProbe(ctx: PastePathContext): MediaProbe {
  const context = { ...ctx, wsl: ctx.wsl ?? isWsl(process.env) };
  return (pasted) => {
    const file = normalizePastedPath(pasted, context);
    return file === null ? null : probeMediaFile(file);
  };
}

/** The attachment an image or audio file makes (`-i PATH` too), or null when it is neither. */
export function probeMediaFile(file: string): Omit<Attachment, 'placeholder'> | null {
  let size: number;
  try {
    const stat = statSync(file);
    // Directories, FIFOs and devices are pasted as text (reading a FIFO could block the UI).
    if (!stat.isFile()) return null;
    size = stat.size;
  } catch {
    return null;
  }
  const base = { path: file, fileName: path.basename(file), bytes: size };
  let head = readHead(file, IMAGE_SNIFF_BYTES);
  if (head === null) return null;
  let image = sniffImage(head);
  if (image === null && isJpegStart(head) && size > head.length) {
    // A JPEG's frame header follows its metadata segments (EXIF, ICC, thumbnails), which can pass 64 KiB.
    head = readHead(file, JPEG_SNIFF_BYTES);
    image = head === null ? null : sniffImage(head);
  }
  if (image !== null) {
    return { kind: 'image', ...base, width: image.width, height: image.height, mime: image.mime };
  }
  const audioMime = audioMimeForPath(file);
  if (audioMime !== null) return { kind: 'audio', ...base, width: null, height: null, mime: audioMime };
  return null;
}

function isJpegStart(bytes: Uint8Array): boolean {
  return bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;
}

/** The first `limit` bytes of a file (fewer if it is shorter), or null when it cannot be read. */
function readHead(file: string, limit: number): Uint8Array | null {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return null;
  }
  try {
    const buffer = Buffer.alloc(limit);
    let filled = 0;
    while (filled < limit) {
      const n = readSync(fd, buffer, filled, limit - filled, filled);
      if (n === 0) break;
      filled += n;
    }
    return buffer.subarray(0, filled);
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}
