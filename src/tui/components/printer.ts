/**
 * Decides what is printed into the scrollback (once, never rewritten: Tiller writes those rows
 * itself, above Ink's live area) and what stays in the live area. Finished cells are printed as
 * they appear. A streaming answer taller than the room left on screen has its stable rows printed
 * early, so the live area always stays shorter than the terminal. Only rows of complete source
 * lines are printed early (a line still arriving re-renders: `1.` becomes `1. text`); rows that
 * cannot be printed yet and do not fit wait off screen until they can. A finished answer with a
 * fenced code block is held back while the syntax highlighter loads.
 *
 * A new size starts a new epoch: the terminal has re-flowed (or cut) what it showed, so the screen
 * and the scrollback are cleared and the whole transcript is printed again, at the new width; the
 * conversation is then in the scrollback exactly once, whatever the window went through.
 */
import type { ChalkInstance } from 'chalk';
import { stripVTControlCharacters } from 'node:util';
import { hasLanguageFence, highlighterPending } from '../markdown.js';
import type { LiveState, TranscriptCell } from '../store.js';
import { cellLines, defaultChalk } from './lines.js';
import { StreamingRows } from './streaming-rows.js';

export interface StaticItem {
  key: string;
  lines: string[];
}

export interface PrinterFrame {
  /** Everything printed so far in this epoch (the screen writes only the new tail). */
  items: StaticItem[];
  /** Rows of the streaming answer still shown in the live area. */
  liveAgentRows: string[];
  /** Changes with the generation (/clear, /new) and with the terminal's size: the scrollback is written anew. */
  epoch: number;
}

/**
 * The index of the first cell with an id above `id`. Cells are appended in id order, so a frame
 * looks at the new cells only, not at the 20,000 of a long session.
 */
export function firstAfter(cells: readonly TranscriptCell[], id: number): number {
  let low = 0;
  let high = cells.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (cells[mid]!.id <= id) low = mid + 1;
    else high = mid;
  }
  return low;
}

export class TranscriptPrinter {
  private items: StaticItem[] = [];
  private generation = -1;
  private width = -1;
  private screenRows = -1;
  private epoch = 0;
  private lastCellId = 0;
  /** The last cell id before this generation began: those cells are not printed again. */
  private generationStart = 0;
  private flushKey = 0;
  /** The streaming item whose top rows were printed early, and those rows. */
  private flushedItem: string | null = null;
  private flushedLines: string[] = [];
  /** Rows of the next agent cell already printed (its streaming copy was flushed early). */
  private skip: { lines: string[]; source: string } | null = null;

  private readonly streaming: StreamingRows;

  constructor(private readonly chalk: ChalkInstance = defaultChalk) {
    this.streaming = new StreamingRows(chalk);
  }

  /** `screenRows`: the terminal's height; a change of it or of `width` begins a new epoch. */
  update(
    cells: readonly TranscriptCell[],
    generation: number,
    live: LiveState,
    width: number,
    maxLiveRows: number,
    screenRows = 0,
  ): PrinterFrame {
    let items = this.items;
    // Ctrl+L starts a generation that keeps its cells off the screen: only later cells print.
    if (generation !== this.generation) this.generationStart = this.lastCellId;
    if (generation !== this.generation || width !== this.width) {
      // Everything of this generation is laid out again at this width: each cell, and the streaming answer's top rows.
      this.generation = generation;
      this.width = width;
      this.lastCellId = this.generationStart;
      this.flushedItem = null;
      this.flushedLines = [];
      this.skip = null;
      this.epoch += 1;
      items = [];
    } else if (screenRows !== this.screenRows && this.screenRows !== -1) {
      // Same rows, written again: a shorter window pushed or dropped rows the live area stood on.
      this.epoch += 1;
      items = [...items];
    }
    this.screenRows = screenRows;
    const added: StaticItem[] = [];
    for (let i = firstAfter(cells, this.lastCellId); i < cells.length; i++) {
      const cell = cells[i]!;
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
      const { rows, stable } = this.streaming.update(text, width);
      let visible = rows.slice(sameRows(rows, this.flushedLines));
      const room = Math.max(1, maxLiveRows);
      // Once the answer has outgrown the live area, all its stable rows go up, frame after frame: they
      // would sit right above the live area anyway, and Ink then lays out and draws only the rows still
      // changing, not a screenful per frame. An answer with code for the highlighter sends up only the
      // rows that do not fit: its rows may still change colour (the highlighter loads on first use).
      const eager = (visible.length > room || this.flushedLines.length > 0) && !hasLanguageFence(text);
      if (visible.length > room || eager) {
        const n = flushCount(visible, eager ? visible.length : visible.length - room, stable - (rows.length - visible.length));
        if (n > 0) {
          const flushed = visible.slice(0, n);
          added.push({ key: `f${++this.flushKey}`, lines: flushed });
          this.flushedLines.push(...flushed);
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
    return { items: this.items, liveAgentRows, epoch: this.epoch };
  }
}

/**
 * How many leading rows the two renders share, compared without colours (highlighting comes late).
 * Rows of finished blocks are the very strings printed, so most compare equal at once.
 */
function sameRows(rows: readonly string[], printed: readonly string[]): number {
  let n = 0;
  while (n < rows.length && n < printed.length && (rows[n] === printed[n] || stripVTControlCharacters(rows[n]!) === stripVTControlCharacters(printed[n]!))) n++;
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
