/**
 * The rows of an answer still streaming, kept from frame to frame: a block closes once a blank line
 * and the start of the next block have arrived, is laid out once, and is never looked at again. A
 * frame then costs the open block, not the answer so far, so a long answer streams in linear time.
 * Rows equal `['', ...agentLines(text, width, c, true)]`; `stable` is how many of them are final.
 */
import type { ChalkInstance } from 'chalk';
import { agentRows, agentTextWidth, fenceAfter, renderBlockCached } from './lines.js';

export interface StreamingFrame {
  rows: string[];
  /**
   * Leading rows no later text can change: every closed block's; in an open fenced code block also
   * the rows of its complete lines but the last (an open fence's empty row gets its code).
   */
  stable: number;
}

export class StreamingRows {
  private text = '';
  private width = -1;
  /** Rows of the closed blocks (bullet and indent applied, blank rows between), the leading blank row not included. */
  private closed: string[] = [];
  /** Where the open block starts in `text`. */
  private openStart = 0;

  constructor(private readonly chalk: ChalkInstance) {}

  update(text: string, width: number): StreamingFrame {
    if (width !== this.width || !text.startsWith(this.text)) this.reset(width);
    this.text = text;
    this.closeBlocks();
    const open = this.openBlock(text.slice(this.openStart));
    const rows = ['', ...this.closed, ...open];
    const closedStable = this.closed.length > 0 ? 1 + this.closed.length : 0;
    if (!endsInOpenFence(text.slice(this.openStart))) return { rows, stable: closedStable };
    // In an open code block the complete lines are final, all but the last one.
    const complete = text.slice(0, text.lastIndexOf('\n') + 1);
    const settledEnd = complete.lastIndexOf('\n', complete.length - 2) + 1;
    const settled = this.openBlock(text.slice(this.openStart, Math.max(this.openStart, settledEnd)));
    let same = 0;
    while (same < open.length && same < settled.length && open[same] === settled[same]) same++;
    return { rows, stable: Math.max(closedStable, 1 + this.closed.length + same) };
  }

  private reset(width: number): void {
    this.width = width;
    this.text = '';
    this.closed = [];
    this.openStart = 0;
  }

  /** Moves every block that a blank line and a following unindented line closed into `closed`. */
  private closeBlocks(): void {
    let lineStart = this.openStart;
    let blockStart = this.openStart;
    let fence: string | null = null;
    let blank = true;
    for (;;) {
      const end = this.text.indexOf('\n', lineStart);
      if (end === -1) break;
      const line = this.text.slice(lineStart, end);
      fence = fenceAfter(fence, line);
      const nextStart = end + 1;
      // A boundary needs the next line to have begun: an indented one continues the block, an empty one does not.
      const next = this.text[nextStart];
      if (fence === null && line.trim() === '' && next !== undefined && (next === '\n' || !/\s/.test(next))) {
        if (!blank) this.addClosed(this.text.slice(blockStart, lineStart - 1));
        blockStart = nextStart;
        blank = true;
        this.openStart = nextStart;
      } else if (line.trim() !== '') blank = false;
      lineStart = nextStart;
    }
  }

  private addClosed(block: string): void {
    const body = renderBlockCached(block, agentTextWidth(this.width), this.chalk, true);
    const first = this.closed.length === 0;
    if (!first) this.closed.push('');
    this.closed.push(...agentRows(body, first, this.chalk));
  }

  /** The open block's rows (with the blank row before it when blocks came first); none while it is blank. */
  private openBlock(source: string): string[] {
    if (source.trim() === '') return [];
    const body = renderBlockCached(source, agentTextWidth(this.width), this.chalk, false);
    const first = this.closed.length === 0;
    return [...(first ? [] : ['']), ...agentRows(body, first, this.chalk)];
  }
}

/**
 * Whether the block ends inside a fenced code block: only there do complete lines stay as they are
 * (after a closed fence, a table or a list can still change the rows of the lines before).
 */
function endsInOpenFence(block: string): boolean {
  return block.split('\n').reduce<string | null>(fenceAfter, null) !== null;
}
