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

  /** The kept text; multi-byte characters cut at the seams decode as U+FFFD, never throw. */
  toString(): string {
    if (this.omitted === 0) return Buffer.concat([this.head, this.tail]).toString('utf8');
    const head = this.head.toString('utf8');
    const tail = this.tail.toString('utf8');
    const sep = head.endsWith('\n') ? '' : '\n';
    return `${head}${sep}[… ${this.omitted} bytes omitted …]\n${tail}`;
  }
}

/** Caps a finished string the same way (for text that was not streamed through a buffer). */
export function capText(text: string, headBytes = DEFAULT_HEAD_BYTES, tailBytes = DEFAULT_TAIL_BYTES): string {
  const buffer = new HeadTailBuffer(headBytes, tailBytes);
  buffer.push(Buffer.from(text, 'utf8'));
  return buffer.toString();
}
