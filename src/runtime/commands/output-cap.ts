/**
 * Caps a command's output while it streams: the first `headBytes` and the last `tailBytes` are
 * kept, the middle is replaced by one `[… N bytes omitted …]` line. Memory stays bounded however
 * much a command prints.
 */
export const DEFAULT_HEAD_BYTES = 10 * 1024;
export const DEFAULT_TAIL_BYTES = 10 * 1024;

export class HeadTailBuffer {
  private head = Buffer.alloc(0);
  private tail = Buffer.alloc(0);
  private omitted = 0;
  private total = 0;

  constructor(
    private readonly headBytes: number = DEFAULT_HEAD_BYTES,
    private readonly tailBytes: number = DEFAULT_TAIL_BYTES,
  ) {}

  get totalBytes(): number {
    return this.total;
  }

  get omittedBytes(): number {
    return this.omitted;
  }

  push(chunk: Buffer): void {
    this.total += chunk.length;
    let rest = chunk;
    if (this.head.length < this.headBytes) {
      const take = Math.min(this.headBytes - this.head.length, rest.length);
      this.head = Buffer.concat([this.head, rest.subarray(0, take)]);
      rest = rest.subarray(take);
    }
    if (rest.length === 0) return;
    const joined = Buffer.concat([this.tail, rest]);
    const overflow = joined.length - this.tailBytes;
    if (overflow > 0) {
      this.omitted += overflow;
      this.tail = joined.subarray(overflow);
    } else {
      this.tail = joined;
    }
  }

  /** The kept text. A character cut at a seam is dropped whole (counted as omitted), never mangled. */
  toString(): string {
    if (this.omitted === 0) return Buffer.concat([this.head, this.tail]).toString('utf8');
    const headEnd = completeUtf8Length(this.head);
    const tailStart = leadingContinuationBytes(this.tail);
    const head = this.head.subarray(0, headEnd).toString('utf8');
    const tail = this.tail.subarray(tailStart).toString('utf8');
    const omitted = this.omitted + (this.head.length - headEnd) + tailStart;
    const sep = head.endsWith('\n') ? '' : '\n';
    return `${head}${sep}[… ${omitted} bytes omitted …]\n${tail}`;
  }
}

const isContinuation = (byte: number): boolean => (byte & 0xc0) === 0x80;

/** Length of `bytes` without a multi-byte sequence cut off at its end. */
function completeUtf8Length(bytes: Buffer): number {
  let start = bytes.length - 1;
  // A sequence is at most 4 bytes: find the lead byte of the last one.
  while (start >= 0 && start > bytes.length - 4 && isContinuation(bytes[start]!)) start--;
  if (start < 0) return bytes.length;
  const lead = bytes[start]!;
  const needed = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return bytes.length - start >= needed ? bytes.length : start;
}

/** Continuation bytes at the start of `bytes` (the rest of a character cut off before it). */
function leadingContinuationBytes(bytes: Buffer): number {
  let count = 0;
  while (count < bytes.length && count < 3 && isContinuation(bytes[count]!)) count++;
  return count;
}

/** Caps a finished string the same way (for text that was not streamed through a buffer). */
export function capText(text: string, headBytes = DEFAULT_HEAD_BYTES, tailBytes = DEFAULT_TAIL_BYTES): string {
  const buffer = new HeadTailBuffer(headBytes, tailBytes);
  buffer.push(Buffer.from(text, 'utf8'));
  return buffer.toString();
}
