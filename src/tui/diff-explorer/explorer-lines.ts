/**
 * The /diff explorer on the alternate screen: the file list grouped by turn (or the working tree's
 * files), or one file's diff through the patch cell's rows (diff/diff-rows.ts: numbers, syntax
 * colour, changed words); under it a notice or prompt row, and a footer bar naming the keys, the
 * view toggle first. Pure: a state and a size in, a frame out.
 */
import type { ChalkInstance } from 'chalk';
import { wrapWithPrefix } from '../components/row-shapes.js';
import { diffRows } from '../diff/diff-rows.js';
import { sanitize } from '../markdown.js';
import stringWidth from '../string-width.js';
import { truncateToWidth } from '../text-width.js';
import type { PatchCellFile } from '../store-types.js';
import { contentOf, type ExplorerState, filesOf, revertKey, selectedFile, TOGGLE_KEY } from './explorer-state.js';
import type { PatchFile } from './patch-files.js';
import { palette } from '../theme.js';

export const EXPLORER_TITLE = 'Diff explorer';
const VIEW_NAMES = { session: 'this session', git: 'git working tree' } as const;

function counts(file: PatchFile, c: ChalkInstance): string {
  return file.binary ? c.dim('binary') : `${palette(c).added(`+${file.added}`)} ${palette(c).removed(`−${file.removed}`)}`;
}

const VERB = { add: 'added', delete: 'deleted', update: 'edited' } as const;

/** The list's rows and which row the selection is on. */
export function listRows(state: ExplorerState, width: number, c: ChalkInstance): { rows: string[]; selectedRow: number } {
  const content = contentOf(state);
  if (content.status === 'loading') return { rows: [c.dim(' Loading…')], selectedRow: -1 };
  if (content.status === 'message') return { rows: wrapWithPrefix(content.text, width, ' ', ' '), selectedRow: -1 };
  const rows: string[] = [];
  let index = 0;
  let selectedRow = -1;
  for (const group of content.groups) {
    rows.push(...wrapWithPrefix(c.bold(sanitize(group.title)), width, ' ', '   '));
    for (const file of group.files) {
      const mine = index === state.selected;
      if (mine) selectedRow = rows.length;
      const reverted = state.reverted.includes(revertKey(group.turnId, file.path)) ? ` ${palette(c).warning('reverted')}` : '';
      const text = `${sanitize(file.path)} ${c.dim(VERB[file.kind])} ${counts(file, c)}${reverted}`;
      const wrapped = wrapWithPrefix(text, width, mine ? ' › ' : '   ', '     ');
      rows.push(...(mine ? wrapped.map((row) => c.inverse(row)) : wrapped));
      index++;
    }
  }
  return { rows, selectedRow };
}

/** The file as the patch cell's diff rows take it. */
export function asCellFile(file: PatchFile): PatchCellFile {
  // The hunks are always numbered as an update's: a new file's come as `@@ -0,0 +1,N @@`.
  return { path: file.path, kind: 'update', movePath: null, diff: file.hunks, added: file.added, removed: file.removed };
}

/** The open diff's rows, at most `maxRows` of them (a 5,000-line file costs what is on screen); `more`: rows left. */
export function fileDiffRows(file: PatchFile, width: number, c: ChalkInstance, maxRows: number): { rows: string[]; more: number } {
  const head = wrapWithPrefix(`${c.bold(sanitize(file.path))} ${c.dim(VERB[file.kind])} ${counts(file, c)}`, width, ' ', '   ');
  if (file.binary) return { rows: [...head, c.dim('    binary file, not shown')], more: 0 };
  if (file.hunks === '') return { rows: [...head, c.dim('    no text changes (a mode change or an empty file)')], more: 0 };
  const diff = diffRows(asCellFile(file), width, c, Math.max(0, maxRows - head.length));
  return { rows: [...head, ...diff.rows], more: diff.more };
}

export function footerKeys(state: ExplorerState): string {
  const other = state.view === 'session' ? VIEW_NAMES.git : VIEW_NAMES.session;
  const toggle = state.diffOpen ? null : `${TOGGLE_KEY} ${other}`;
  const move = state.diffOpen ? '↑/↓ scroll' : '↑/↓ select · Enter diff';
  const act = selectedFile(state) === null ? [] : [state.view === 'session' ? 'r revert' : null, 'y copy', 's save'];
  return [toggle, move, ...act, state.diffOpen ? 'Esc back' : 'q close'].filter((k) => k !== null).join(' · ');
}

interface ExtraRow {
  text: string;
  style: (text: string) => string;
  /** Keep the end in view (a path being typed). */
  tail: boolean;
}

/** The rows above the footer: a notice, then a prompt (plain text, coloured whole once fitted). */
function extraRows(state: ExplorerState, c: ChalkInstance): ExtraRow[] {
  const out: ExtraRow[] = [];
  if (state.notice !== null)
    out.push({ text: ` ${sanitize(state.notice.text)}`, style: state.notice.error ? palette(c).danger : palette(c).success, tail: false });
  const prompt = state.prompt;
  if (prompt?.kind === 'save')
    out.push({ text: ` Save the patch to (Enter save · Esc cancel): ${sanitize(prompt.path)}█`, style: (t) => t, tail: true });
  if (prompt?.kind === 'confirmRevert') {
    const names = prompt.paths.map(sanitize).join(', ');
    out.push({
      text: ` Changed by hand since the agent's last turn: ${names}. Overwrite? (y/Enter yes · n/Esc no)`,
      style: palette(c).warning,
      tail: false,
    });
  }
  return out;
}

/** `text` in `cols` cells; `tail`: keep its end (a path being typed) rather than its start. */
function fit(text: string, cols: number, tail = false): string {
  if (stringWidth(text) <= cols) return text;
  if (!tail) return truncateToWidth(text, cols);
  const chars = [...text];
  while (chars.length > 1 && stringWidth(`…${chars.join('')}`) > cols) chars.shift();
  return `…${chars.join('')}`;
}

/**
 * The whole screen. `body`: the list's rows or the open diff's from `state.top` on (the caller
 * keeps them to what is shown); `selectedRow`: in the list, the row to keep in view.
 */
export function explorerFrame(
  body: readonly string[],
  selectedRow: number,
  state: ExplorerState,
  cols: number,
  rows: number,
  c: ChalkInstance,
): string {
  const extra = extraRows(state, c);
  const height = bodyHeight(state, rows);
  const top = state.diffOpen ? 0 : Math.max(0, Math.min(selectedRow - Math.floor(height / 2), body.length - height));
  let out = '';
  for (let y = 0; y < height; y++) out += `\x1b[${y + 1};1H${body[top + y] ?? ''}\x1b[K`;
  for (const [i, row] of extra.entries()) out += `\x1b[${height + 1 + i};1H${row.style(fit(row.text, cols, row.tail))}\x1b[K`;
  const count = filesOf(state).length;
  const where = state.diffOpen
    ? (selectedFile(state)?.file.path ?? '')
    : `${VIEW_NAMES[state.view]}${count > 0 ? ` · ${count} file${count === 1 ? '' : 's'}` : ''}`;
  // Narrower, the title goes first, then where the view is: the keys stay longest.
  const bars = [
    ` ${EXPLORER_TITLE} · ${sanitize(where)} · ${footerKeys(state)} `,
    ` ${sanitize(where)} · ${footerKeys(state)} `,
    ` ${footerKeys(state)} `,
  ];
  const bar = fit(bars.find((b) => stringWidth(b) <= cols) ?? bars[2]!, cols);
  out += `\x1b[${rows};1H${c.inverse(bar)}\x1b[K`;
  return out;
}

/** Rows of the body on screen (a prompt and a notice take one each). */
export function bodyHeight(state: ExplorerState, rows: number): number {
  return Math.max(1, rows - 1 - (state.prompt !== null ? 1 : 0) - (state.notice !== null ? 1 : 0));
}

/** The explorer's frames: the open diff's rows are counted once per file, width and depth scrolled to. */
export class ExplorerFrames {
  private last: { file: PatchFile; width: number; upto: number; rows: string[] } | null = null;

  constructor(private readonly c: ChalkInstance) {}

  frame(state: ExplorerState, cols: number, rows: number): string {
    const width = Math.max(10, cols);
    const selected = selectedFile(state);
    if (!state.diffOpen || selected === null) {
      const list = listRows(state, width, this.c);
      return explorerFrame(list.rows, list.selectedRow, state, cols, rows, this.c);
    }
    const height = bodyHeight(state, rows);
    const upto = state.top > Number.MAX_SAFE_INTEGER / 2 ? Infinity : state.top + height;
    const last = this.last;
    let body: string[];
    if (last !== null && last.file === selected.file && last.width === width && last.upto >= upto) body = last.rows;
    else {
      // A page ahead, so scrolling down one row at a time does not count the rows again each key.
      const counted = fileDiffRows(selected.file, width, this.c, upto + height);
      this.last = { file: selected.file, width, upto: counted.more > 0 ? upto + height : Infinity, rows: counted.rows };
      body = counted.rows;
    }
    const top = Math.max(0, Math.min(state.top, body.length - height));
    return explorerFrame(body.slice(top, top + height), -1, state, cols, rows, this.c);
  }
}
