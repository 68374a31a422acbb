/**
 * Why a path given with `-i/--image` cannot be an image, said before anything is sent: the TUI and
 * `tiller exec` refuse it as a usage error naming the path (the user typed it), where the model only
 * ever gets a path-free notice. Only stats the file and reads its first bytes.
 */
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { mayBeImage } from './media-type.js';

const HEAD_BYTES = 64;

/** Null when the file may be an image; else the reason, as `no such file`. */
export function imageFileProblem(path: string): string | null {
  let fd: number;
  try {
    if (!statSync(path).isFile()) return 'not a regular file';
    fd = openSync(path, 'r');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return 'no such file';
    if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
    return `cannot be read (${code ?? 'error'})`;
  }
  try {
    const head = Buffer.alloc(HEAD_BYTES);
    const read = readSync(fd, head, 0, HEAD_BYTES, 0);
    return mayBeImage(head.subarray(0, read)) ? null : 'not an image file (PNG, JPEG, GIF or WebP)';
  } catch (error) {
    return `cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`;
  } finally {
    closeSync(fd);
  }
}
