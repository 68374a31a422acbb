/**
 * Pure line builders for the screen: every component renders rows these functions produce, each row
 * at most `width` cells, so the screen knows exactly how tall each part is (for the caret position
 * and for keeping the live area shorter than the terminal).
 */
import type { ChalkInstance } from 'chalk';
import stringWidth from '../string-width.js';
import { highlighterLoaded, renderMarkdown, sanitize } from '../markdown.js';
import type { PreviewLine } from '../chat/pending/pending-view.js';
import { formatMcpDuration } from '../chat/commands/mcp.js';
import { latestOutput } from '../chat/turn/live-command-output.js';
import { reviewLines } from '../chat/review/review-lines.js';
import type { LiveCommand, TranscriptCell } from '../store-types.js';
import { truncateToWidth } from '../text-width.js';
import { currentTheme, palette } from '../theme.js';
import type { FooterItem } from './status-line.js';
import { mcpCallLines, mcpServerLines } from './mcp-lines.js';
import { patchCellRows, patchLines } from './patch-lines.js';
import { commandChangesLines } from './command-changes-lines.js';
import { cutRows, defaultChalk, wrapWithPrefix } from './row-shapes.js';
import { imageViewLines, planLines, webSearchLines } from './tool-lines.js';

export const COMMAND_OUTPUT_HEAD_LINES = 12;
export const COMMAND_OUTPUT_TAIL_LINES = 4;
export const LIVE_COMMAND_OUTPUT_LINES = 6;
/** Rows of a running command's own text in the live area (the finished cell shows all of it). */
export const LIVE_COMMAND_TEXT_ROWS = 3;
/**
 * A message longer than this many rows (a log pasted whole) shows its start and its end around
 * `… N more lines`: the scrollback stays usable; Ctrl+T, the rollout and the model have all of it.
 */
export const USER_CELL_MAX_ROWS = 1000;
const USER_CELL_TAIL_ROWS = 200;

/** A line opening or closing a fenced code block; group 1 is the fence. */
export const FENCE_LINE = /^ {0,3}(`{3,}|~{3,})/;

/** The open fence after `line` (null: outside a code block): a fence line opens one, the same kind at least as long closes it. */
export function fenceAfter(fence: string | null, line: string): string | null {
  const marker = FENCE_LINE.exec(line)?.[1];
  if (marker === undefined) return fence;
  if (fence === null) return marker;
  return marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker ? null : fence;
}

/**
 * Splits markdown into blocks at blank lines, except inside code fences and before an indented line
 * (a list item's continuation, indented code). Each block renders on its own, so a streaming answer
 * re-renders only its last block per frame and finished blocks come from the cache.
 */
export function markdownBlocks(markdown: string): string[] {
  const lines = markdown.split('\n');
  const blocks: string[] = [];
  let current: string[] = [];
  let fence: string | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    fence = fenceAfter(fence, line);
    const next = lines[i + 1];
    const boundary = fence === null && line.trim() === '' && next !== undefined && !/^\s/.test(next);
    if (boundary) {
      if (current.some((l) => l.trim() !== '')) blocks.push(current.join('\n'));
      current = [];
    } else current.push(line);
  }
  if (current.some((l) => l.trim() !== '')) blocks.push(current.join('\n'));
  return blocks;
}

const BLOCK_CACHE_LIMIT = 4000;
const blockCache = new Map<string, string[]>();

export function renderBlockCached(block: string, width: number, c: ChalkInstance, cache: boolean): string[] {
  if (!cache) return renderMarkdown(block, width, { chalk: c });
  // Keyed by chalk level (tests render with other levels), the theme and whether code can be highlighted yet.
  const key = `${width}\u0000${c.level}\u0000${currentTheme()}\u0000${highlighterLoaded() ? 1 : 0}\u0000${block}`;
  let rows = blockCache.get(key);
  if (rows === undefined) {
    rows = renderMarkdown(block, width, { chalk: c });
    if (blockCache.size >= BLOCK_CACHE_LIMIT) blockCache.clear();
    blockCache.set(key, rows);
  }
  return rows;
}

/**
 * An agent message: markdown with a `• ` bullet on the first row and a 2-cell hanging indent. The
 * last block is not cached while streaming (`streaming`), as it still changes with every delta.
 */
export function agentLines(markdown: string, width: number, c: ChalkInstance = defaultChalk, streaming = false): string[] {
  const inner = agentTextWidth(width);
  const blocks = markdownBlocks(markdown);
  const body: string[] = [];
  blocks.forEach((block, i) => {
    if (i > 0) body.push('');
    body.push(...renderBlockCached(block, inner, c, !(streaming && i === blocks.length - 1)));
  });
  return agentRows(body, true, c);
}

/** The width an answer's markdown is laid out at, inside the bullet and the indent. */
export function agentTextWidth(width: number): number {
  return Math.max(8, width - 2);
}

/** Rendered markdown rows with the answer's bullet (`first`: these rows begin it) and its 2-cell indent. */
export function agentRows(body: readonly string[], first: boolean, c: ChalkInstance): string[] {
  return body.map((line, i) => (i === 0 && first ? `${c.dim('•')} ${line}` : line === '' ? '' : `  ${line}`));
}

/** `earlier`: output came before `output` that is not in it (the count is then a least one: `N+`). */
function commandOutputLines(output: string, width: number, c: ChalkInstance, head: number, tail: number, earlier = false): string[] {
  const trimmed = sanitize(output.replace(/\n+$/, ''));
  if (trimmed === '') return [];
  const all = trimmed.split('\n').flatMap((line) => wrapWithPrefix(line, width, '  │ ', '  │ '));
  const more = all.length - head - tail;
  let shown = all;
  if (earlier) shown = [`  │ … ${Math.max(1, more)}+ more lines`, ...all.slice(-tail)];
  else if (all.length > head + tail + 1) shown = [...all.slice(0, head), `  │ … ${more} more lines`, ...all.slice(all.length - tail)];
  return shown.map((line) => c.dim(line));
}

/**
 * The rows of one finished transcript cell, starting with a blank separator row. `whole`: a long
 * message is not cut (the Ctrl+T pager); `screenRows`: the terminal's height (a patch collapses past it).
 */
export function cellLines(cell: TranscriptCell, width: number, c: ChalkInstance = defaultChalk, whole = false, screenRows = 0): string[] {
  const rows: string[] = [''];
  switch (cell.kind) {
    case 'user': {
      const message = wrapWithPrefix(sanitize(cell.text), width, c.bold('› '), '  ');
      rows.push(...(whole ? message : cutRows(message, USER_CELL_MAX_ROWS, USER_CELL_TAIL_ROWS, c)));
      for (const label of cell.attachmentLabels) rows.push(...wrapWithPrefix(label, width, '  ', '  ').map((l) => c.dim(l)));
      if (cell.receipt !== undefined) rows.push(...wrapWithPrefix(sanitize(cell.receipt), width, '  ↳ ', '    ').map((l) => c.dim(l)));
      break;
    }
    case 'agent':
      rows.push(...agentLines(cell.markdown, width, c));
      break;
    case 'header':
      rows.push(...headerLines(cell, width, c));
      break;
    case 'info':
      rows.push(...wrapWithPrefix(sanitize(cell.text), width, '• ', '  '));
      if (cell.hint !== undefined) rows.push(...wrapWithPrefix(sanitize(cell.hint), width, '  ', '  ').map((l) => c.dim(l)));
      break;
    case 'error':
      rows.push(...wrapWithPrefix(sanitize(cell.text), width, '■ ', '  ').map((l) => palette(c).danger(l)));
      break;
    case 'warning':
      rows.push(...wrapWithPrefix(sanitize(cell.text), width, '⚠ ', '  ').map((l) => palette(c).warning(l)));
      break;
    case 'command': {
      const ok = cell.status === 'completed' && (cell.exitCode === 0 || cell.exitCode === null);
      const mark = ok ? palette(c).success('✓') : palette(c).danger('✗');
      rows.push(...wrapWithPrefix(sanitize(cell.command), width, `${mark} ${c.bold('$')} `, '    '));
      rows.push(...commandOutputLines(cell.output, width, c, COMMAND_OUTPUT_HEAD_LINES, COMMAND_OUTPUT_TAIL_LINES));
      const took = cell.durationMs === undefined || cell.durationMs === null ? null : formatMcpDuration(cell.durationMs);
      if (cell.status === 'declined') rows.push(palette(c).danger('  └ declined'));
      else if (cell.status === 'interrupted') rows.push(palette(c).danger(`  └ interrupted${took ? ` · ${took}` : ''}`));
      else if (cell.exitCode !== null && cell.exitCode !== 0)
        rows.push(palette(c).danger(`  └ exit code ${cell.exitCode}${took ? ` · ${took}` : ''}`));
      else if (took) rows.push(c.dim(`  └ ${took}`));
      break;
    }
    case 'mcp':
      rows.push(...mcpCallLines(cell, width, c));
      break;
    case 'mcpServers':
      rows.push(...mcpServerLines(cell.servers, width, c));
      break;
    case 'reasoning':
      rows.push(...reasoningLines(cell.text, width, c, whole));
      break;
    case 'imageView':
      rows.push(...imageViewLines(cell.path, width, c));
      break;
    case 'webSearch':
      rows.push(...webSearchLines(cell.query, width, c));
      break;
    case 'plan':
      rows.push(...planLines(cell, width, c));
      break;
    case 'patch':
      rows.push(...patchLines(cell, width, c, whole, patchCellRows(screenRows)));
      break;
    case 'commandChanges':
      rows.push(...commandChangesLines(cell, width, c, whole, patchCellRows(screenRows)));
      break;
    case 'review':
      rows.push(...reviewLines(cell, width, c));
      break;
  }
  return rows;
}

export const HEADER_MODEL_HINT = '/model to change';
/** Below this width the header has no box. */
const HEADER_BOX_MIN_WIDTH = 24;

/**
 * The session header as Codex draws it: `>_ Tiller (vX)` and the model, provider, directory and
 * approval mode rows in a rounded box as wide as its text (at most `width`); values wrap under
 * themselves.
 */
export function headerLines(cell: Extract<TranscriptCell, { kind: 'header' }>, width: number, c: ChalkInstance = defaultChalk): string[] {
  const model = sanitize(cell.effort === null ? cell.model : `${cell.model} ${cell.effort}`);
  const fields: Array<[string, string, string | null]> = [
    ['model', model, HEADER_MODEL_HINT],
    ['provider', sanitize(cell.provider), null],
    ...(cell.profile === null ? [] : [['profile', sanitize(cell.profile), null] as [string, string, null]]),
    ['directory', sanitize(cell.directory), null],
    ['approvals', sanitize(cell.approvals), null],
  ];
  const labelWidth = Math.max(...fields.map(([label]) => label.length)) + 2;
  const title = `${c.dim('>_')} ${c.bold('Tiller')} ${c.dim(`(v${sanitize(cell.version)})`)}`;
  const natural = Math.max(
    stringWidth(title),
    ...fields.map(([, value, hint]) => labelWidth + stringWidth(value) + (hint === null ? 0 : 3 + hint.length)),
  );
  const boxed = width >= HEADER_BOX_MIN_WIDTH;
  const inner = boxed ? Math.min(natural, width - 4) : width;
  const body = [title, ''];
  for (const [label, value, hint] of fields) {
    const text = hint === null ? value : `${value}   ${c.dim(hint)}`;
    body.push(...wrapWithPrefix(text, inner, c.dim(`${label}:`.padEnd(labelWidth)), ' '.repeat(labelWidth)));
  }
  if (!boxed) return body;
  const border = (text: string): string => c.dim(text);
  return [
    border(`╭${'─'.repeat(inner + 2)}╮`),
    ...body.map((row) => `${border('│')} ${row}${' '.repeat(Math.max(0, inner - stringWidth(row)))} ${border('│')}`),
    border(`╰${'─'.repeat(inner + 2)}╯`),
  ];
}

/** The running shell command: its line and the last few output rows. */
export const REASONING_EXPAND_HINT = 'Ctrl+T shows all';
/** Rows of a reasoning summary still streaming: its last ones, so the newest thought stays in view. */
const LIVE_REASONING_ROWS = 3;

/**
 * A reasoning summary, dim: whole in the pager; in the transcript one row, its first line cut to fit
 * with the hint that opens the rest.
 */
export function reasoningLines(text: string, width: number, c: ChalkInstance = defaultChalk, whole = false): string[] {
  const clean = sanitize(text);
  if (whole) return wrapWithPrefix(clean, width, '• ', '  ').map((l) => c.dim.italic(l));
  const first = clean.split('\n').find((line) => line.trim() !== '') ?? '';
  const more = clean.trim() !== first.trim();
  const suffix = more ? ` (${REASONING_EXPAND_HINT})` : '';
  const room = Math.max(1, width - 2 - suffix.length);
  const shown = truncateToWidth(first.trim(), room);
  return [c.dim(`• ${c.italic(shown)}${suffix}`)];
}

export function liveReasoningLines(text: string, width: number, c: ChalkInstance = defaultChalk): string[] {
  if (text.trim() === '') return ['', c.dim('• Thinking…')];
  const rows = wrapWithPrefix(sanitize(text.trim()), width, '• ', '  ').map((l) => c.dim.italic(l));
  return ['', ...rows.slice(-LIVE_REASONING_ROWS)];
}

export function liveCommandLines(command: LiveCommand, width: number, c: ChalkInstance = defaultChalk): string[] {
  const latest = latestOutput(command.output);
  return [
    '',
    ...cutRows(
      wrapWithPrefix(sanitize(command.command), width, `${palette(c).accent('⋯')} ${c.bold('$')} `, '    '),
      LIVE_COMMAND_TEXT_ROWS,
      0,
      c,
    ),
    ...commandOutputLines(latest.text, width, c, 0, LIVE_COMMAND_OUTPUT_LINES, latest.more),
  ];
}

/**
 * `• Working (12s • esc to interrupt)`, the status text replacing `Working` (e.g. a retry); a spinner
 * frame replaces the bullet while media is being prepared.
 */
export function statusLines(
  status: string | null,
  detail: string | null,
  seconds: number,
  width: number,
  c: ChalkInstance = defaultChalk,
  spinner: string | null = null,
  waiting = 0,
): string[] {
  const count = waiting > 0 ? ` • ${waiting} waiting` : '';
  const head = `${c.bold(sanitize(status ?? 'Working'))} ${c.dim(`(${seconds}s • esc to interrupt${count})`)}`;
  const rows = wrapWithPrefix(head, width, `${palette(c).accent(spinner ?? '•')} `, '  ');
  if (detail !== null && detail !== '') rows.push(...wrapWithPrefix(sanitize(detail), width, '  └ ', '    ').map((l) => c.dim(l)));
  return rows;
}

/** The preview rows of docs/codex-parity.md#pending-steer-rows (text from the store's selector), styled. */
export function previewRows(lines: PreviewLine[], c: ChalkInstance = defaultChalk): string[] {
  // A pasted escape sequence in a waiting message must not reach the terminal (it could set the title or the clipboard).
  return lines.map(({ text: raw, style }) => {
    const text = sanitize(raw);
    switch (style) {
      case 'header':
        return text.startsWith('• ') ? `${c.dim('•')} ${text.slice(2)}` : text;
      case 'steer':
        return text.startsWith('  ↳ ') ? `  ↳ ${c.dim(text.slice(4))}` : c.dim(text);
      case 'queued':
        return text.startsWith('  ↳ ') ? `  ↳ ${c.dim.italic(text.slice(4))}` : c.dim.italic(text);
      case 'hint':
        return c.dim(text);
      case 'selected':
        return c.bold(text);
      case 'blank':
        return '';
    }
  });
}

export interface FooterParts {
  /** Left side: `? for shortcuts`, `Shell mode`, the quit hint… */
  hint: string;
  /** Right side, in order: the items /statusline chose (status-line.ts); `danger` draws one in red. */
  items: readonly FooterItem[];
  offline: boolean;
  /** `Vim: Normal` / `Vim: Insert`, or null when Vim mode is off. */
  vim: string | null;
}

/** The footer while the approval prompt owns the keys (`?` does nothing then). */
export const APPROVAL_HINT = 'y to run · a for the session · n or esc to decline';

/**
 * One footer row: the hint on the left, the status line's items · offline · Vim mode on the right;
 * too narrow, it is cut at the width (what shows of an item keeps its colour).
 */
export function footerLine(parts: FooterParts, width: number, c: ChalkInstance = defaultChalk): string {
  const { muted, danger } = palette(c);
  const right: Array<[string, (text: string) => string]> = [
    ...parts.items.map((item): [string, (text: string) => string] => [sanitize(item.text), item.danger ? danger : muted]),
    ...(parts.offline ? [['offline', muted] as [string, (text: string) => string]] : []),
    ...(parts.vim !== null && parts.vim !== '' ? [[parts.vim, muted] as [string, (text: string) => string]] : []),
  ].filter(([text]) => text !== '');
  // Neighbours of one style are one piece (one escape sequence, not one per separator).
  const pieces: Array<[string, (text: string) => string]> = [];
  for (const [text, style] of right.flatMap(
    ([text, style], i): Array<[string, (text: string) => string]> =>
      i === 0
        ? [[text, style]]
        : [
            [' · ', muted],
            [text, style],
          ],
  )) {
    const last = pieces.at(-1);
    if (last !== undefined && last[1] === style) last[0] += text;
    else pieces.push([text, style]);
  }
  const left = `  ${parts.hint}`;
  const gap = width - stringWidth(left) - stringWidth(pieces.map(([text]) => text).join('')) - 1;
  const segments: Array<[string, (text: string) => string]> = [[`${left}${' '.repeat(gap < 1 ? 2 : gap)}`, muted], ...pieces];
  const full = segments.map(([text]) => text).join('');
  // Cut as plain text, then styled piece by piece (the `…` takes the style of the piece it ends).
  const shown = gap < 1 ? truncateToWidth(full, width) : full;
  let start = 0;
  return segments
    .map(([text, style]) => {
      const end = Math.min(start + text.length, shown.length);
      const piece = shown.slice(start, end);
      start = end;
      return piece === '' ? '' : style(piece);
    })
    .join('');
}
