/**
 * Ctrl+T: the whole transcript in a full-screen pager (the terminal's alternate screen), as Codex's
 * transcript overlay. It follows the end while the answer streams unless scrolled up; ↑/↓ (j/k),
 * PgUp/PgDn (b/space), Home/End (g/G) move; q, Esc or Ctrl+T close it. Esc-Esc backtrack opens it
 * with a prompt highlighted (chat/backtrack.ts takes its keys); /inspect shows the next request in it
 * (inspector.ts). Pure: lines, keys, a frame.
 */
import stringWidth from '../string-width.js';
import type { ChalkInstance } from 'chalk';
import { BACKTRACK_PAGER_KEYS } from '../chat/sessions/backtrack.js';
import type { KeyEvent } from '../keys/types.js';
import { agentLines, cellLines, liveCommandLines, reasoningLines } from '../components/lines.js';
import { liveMcpLines } from '../components/mcp-lines.js';
import { defaultChalk } from '../components/row-shapes.js';
import type { LiveState, PagerState, TranscriptCell } from '../store-types.js';

export type { PagerState } from '../store-types.js';

export const PAGER_TITLE = 'Transcript';
const REVERSE_ON = '\x1b[7m';
const REVERSE_OFF = '\x1b[27m';
export const PAGER_KEYS = '↑/↓ scroll · PgUp/PgDn page · Home/End · q close';

export type PagerKeyResult = PagerState | 'close';

/** What a key does in a pager showing `total` lines in `height` rows (the status bar excluded). */
export function pagerKey(state: PagerState, key: KeyEvent, total: number, height: number): PagerKeyResult {
  const ch = key.name === 'char' && !key.alt ? key.char : undefined;
  if (key.name === 'escape' || (ch === 'q' && !key.ctrl) || (ch === 't' && key.ctrl) || (ch === 'c' && key.ctrl)) return 'close';
  if (key.ctrl) return state;
  const last = Math.max(0, total - height);
  const top = state.top ?? last;
  const to = (n: number): PagerState => {
    const clamped = Math.min(last, Math.max(0, n));
    return { top: clamped >= last ? null : clamped };
  };
  if (key.name === 'up' || ch === 'k') return to(top - 1);
  if (key.name === 'down' || ch === 'j') return to(top + 1);
  if (key.name === 'pageup' || ch === 'b') return to(top - height);
  if (key.name === 'pagedown' || ch === ' ') return to(top + height);
  if (key.name === 'home' || ch === 'g') return to(0);
  if (key.name === 'end' || ch === 'G') return { top: null };
  return state;
}

/** Each finished cell's rows are kept per width: the pager redraws on every streamed delta. */
export class TranscriptLines {
  private width = -1;
  private readonly cache = new Map<number, string[]>();
  /** Where each cell's rows were in the last lines() (its blank separator row first). */
  private readonly ranges = new Map<number, { start: number; end: number }>();

  constructor(private readonly chalk: ChalkInstance = defaultChalk) {}

  /** The rows of cell `id` in the last lines(), or null when it was not among them. */
  rangeOf(id: number): { start: number; end: number } | null {
    return this.ranges.get(id) ?? null;
  }

  lines(cells: readonly TranscriptCell[], live: LiveState, width: number): string[] {
    if (width !== this.width) {
      this.width = width;
      this.cache.clear();
    }
    const out: string[] = [];
    this.ranges.clear();
    for (const cell of cells) {
      let rows = this.cache.get(cell.id);
      if (rows === undefined) {
        rows = cellLines(cell, width, this.chalk, true);
        this.cache.set(cell.id, rows);
      }
      this.ranges.set(cell.id, { start: out.length, end: out.length + rows.length });
      out.push(...rows);
    }
    if (live.reasoning) out.push('', ...reasoningLines(live.reasoning, width, this.chalk, true));
    if (live.agentText !== null && live.agentText !== '') out.push('', ...agentLines(live.agentText, width, this.chalk, true));
    if (live.command !== null) out.push(...liveCommandLines(live.command, width, this.chalk));
    out.push(...liveMcpLines(live, width, this.chalk));
    return out;
  }
}

/**
 * Where a backtrack highlight puts the view: its prompt's first row at the top, the blank separator
 * row above it out of view (null: the end of the transcript is in view then).
 */
export function topFor(range: { start: number; end: number }, total: number, height: number): number | null {
  const top = range.start + 1;
  return top >= Math.max(0, total - height) ? null : top;
}

/**
 * The whole screen: `rows - 1` lines of transcript and a status bar, each row drawn in place;
 * `highlight`'s rows (a backtrack prompt, its separator row left out) in reverse video.
 */
export function pagerFrame(
  lines: readonly string[],
  state: PagerState,
  cols: number,
  rows: number,
  c: ChalkInstance = defaultChalk,
  highlight: { start: number; end: number } | null = null,
): string {
  const height = Math.max(1, rows - 1);
  const last = Math.max(0, lines.length - height);
  const top = Math.min(state.top ?? last, last);
  let out = '';
  for (let y = 0; y < height; y++) {
    const at = top + y;
    const line = lines[at] ?? '';
    const lit = highlight !== null && at > highlight.start && at < highlight.end;
    // Reverse video is not a colour: it is drawn even where colours are off (NO_COLOR, a dumb terminal).
    out += `\x1b[${y + 1};1H${lit ? `${REVERSE_ON}${line}${' '.repeat(Math.max(0, cols - stringWidth(line)))}${REVERSE_OFF}` : line}\x1b[K`;
  }
  const shown = lines.length === 0 ? 'empty' : `${top + 1}–${Math.min(lines.length, top + height)} of ${lines.length}`;
  const keys = highlight === null ? PAGER_KEYS : BACKTRACK_PAGER_KEYS;
  const title = state.inspect?.title ?? PAGER_TITLE;
  let bar = ` ${title} · ${shown} · ${keys} `;
  if (stringWidth(bar) > cols) bar = ` ${title} · ${shown} · q ${highlight === null ? 'close' : 'cancel'} `;
  out += `\x1b[${rows};1H${c.inverse(bar)}\x1b[K`;
  return out;
}
