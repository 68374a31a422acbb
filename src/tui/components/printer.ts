/**
 * Decides what goes into Ink's <Static> (printed once into the scrollback, never rewritten) and what
 * stays in the live area. Finished cells are printed as they appear. A streaming answer taller than
 * the room left on screen has its top rows printed early, so the live area always stays shorter than
 * the terminal: Ink clears the whole terminal and reprints everything when it does not. Only rows of
 * complete source lines are printed early (a line still arriving re-renders: `1.` becomes `1. text`);
 * rows that cannot be printed yet and do not fit wait off screen until they can. A finished answer
 * with a fenced code block is held back while the syntax highlighter loads.
 */
import type { ChalkInstance } from 'chalk';
import { stripVTControlCharacters } from 'node:util';
import { hasLanguageFence, highlighterPending } from '../markdown.js';
import type { LiveState, TranscriptCell } from '../store.js';
import { agentLines, cellLines, defaultChalk, FENCE_LINE, markdownBlocks } from './lines.js';

export interface StaticItem {
  key: string;
  lines: string[];
}

export interface PrinterFrame {
  /** Everything printed so far in this generation (Static prints only the new tail). */
  items: StaticItem[];
  /** Rows of the streaming answer still shown in the live area. */
  liveAgentRows: string[];
  generation: number;
}

export class TranscriptPrinter {
  private items: StaticItem[] = [];
  private generation = -1;
  private lastCellId = 0;
  private flushKey = 0;
  /** The streaming item whose top rows were printed early, and those rows. */
  private flushedItem: string | null = null;
  private flushedLines: string[] = [];
  /** Rows of the next agent cell already printed (its streaming copy was flushed early). */
  private skip: { lines: string[]; source: string } | null = null;

  constructor(private readonly chalk: ChalkInstance = defaultChalk) {}

  update(
    cells: readonly TranscriptCell[],
    generation: number,
    live: LiveState,
    width: number,
    maxLiveRows: number,
  ): PrinterFrame {
    let items = this.items;
    if (generation !== this.generation) {
      this.generation = generation;
      items = [];
    }
    const added: StaticItem[] = [];
    for (const cell of cells) {
      if (cell.id <= this.lastCellId) continue;
      let lines = cellLines(cell, width, this.chalk);
      // The scrollback is never rewritten, so an answer with code waits (and everything after it,
      // keeping the order) until the highlighter it just asked for has loaded; the App renders again
      // when it has.
      if (cell.kind === 'agent' && hasLanguageFence(cell.markdown) && highlighterPending()) break;
      this.lastCellId = cell.id;
      if (cell.kind === 'agent' && this.skip !== null) {
        // Rows that came out differently in the end are printed again: repeated beats lost.
        if (cell.markdown.startsWith(this.skip.source)) lines = lines.slice(sameRows(lines, this.skip.lines));
        this.skip = null;
      }
      if (lines.length > 0) added.push({ key: `c${cell.id}`, lines });
    }

    let liveAgentRows: string[] = [];
    if (live.agentText !== null && live.agentText !== '') {
      const text = live.agentText;
      const itemKey = live.agentItemId ?? '';
      if (this.flushedItem !== itemKey) {
        this.flushedItem = itemKey;
        this.flushedLines = [];
      }
      const rows = ['', ...agentLines(text, width, this.chalk, true)];
      let visible = rows.slice(sameRows(rows, this.flushedLines));
      const room = Math.max(1, maxLiveRows);
      if (visible.length > room) {
        const stable = stableRows(rows, text, width, this.chalk);
        const n = flushCount(visible, visible.length - room, stable - (rows.length - visible.length));
        if (n > 0) {
          const flushed = visible.slice(0, n);
          added.push({ key: `f${++this.flushKey}`, lines: flushed });
          this.flushedLines = [...this.flushedLines, ...flushed];
          this.skip = { lines: this.flushedLines, source: text };
          visible = visible.slice(n);
        }
      }
      liveAgentRows = visible.slice(-room);
    } else {
      this.flushedItem = null;
      this.flushedLines = [];
    }

    if (added.length > 0 || items !== this.items) {
      items = [...items, ...added];
      this.items = items;
    }
    return { items: this.items, liveAgentRows, generation: this.generation };
  }
}

/**
 * How many leading rows of the streaming render are final. Blocks render on their own, so every block
 * but the last is final. In the last one a later line can re-lay out earlier ones (a table's column
 * widths, a setext underline, a list turning loose), except in a fenced code block: there the rows of
 * complete lines are final, all but the last (an open fence's empty row gets its code).
 */
function stableRows(rows: readonly string[], text: string, width: number, chalk: ChalkInstance): number {
  const render = (markdown: string): string[] => ['', ...agentLines(markdown, width, chalk, true)];
  const blocks = markdownBlocks(text);
  const closed = blocks.length > 1 ? sameRows(rows, render(blocks.slice(0, -1).join('\n\n'))) : 0;
  if (!FENCE_LINE.test(blocks.at(-1) ?? '')) return closed;
  const complete = text.slice(0, text.lastIndexOf('\n') + 1);
  const settled = complete.slice(0, complete.lastIndexOf('\n', complete.length - 2) + 1);
  return Math.max(closed, sameRows(rows, render(settled)));
}

/** How many leading rows the two renders share, compared without colours (highlighting comes late). */
function sameRows(rows: readonly string[], printed: readonly string[]): number {
  let n = 0;
  while (n < rows.length && n < printed.length && stripVTControlCharacters(rows[n]!) === stripVTControlCharacters(printed[n]!)) n++;
  return n;
}

/**
 * Rows to print early: the overflow, but no more than the stable rows, and never only blank rows (Ink
 * drops a static write that is only a blank row), so a flush carries text or waits.
 */
function flushCount(visible: readonly string[], overflow: number, stable: number): number {
  let n = Math.max(0, Math.min(overflow, stable));
  while (n < stable && visible.slice(0, n).every((row) => row === '')) n++;
  return visible.slice(0, n).some((row) => row !== '') ? n : 0;
}
