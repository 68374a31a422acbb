/**
 * Writes a file and waits until the disk has it (fsync), owner-only (0600): a draft saved here
 * survives a crash or a kill -9 right after, and nobody else can read it.
 */
import { closeSync, fsyncSync, openSync, writeSync } from 'node:fs';
import { open } from 'node:fs/promises';

export async function writeDurably(file: string, data: string | Buffer): Promise<void> {
  const handle = await open(file, 'w', 0o600);
  try {
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export function writeDurablySync(file: string, data: string | Buffer): void {
  const fd = openSync(file, 'w', 0o600);
  try {
    const buffer = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    let written = 0;
    while (written < buffer.length) written += writeSync(fd, buffer, written, buffer.length - written);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
