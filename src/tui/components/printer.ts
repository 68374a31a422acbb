/**
 * Decides what goes into Ink's <Static> (printed once into the scrollback, never rewritten) and what
 * stays in the live area. Finished cells are printed as they appear. A streaming answer taller than
 * the room left on screen has its top rows printed early, so the live area always stays shorter than
 * the terminal: Ink clears the whole terminal and reprints everything when it does not. A finished
 * answer with a fenced code block is held back while the syntax highlighter loads.
 */
import type { ChalkInstance } from 'chalk';
import { hasLanguageFence, highlighterPending } from '../markdown.js';
import type { LiveState, TranscriptCell } from '../store.js';
import { agentLines, cellLines, defaultChalk } from './lines.js';

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
  /** The streaming item whose top rows were printed early, and how many rows. */
  private flushedItem: string | null = null;
  private flushedRows = 0;
  private flushedSource = '';
  /** Rows of the next agent cell already printed (its streaming copy was flushed early). */
  private skip: { rows: number; source: string } | null = null;

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
        if (cell.markdown.startsWith(this.skip.source)) lines = lines.slice(this.skip.rows);
        this.skip = null;
      }
      if (lines.length > 0) added.push({ key: `c${cell.id}`, lines });
    }

    let liveAgentRows: string[] = [];
    if (live.agentText !== null && live.agentText !== '') {
      const itemKey = live.agentItemId ?? '';
      if (this.flushedItem !== itemKey) {
        this.flushedItem = itemKey;
        this.flushedRows = 0;
      }
      const rows = ['', ...agentLines(live.agentText, width, this.chalk, true)];
      let visible = rows.slice(this.flushedRows);
      const room = Math.max(1, maxLiveRows);
      if (visible.length > room) {
        let n = visible.length - room;
        // Ink drops a static write that is only a blank row, so a flush always carries some text.
        while (n < visible.length && visible.slice(0, n).every((row) => row === '')) n++;
        added.push({ key: `f${++this.flushKey}`, lines: visible.slice(0, n) });
        this.flushedRows += n;
        this.flushedSource = live.agentText;
        this.skip = { rows: this.flushedRows, source: this.flushedSource };
        visible = visible.slice(n);
      }
      liveAgentRows = visible;
    } else {
      this.flushedItem = null;
      this.flushedRows = 0;
    }

    if (added.length > 0 || items !== this.items) {
      items = [...items, ...added];
      this.items = items;
    }
    return { items: this.items, liveAgentRows, generation: this.generation };
  }
}
