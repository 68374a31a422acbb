/**
 * The lines of a file, read in large chunks and split on their bytes: faster than readline (no
 * decoding of the whole chunk, no regex), and a line split across chunks is joined once, whole.
 */
import { open } from 'node:fs/promises';

const CHUNK_BYTES = 1 << 20;
const NEWLINE = 0x0a;

/**
 * Calls `onLine` with each line's bytes (without its newline), its offset in the file and whether a
 * newline ends it (only a last line can lack one), in order, until it returns false. The bytes are
 * a view of a reused buffer: valid only during the call. Returns the size read and whether the file
 * ends with a newline (true when reading stopped early). `chunkBytes`: smaller for a read of the
 * first lines only.
 */
export async function forEachLineBytes(
  path: string,
  onLine: (bytes: Buffer, offset: number, terminated: boolean) => boolean,
  chunkBytes = CHUNK_BYTES,
): Promise<{ size: number; endsWithNewline: boolean }> {
  const handle = await open(path, 'r');
  // Two buffers: the next chunk is read while this one is split.
  const buffers = [Buffer.allocUnsafe(chunkBytes), Buffer.allocUnsafe(chunkBytes)];
  let reading = handle.read(buffers[0]!, 0, chunkBytes, 0);
  try {
    // The start of a line that runs past the chunk: copied, as the buffers are reused.
    let pending: Buffer[] = [];
    let size = 0;
    let lastByte = NEWLINE;
    for (let which = 0; ; which ^= 1) {
      const { bytesRead, buffer } = await reading;
      if (bytesRead === 0) break;
      const chunkOffset = size;
      size += bytesRead;
      reading = handle.read(buffers[which ^ 1]!, 0, chunkBytes, size);
      const chunk = buffer.subarray(0, bytesRead);
      lastByte = chunk[bytesRead - 1]!;
      let start = 0;
      for (let nl = chunk.indexOf(NEWLINE, start); nl !== -1; nl = chunk.indexOf(NEWLINE, start)) {
        const head = pending.reduce((bytes, part) => bytes + part.length, 0);
        const bytes = head > 0 ? Buffer.concat([...pending, chunk.subarray(start, nl)]) : chunk.subarray(start, nl);
        pending = [];
        const offset = chunkOffset + start - head;
        start = nl + 1;
        if (!onLine(bytes, offset, true)) return { size, endsWithNewline: true };
      }
      if (start < bytesRead) pending.push(Buffer.from(chunk.subarray(start)));
    }
    if (pending.length > 0) {
      const bytes = Buffer.concat(pending);
      onLine(bytes, size - bytes.length, false);
    }
    return { size, endsWithNewline: lastByte === NEWLINE };
  } finally {
    // A read still under way (reading stopped early) ends before the file is closed.
    await reading.catch(() => undefined);
    await handle.close();
  }
}

/** forEachLineBytes with each line decoded. */
export function forEachLine(
  path: string,
  onLine: (text: string) => boolean,
  chunkBytes = CHUNK_BYTES,
): Promise<{ size: number; endsWithNewline: boolean }> {
  return forEachLineBytes(path, (bytes) => onLine(bytes.toString('utf8')), chunkBytes);
}
