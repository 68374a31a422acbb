/**
 * The composer as screen rows: the prompt glyph, the wrapped text with elements styled, the caret
 * cell (for the real cursor), the popup and attachment rows and the footer hint. Pure; the layout
 * (display width, wrapping, caret) and the hints come from the composer's own selectors.
 */
import type { ChalkInstance } from 'chalk';
import stringWidth from '../string-width.js';
import type { LayoutRow, SpanKind } from '../composer/layout.js';
import { chipPreview, chipUnderCursor, PASTE_CHIP_KEY } from '../composer/paste-chips.js';
import {
  attachmentRows,
  footerHint,
  popupRows as composerPopup,
  renderComposer,
  shortcutsVisible,
  vimIndicator,
} from '../composer/selectors.js';
import { SLASH_COMMANDS } from '../composer/slash-commands.js';
import type { ComposerState } from '../composer/state.js';
import { sanitize } from '../markdown.js';
import { formatAttachmentRow } from '../media/attachment-row.js';
import { padToWidth, truncateToWidth } from '../text-width.js';
import { defaultChalk, wrapWithPrefix } from './row-shapes.js';
import { palette } from '../theme.js';

export const PLACEHOLDER = 'Ask Tiller to do anything';
export const PROMPT = '› ';
export const POPUP_MAX_ROWS = 8;

/**
 * The `?` overlay: every key of the README's "In the composer", each entry at most
 * SHORTCUT_COLUMN_WIDTH cells, so two columns fit 60 columns.
 */
export const SHORTCUT_ROWS: ReadonlyArray<readonly [string, string]> = [
  ['/', 'for commands'],
  ['@', 'for file paths'],
  ['$', 'for skills'],
  ['!', 'for shell commands'],
  ['enter', 'to send or steer'],
  ['tab', 'to queue a message'],
  ['ctrl + enter', 'to send now'],
  ['shift + enter', 'for newline'],
  ['esc', 'to interrupt'],
  ['esc esc', 'to edit a message'],
  ['↑ / ↓', 'for history'],
  ['ctrl + r', 'to search history'],
  ['alt + ↑', 'to edit last queued'],
  ['ctrl + q', 'to edit waiting'],
  ['ctrl + q, n', 'to send one now'],
  ['shift + tab', 'for approvals'],
  ['alt + , / .', 'reasoning effort'],
  ['ctrl + z', 'to undo'],
  ['ctrl + shift + z', 'to redo'],
  ['ctrl + k / u / w', 'to cut'],
  ['ctrl + y', 'to paste the cut'],
  ['alt + y', 'for older cuts'],
  ['ctrl + s', 'to stash the draft'],
  ['ctrl + v', 'to paste an image'],
  [PASTE_CHIP_KEY, 'to expand a paste'],
  ['ctrl + g', 'to use your editor'],
  ['ctrl + l', 'to clear the screen'],
  ['ctrl + o', 'to copy the answer'],
  ['ctrl + t', 'for the transcript'],
  ['/findings', 'to fix a finding'],
  ['ctrl + c', 'to clear or quit'],
  ['y / a / n', 'to answer a prompt'],
];
export const SHORTCUT_COLUMN_WIDTH = 28;

export interface ComposerView {
  /** Composer rows, prompt glyph included. */
  rows: string[];
  /** The caret cell within `rows` (col counts the prompt). */
  caret: { row: number; col: number };
  /** Nothing typed: `rows` is the placeholder prompt. */
  empty: boolean;
  popupRows: string[];
  /** One per attachment (the one under the caret marked `▸`), then the preview of a paste under the caret. */
  attachmentRows: string[];
  /** Left side of the footer. */
  hint: string;
  /** `Vim: Normal` / `Vim: Insert` for the right side, or null (Vim off, or the hint already says it). */
  vim: string | null;
}

function styleSpan(text: string, kind: SpanKind, c: ChalkInstance): string {
  switch (kind) {
    case 'text':
      return text;
    case 'control':
      return c.dim(text);
    case 'slash':
      return palette(c).special(text);
    default:
      return palette(c).accent(text);
  }
}

function rowText(row: LayoutRow, c: ChalkInstance): string {
  // The Vim Visual selection is drawn inverted.
  return row.spans
    .map((span) => (span.selected === true ? c.inverse(styleSpan(span.text, span.kind, c)) : styleSpan(span.text, span.kind, c)))
    .join('');
}

/**
 * The cells the composer text wraps at in a screen `width` wide: the prompt's two cells, and one
 * spare so the caret after a full row stays on screen. The controller gets it too (Up/Down by row).
 */
export function composerTextWidth(width: number): number {
  return Math.max(1, width - 3);
}

/** `window`: the rows the composer may show (windowRows); only the lines within reach of the caret are laid out. */
export function composerView(state: ComposerState, width: number, c: ChalkInstance = defaultChalk, window = Infinity): ComposerView {
  const render = renderComposer(state, composerTextWidth(width), window);
  const prompt = `${render.prompt} `;
  const promptStyled = render.prompt === '!' ? palette(c).special.bold(prompt) : c.bold(prompt);
  let rows: string[];
  let caret: { row: number; col: number };
  if (render.empty) {
    rows = [`${promptStyled}${c.dim(PLACEHOLDER)}`];
    caret = { row: 0, col: prompt.length };
  } else {
    rows = render.rows.map((row, i) => `${i === 0 ? promptStyled : ' '.repeat(prompt.length)}${rowText(row, c)}`);
    caret = { row: render.caret.row, col: render.caret.col + prompt.length };
  }
  const hint = footerHint(state);
  const vim = vimIndicator(state);
  return {
    rows,
    caret,
    empty: render.empty,
    popupRows: shortcutsVisible(state) ? shortcutRows(width, c) : popupRows(state, width, c),
    attachmentRows: chipRows(state, width, c, window),
    hint,
    vim: vim === hint ? null : vim,
  };
}

/** A paste preview shows its first and last lines only when the composer's window has room for them. */
const PREVIEW_LINES_MIN_WINDOW = 8;

/**
 * The attachment rows, the one under the caret marked and not dimmed, then the preview of the
 * placeholder or expanded paste under the caret (paste-chips.ts): control characters made visible,
 * each row cut to the width.
 */
function chipRows(state: ComposerState, width: number, c: ChalkInstance, window: number): string[] {
  const chip = chipUnderCursor(state);
  const selected = chip?.kind === 'attachment' ? chip.attachment.placeholder : null;
  const rows = attachmentRows(state).flatMap((att) => {
    const on = att.placeholder === selected;
    return wrapWithPrefix(formatAttachmentRow(att), width, on ? '▸ ' : '  ', '  ').map((l) => (on ? palette(c).accent(l) : c.dim(l)));
  });
  // Cut before measuring: string-width costs per character, and a line only needs a row's worth.
  const preview = chipPreview(state, width);
  if (preview === null) return rows;
  const lines = window >= PREVIEW_LINES_MIN_WINDOW ? preview.lines : [];
  return [
    ...rows,
    c.dim(truncateToWidth(`  ${sanitize(preview.header)}`, width)),
    ...lines.map((line) => c.dim(truncateToWidth(`    ${sanitize(line)}`, width))),
  ];
}

function popupRows(state: ComposerState, width: number, c: ChalkInstance): string[] {
  const view = composerPopup(state);
  if (view === null) return [];
  // Nothing matches: the popup stays (Esc or a space closes it) and says so.
  if (view.rows.length === 0) return [c.dim('  no matches')];
  const selected = view.selected ?? 0;
  const start = Math.min(Math.max(0, selected - POPUP_MAX_ROWS + 1), Math.max(0, view.rows.length - POPUP_MAX_ROWS));
  const shown = view.rows.slice(start, start + POPUP_MAX_ROWS);
  const labelWidth = Math.min(24, Math.max(...shown.map((r) => stringWidth(r.label))));
  return shown.map((row, i) => {
    const isSelected = start + i === view.selected;
    const label = padToWidth(row.label, labelWidth);
    const description = row.description === undefined ? '' : `  ${row.description}`;
    const text = truncateToWidth(`${isSelected ? '▸ ' : '  '}${label}${description}`, width);
    const labelEnd = Math.min(text.length, 2 + row.label.length);
    const disabled = row.disabled === true;
    const base = disabled ? c.dim : isSelected ? palette(c).accent : (s: string) => s;
    const hi = disabled ? c.dim.bold : isSelected ? palette(c).accent.bold : c.bold;
    const rest = disabled || isSelected ? base : c.dim;
    const styledLabel = highlightRuns(text.slice(2, labelEnd), row.label, row.highlight ?? [], base, hi);
    return `${base(text.slice(0, 2))}${styledLabel}${text.slice(labelEnd) === '' ? '' : rest(text.slice(labelEnd))}`;
  });
}

/**
 * The shown part of a label with the matched characters (UTF-16 indices into `label`) in `hi`, the rest
 * in `base`; a character the width cut off (`…`) is not highlighted.
 */
export function highlightRuns(
  shown: string,
  label: string,
  indices: readonly number[],
  base: (s: string) => string,
  hi: (s: string) => string,
): string {
  if (indices.length === 0) return base(shown);
  const marked = new Set(indices);
  let out = '';
  let run = '';
  let runHi = false;
  for (let i = 0; i < shown.length; ) {
    const ch = String.fromCodePoint(shown.codePointAt(i)!);
    const isHi = marked.has(i) && label.startsWith(ch, i);
    if (isHi !== runHi && run !== '') {
      out += runHi ? hi(run) : base(run);
      run = '';
    }
    runHi = isHi;
    run += ch;
    i += ch.length;
  }
  return run === '' ? out : out + (runHi ? hi(run) : base(run));
}

/** The keys in two columns (down the first, then the second) when they fit, else one; then every slash command. */
function shortcutRows(width: number, c: ChalkInstance): string[] {
  return [...shortcutKeyRows(width, c), '', ...commandRows(width, c)];
}

function shortcutKeyRows(width: number, c: ChalkInstance): string[] {
  const entries = SHORTCUT_ROWS.map(([key, what]) => `${key} ${what}`);
  if (width < 2 + 2 * SHORTCUT_COLUMN_WIDTH + 2) return entries.map((entry) => c.dim(truncateToWidth(`  ${entry}`, width)));
  const half = Math.ceil(entries.length / 2);
  return entries.slice(0, half).map((left, i) => {
    const right = entries[half + i];
    return c.dim(truncateToWidth(`  ${right === undefined ? left : left.padEnd(SHORTCUT_COLUMN_WIDTH + 2) + right}`, width));
  });
}

/** Every command of the registry (slash-commands.ts), so the overlay cannot miss one; /help describes each. */
function commandRows(width: number, c: ChalkInstance): string[] {
  const names = SLASH_COMMANDS.map((command) => `/${command.name}`).join('  ');
  return wrapWithPrefix(`commands (/help describes each): ${names}`, width, '  ', '  ').map((row) => c.dim(row));
}

/**
 * At most `max` composer rows, scrolled so the caret row is visible: a tall draft must not make the
 * live area as tall as the terminal (Ink would then clear the screen and reprint the scrollback).
 */
export function windowRows(rows: string[], caretRow: number, max: number): { rows: string[]; caretRow: number } {
  const limit = Math.max(1, max);
  if (rows.length <= limit) return { rows, caretRow };
  const start = Math.min(Math.max(0, caretRow - limit + 1), rows.length - limit);
  return { rows: rows.slice(start, start + limit), caretRow: caretRow - start };
}
