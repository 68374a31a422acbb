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
import { diffColoursPending } from '../diff/diff-colours.js';
import type { LiveState, TranscriptCell } from '../store-types.js';
import { cellLines } from './lines.js';
import { defaultChalk } from './row-shapes.js';
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
  /** Finished cells still to print: the screen asks for another frame at once (PRINT_ROWS_PER_FRAME). */
  more: boolean;
}

/**
 * Rows of finished cells laid out for one frame. A resumed session of a thousand turns (or any of
 * them after a resize) is printed over a few frames in order, so the composer is up at once and keys
 * are read between them, instead of everything laid out before the first frame.
 */
export const PRINT_ROWS_PER_FRAME = 400;

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

/** What the printer has printed in this epoch, and where the streaming answer stands. */
interface PrinterState {
  items: StaticItem[];
  generation: number;
  width: number;
  screenRows: number;
  epoch: number;
  lastCellId: number;
  /** The last cell id before this generation began: those cells are not printed again. */
  generationStart: number;
  flushKey: number;
  /** The streaming item whose top rows were printed early, and those rows. */
  flushedItem: string | null;
  flushedLines: readonly string[];
  /** Rows of the next agent cell already printed (its streaming copy was flushed early). */
  skip: { lines: readonly string[]; source: string } | null;
}

/** A frame and the printer state it leads to, adopted by commit() once the frame is on screen. */
export interface PrinterPlan {
  frame: PrinterFrame;
  readonly next: PrinterState;
}

/**
 * plan() is pure (the screen calls it while rendering, where the room for the answer is known);
 * commit() adopts a plan when its rows are written, so nothing counts as printed before it is.
 */
export class TranscriptPrinter {
  private state: PrinterState = {
    items: [],
    generation: -1,
    width: -1,
    screenRows: -1,
    epoch: 0,
    lastCellId: 0,
    generationStart: 0,
    flushKey: 0,
    flushedItem: null,
    flushedLines: [],
    skip: null,
  };

  /** A cache of the streaming answer's closed blocks, the same for any plan of the same text. */
  private readonly streaming: StreamingRows;

  constructor(private readonly chalk: ChalkInstance = defaultChalk) {
    this.streaming = new StreamingRows(chalk);
  }

  /** plan() and commit() at once. */
  update(...args: Parameters<TranscriptPrinter['plan']>): PrinterFrame {
    const plan = this.plan(...args);
    this.commit(plan);
    return plan.frame;
  }

  commit(plan: PrinterPlan): void {
    this.state = plan.next;
  }

  /** `screenRows`: the terminal's height; a change of it or of `width` begins a new epoch. */
  plan(
    cells: readonly TranscriptCell[],
    generation: number,
    live: LiveState,
    width: number,
    maxLiveRows: number,
    screenRows = 0,
  ): PrinterPlan {
    const s = { ...this.state };
    let items = s.items;
    // Ctrl+L starts a generation that keeps its cells off the screen: only later cells print.
    if (generation !== s.generation) s.generationStart = s.lastCellId;
    if (generation !== s.generation || width !== s.width) {
      // Everything of this generation is laid out again at this width: each cell, and the streaming answer's top rows.
      s.generation = generation;
      s.width = width;
      s.lastCellId = s.generationStart;
      s.flushedItem = null;
      s.flushedLines = [];
      s.skip = null;
      s.epoch += 1;
      items = [];
    } else if (screenRows !== s.screenRows && s.screenRows !== -1) {
      // Same rows, written again: a shorter window pushed or dropped rows the live area stood on.
      s.epoch += 1;
      items = [...items];
    }
    s.screenRows = screenRows;
    const added: StaticItem[] = [];
    let rows = 0;
    let more = false;
    for (let i = firstAfter(cells, s.lastCellId); i < cells.length; i++) {
      if (rows >= PRINT_ROWS_PER_FRAME) {
        more = true;
        break;
      }
      const cell = cells[i]!;
      const waitsForColours = (): boolean =>
        (cell.kind === 'patch' || cell.kind === 'commandChanges') && (highlighterPending() || diffColoursPending());
      // A patch whose colours are on their way is not laid out again each frame meanwhile.
      if (waitsForColours()) break;
      let lines = cellLines(cell, width, this.chalk, false, screenRows);
      // The scrollback is never rewritten, so an answer with code waits (and everything after it,
      // keeping the order) until the highlighter it just asked for has loaded; the App renders again
      // when it has.
      if (cell.kind === 'agent' && hasLanguageFence(cell.markdown) && highlighterPending()) break;
      if (waitsForColours()) break;
      s.lastCellId = cell.id;
      if (cell.kind === 'agent' && s.skip !== null) {
        // Rows that came out differently in the end are printed again: repeated beats lost.
        if (cell.markdown.startsWith(s.skip.source)) lines = lines.slice(sameRows(lines, s.skip.lines));
        s.skip = null;
      }
      if (lines.length > 0) added.push({ key: `c${cell.id}`, lines });
      rows += lines.length;
    }

    let liveAgentRows: string[] = [];
    if (live.agentText !== null && live.agentText !== '') {
      const text = live.agentText;
      const itemKey = live.agentItemId ?? '';
      if (s.flushedItem !== itemKey) {
        s.flushedItem = itemKey;
        s.flushedLines = [];
      }
      const { rows, stable } = this.streaming.update(text, width);
      let visible = rows.slice(sameRows(rows, s.flushedLines));
      const room = Math.max(1, maxLiveRows);
      // Once the answer has outgrown the live area, all its stable rows go up, frame after frame: they
      // would sit right above the live area anyway, and Ink then lays out and draws only the rows still
      // changing, not a screenful per frame. An answer with code for the highlighter sends up only the
      // rows that do not fit: its rows may still change colour (the highlighter loads on first use).
      const eager = (visible.length > room || s.flushedLines.length > 0) && !hasLanguageFence(text);
      // An answer's rows go up early only once every cell before it is printed.
      if (!more && (visible.length > room || eager)) {
        const n = flushCount(visible, eager ? visible.length : visible.length - room, stable - (rows.length - visible.length));
        if (n > 0) {
          const flushed = visible.slice(0, n);
          added.push({ key: `f${++s.flushKey}`, lines: flushed });
          s.flushedLines = [...s.flushedLines, ...flushed];
          s.skip = { lines: s.flushedLines, source: text };
          visible = visible.slice(n);
        }
      }
      liveAgentRows = visible.slice(-room);
    } else {
      s.flushedItem = null;
      s.flushedLines = [];
    }

    if (added.length > 0 || items !== s.items) s.items = [...items, ...added];
    return { frame: { items: s.items, liveAgentRows, epoch: s.epoch, more }, next: s };
  }
}

/**
 * How many leading rows the two renders share, compared without colours (highlighting comes late).
 * Rows of finished blocks are the very strings printed, so most compare equal at once.
 */
function sameRows(rows: readonly string[], printed: readonly string[]): number {
  let n = 0;
  while (
    n < rows.length &&
    n < printed.length &&
    (rows[n] === printed[n] || stripVTControlCharacters(rows[n]!) === stripVTControlCharacters(printed[n]!))
  )
    n++;
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
