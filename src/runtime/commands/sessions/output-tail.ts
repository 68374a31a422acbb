/**
 * The last non-empty line a background command printed, for /ps (`tiller/commandSessions/list`):
 * only the text since the last newline is kept, so a chatty command costs one line of memory.
 */
const MAX_LINE_CHARS = 500;

export class OutputTail {
  private last = '';
  private partial = '';

  push(text: string): void {
    const lines = (this.partial + text).split(/\r?\n|\r/u);
    this.partial = (lines.pop() ?? '').slice(-MAX_LINE_CHARS);
    const complete = lines.filter((line) => line.trim() !== '');
    if (complete.length > 0) this.last = complete.at(-1)!.slice(-MAX_LINE_CHARS);
  }

  /** The line being written if it has text, else the last complete one; '' before any output. */
  get line(): string {
    return (this.partial.trim() !== '' ? this.partial : this.last).trimEnd();
  }
}
