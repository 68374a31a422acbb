/**
 * The lines of a file, read in large chunks and split on their bytes: faster than readline (no
 * decoding of the whole chunk, no regex), and a line split across chunks is decoded once, whole.
 */
import { open } from 'node:fs/promises';

const CHUNK_BYTES = 1 << 20;
const NEWLINE = 0x0a;

/**
 * Calls `onLine` with each line (without its newline), in order, until it returns false. Returns
 * the size read and whether the file ends with a newline (true when reading stopped early).
 * `chunkBytes`: smaller for a read of the first lines only.
 */
export async function forEachLine(
  path: string,
  onLine: (text: string) => boolean,
  chunkBytes = CHUNK_BYTES,
): Promise<{ size: number; endsWithNewline: boolean }> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.allocUnsafe(chunkBytes);
    // The start of a line that runs past the chunk: copied, as the buffer is reused.
    let pending: Buffer[] = [];
    let size = 0;
    let lastByte = NEWLINE;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, chunkBytes, null);
      if (bytesRead === 0) break;
      const chunk = buffer.subarray(0, bytesRead);
      size += bytesRead;
      lastByte = chunk[bytesRead - 1]!;
      let start = 0;
      for (let nl = chunk.indexOf(NEWLINE, start); nl !== -1; nl = chunk.indexOf(NEWLINE, start)) {
        const text = pending.length > 0 ? Buffer.concat([...pending, chunk.subarray(start, nl)]).toString('utf8') : chunk.toString('utf8', start, nl);
        pending = [];
        start = nl + 1;
        if (!onLine(text)) return { size, endsWithNewline: true };
      }
      if (start < bytesRead) pending.push(Buffer.from(chunk.subarray(start)));
    }
    if (pending.length > 0) onLine(Buffer.concat(pending).toString('utf8'));
    return { size, endsWithNewline: lastByte === NEWLINE };
  } finally {
    await handle.close();
  }
}
