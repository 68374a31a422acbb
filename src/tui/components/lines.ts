/**
 * Pure line builders for the screen: every component renders rows these functions produce, each row
 * at most `width` cells, so the screen knows exactly how tall each part is (for the caret position
 * and for keeping the live area shorter than the terminal).
 */
import { Chalk, type ChalkInstance } from 'chalk';
import stringWidth from '../string-width.js';
import type { ReasoningEffort } from '../../protocol/api.js';
import { APPROVAL_PRESETS, presetIndexOf, type ApprovalMode } from '../chat/approvals/approval-modes.js';
import { formatMcpDuration, mcpStartingText } from '../chat/commands/mcp.js';
import { EFFORT_CHOICES, filteredModels } from '../chat/commands/model-picker.js';
import { highlighterLoaded, renderMarkdown, sanitize } from '../markdown.js';
import type { PreviewLine } from '../chat/pending/pending-view.js';
import { latestOutput } from '../chat/turn/live-command-output.js';
import type { ApprovalModal, LiveCommand, LiveMcpCall, LiveState, McpServerRow, ModelPickerState, TranscriptCell } from '../store-types.js';
import { BoundedCache } from '../terminal/bounded-cache.js';
import { colorLevel } from '../terminal/color-level.js';
import { truncateToWidth } from '../text-width.js';
import { currentTheme } from '../theme.js';
import { wrapText } from '../wrap.js';

export const defaultChalk: ChalkInstance = new Chalk({ level: colorLevel(process.env) });

export const COMMAND_OUTPUT_HEAD_LINES = 12;
export const COMMAND_OUTPUT_TAIL_LINES = 4;
export const LIVE_COMMAND_OUTPUT_LINES = 6;
/** Rows of a running command's own text in the live area (the finished cell shows all of it). */
export const LIVE_COMMAND_TEXT_ROWS = 3;
/** Rows of an MCP call's result (or error) in its cell before `… N more lines`. */
export const MCP_RESULT_ROWS = 4;
/**
 * A message longer than this many rows (a log pasted whole) shows its start and its end around
 * `… N more lines`: the scrollback stays usable; Ctrl+T, the rollout and the model have all of it.
 */
export const USER_CELL_MAX_ROWS = 1000;
const USER_CELL_TAIL_ROWS = 200;

/** The few row prefixes there are, measured once each (a thousand cells printed at once measure them all). */
const prefixWidths = new BoundedCache<number>(256);

/**
 * Wraps by display width at word boundaries; the first row gets `first`, the rest `rest` (same cell
 * width). A source line's own leading indentation is kept; spaces at wrap points are dropped.
 */
export function wrapWithPrefix(text: string, width: number, first: string, rest: string): string[] {
  const inner = Math.max(1, width - prefixWidths.get(first, stringWidth));
  const out: string[] = [];
  for (const source of text.split('\n')) {
    const indent = /^[ ]*/.exec(source)![0].slice(0, Math.max(0, inner - 1));
    const body = source.slice(indent.length);
    const pieces = body.trim() === '' ? [''] : wrapText(body, inner - indent.length).split('\n');
    pieces.forEach((piece, i) => out.push((out.length === 0 ? first : rest) + (i === 0 ? indent : '') + piece));
  }
  return out;
}

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
 * message is not cut (the Ctrl+T pager).
 */
export function cellLines(cell: TranscriptCell, width: number, c: ChalkInstance = defaultChalk, whole = false): string[] {
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
      rows.push(...wrapWithPrefix(sanitize(cell.text), width, '■ ', '  ').map((l) => c.red(l)));
      break;
    case 'warning':
      rows.push(...wrapWithPrefix(sanitize(cell.text), width, '⚠ ', '  ').map((l) => c.yellow(l)));
      break;
    case 'command': {
      const ok = cell.status === 'completed' && (cell.exitCode === 0 || cell.exitCode === null);
      const mark = ok ? c.green('✓') : c.red('✗');
      rows.push(...wrapWithPrefix(sanitize(cell.command), width, `${mark} ${c.bold('$')} `, '    '));
      rows.push(...commandOutputLines(cell.output, width, c, COMMAND_OUTPUT_HEAD_LINES, COMMAND_OUTPUT_TAIL_LINES));
      if (cell.status === 'declined') rows.push(c.red('  └ declined'));
      else if (cell.status === 'interrupted') rows.push(c.red('  └ interrupted'));
      else if (cell.exitCode !== null && cell.exitCode !== 0) rows.push(c.red(`  └ exit code ${cell.exitCode}`));
      break;
    }
    case 'mcp':
      rows.push(...mcpCallLines(cell, width, c));
      break;
    case 'mcpServers':
      rows.push(...mcpServerLines(cell.servers, width, c));
      break;
  }
  return rows;
}

/** `server.tool(args)` in at most `room` cells: the arguments are cut first (`{"path":"/a…`), then the name. */
function mcpInvocation(server: string, tool: string, args: string, room: number): string {
  const name = `${sanitize(server)}.${sanitize(tool)}`;
  const flat = sanitize(args).replace(/\s*\n\s*/g, ' ');
  const full = `${name}(${flat})`;
  if (stringWidth(full) <= room) return full;
  const argRoom = room - stringWidth(name) - 2;
  if (argRoom >= 2) return `${name}(${truncateToWidth(flat, argRoom)})`;
  return truncateToWidth(full, Math.max(1, room));
}

/**
 * An MCP tool call: `✓ Called server.tool({"a":1}) · 12ms` on one row (the arguments cut to fit), then
 * the first rows of its text result, the count of what else came back, or the error in red.
 */
export function mcpCallLines(cell: Extract<TranscriptCell, { kind: 'mcp' }>, width: number, c: ChalkInstance = defaultChalk): string[] {
  const ok = cell.status === 'completed' && cell.result?.kind !== 'error';
  const lead = `${ok ? c.green('✓') : c.red('✗')} ${c.bold('Called')} `;
  const duration = cell.durationMs === null ? '' : ` · ${formatMcpDuration(cell.durationMs)}`;
  const room = width - stringWidth(`✓ Called ${duration}`);
  const rows = [`${lead}${mcpInvocation(cell.server, cell.tool, cell.arguments, room)}${c.dim(duration)}`];
  const result = cell.result;
  // Only the first lines are wrapped (a result can be long); lines past them count as one row each.
  const body = (text: string, style: (t: string) => string): void => {
    const lines = text.replace(/\n+$/, '').split('\n');
    const wrapped: string[] = [];
    let next = 0;
    while (next < lines.length && wrapped.length <= MCP_RESULT_ROWS + 1)
      wrapped.push(...wrapWithPrefix(sanitize(lines[next++]!), width, '    ', '    '));
    const more = wrapped.length - MCP_RESULT_ROWS + (lines.length - next);
    const shown = more <= 1 ? wrapped : [...wrapped.slice(0, MCP_RESULT_ROWS), `    … ${more} more lines`];
    rows.push(...shown.map((line, i) => style(i === 0 ? `  └ ${line.slice(4)}` : line)));
  };
  const items = (count: number, types: string[], more: boolean): string =>
    `${more ? '+ ' : ''}${count} ${more ? 'more ' : ''}${count === 1 ? 'item' : 'items'}${types.length === 0 ? '' : ` (${types.map((t) => sanitize(t)).join(', ')})`}`;
  if (result === null) rows.push(c.red(`  └ ${cell.status === 'failed' ? 'failed' : 'interrupted'}`));
  else if (result.kind === 'error') body(result.message, c.red);
  else if (result.kind === 'text') {
    body(result.text === '' ? '(empty text)' : result.text, c.dim);
    if (result.others !== undefined)
      rows.push(...wrapWithPrefix(items(result.others.count, result.others.types, true), width, '    ', '    ').map((l) => c.dim(l)));
  } else if (result.count === 0) rows.push(c.dim('  └ no content'));
  else rows.push(...wrapWithPrefix(items(result.count, result.types, false), width, '  └ ', '    ').map((l) => c.dim(l)));
  return rows;
}

/** As many names as fit in `room` cells, `, `-separated, and `… +N more` for the rest. */
function fitNames(names: readonly string[], room: number): string {
  let out = '';
  for (let i = 0; i < names.length; i++) {
    const next = out === '' ? names[i]! : `${out}, ${names[i]!}`;
    const rest = names.length - i - 1;
    const suffix = rest === 0 ? '' : `, … +${rest} more`;
    if (stringWidth(next + suffix) > room) {
      const more = `… +${names.length - i} more`;
      return out === ''
        ? truncateToWidth(more, room)
        : stringWidth(`${out}, ${more}`) <= room
          ? `${out}, ${more}`
          : truncateToWidth(`${out}, ${more}`, room);
    }
    out = next;
  }
  return out;
}

/** `head` then styled pieces, the whole cut at `width` as plain text (each piece keeps its style). */
function styledTail(head: string, pieces: Array<[string, (text: string) => string]>, width: number): string {
  const shown = truncateToWidth(head + pieces.map(([text]) => text).join(''), width);
  let out = shown.slice(0, head.length);
  let start = head.length;
  for (const [text, style] of pieces) {
    const piece = shown.slice(start, Math.min(shown.length, start + text.length));
    start += piece.length;
    if (piece !== '') out += style(piece);
  }
  return out;
}

/**
 * `/mcp`: each configured server on a row with its state (`ready · 3 tools`, `starting…`, `failed:
 * why`, `disabled`), a ready server's tool names on the row under it, cut to fit the width.
 */
export function mcpServerLines(servers: readonly McpServerRow[], width: number, c: ChalkInstance = defaultChalk): string[] {
  const rows = [`${c.dim('•')} ${c.bold('MCP servers')}`];
  const names = servers.map((s) => sanitize(s.name));
  const nameWidth = Math.min(Math.max(...names.map((n) => stringWidth(n))), Math.max(4, Math.floor(width / 3)));
  const indent = ' '.repeat(2 + nameWidth + 2);
  servers.forEach((server, i) => {
    const name = stringWidth(names[i]!) > nameWidth ? truncateToWidth(names[i]!, nameWidth) : names[i]!;
    const head = `  ${name}${' '.repeat(nameWidth - stringWidth(name))}  `;
    const count = server.tools.length;
    switch (server.status) {
      case 'ready':
        rows.push(
          styledTail(
            head,
            [
              ['ready', c.green],
              [` · ${count} ${count === 1 ? 'tool' : 'tools'}`, c.dim],
            ],
            width,
          ),
        );
        if (count > 0)
          rows.push(
            c.dim(
              `${indent}${fitNames(
                server.tools.map((t) => sanitize(t)),
                width - indent.length,
              )}`,
            ),
          );
        break;
      case 'starting':
        rows.push(styledTail(head, [['starting…', c.yellow]], width));
        break;
      case 'disabled':
        rows.push(styledTail(head, [['disabled', c.dim]], width));
        break;
      case 'failed': {
        const why = server.error === null || server.error === '' ? 'failed' : `failed: ${sanitize(server.error)}`;
        const wrapped = wrapWithPrefix(why, width, head, indent);
        rows.push(...wrapped.map((l, j) => (j === 0 ? `${l.slice(0, head.length)}${c.red(l.slice(head.length))}` : c.red(l))));
        break;
      }
    }
  });
  return rows;
}

/**
 * The live rows of MCP work: `⋯ starting MCP server docs… (esc to give up)` while the turn waits for
 * a server, and `⋯ Calling server.tool(args)…` for each call in progress (one row each, and one
 * for the server's last progress message).
 */
export function liveMcpLines(live: Pick<LiveState, 'mcpCalls' | 'mcpStarting'>, width: number, c: ChalkInstance = defaultChalk): string[] {
  const rows: string[] = [];
  const starting = live.mcpStarting ?? [];
  if (starting.length > 0) {
    const text = `${sanitize(mcpStartingText(starting))} ${c.dim('(esc to give up)')}`;
    rows.push('', ...wrapWithPrefix(text, width, `${c.cyan('⋯')} `, '  '));
  }
  const calls: readonly LiveMcpCall[] = live.mcpCalls ?? [];
  if (calls.length > 0) rows.push('');
  for (const call of calls) {
    const room = width - stringWidth('⋯ Calling …');
    rows.push(`${c.cyan('⋯')} ${c.bold('Calling')} ${mcpInvocation(call.server, call.tool, call.arguments, room)}…`);
    if (call.progress !== undefined && call.progress !== '')
      rows.push(c.dim(truncateToWidth(`  └ ${sanitize(call.progress).replace(/\s+/g, ' ')}`, width)));
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
export function liveCommandLines(command: LiveCommand, width: number, c: ChalkInstance = defaultChalk): string[] {
  const latest = latestOutput(command.output);
  return [
    '',
    ...cutRows(wrapWithPrefix(sanitize(command.command), width, `${c.cyan('⋯')} ${c.bold('$')} `, '    '), LIVE_COMMAND_TEXT_ROWS, 0, c),
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
  const rows = wrapWithPrefix(head, width, `${c.cyan(spinner ?? '•')} `, '  ');
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

export const APPROVAL_TITLE = 'Would you like to run the following command?';
export const APPROVAL_OPTIONS = [
  'y  Yes, proceed',
  "a  Yes, and don't ask again for this command in this session",
  'n  No, and tell Tiller what to do differently (esc)',
];

/** The same prompt for an MCP tool call (the modal's `mcp`): the call, without a directory. */
export function mcpApprovalTitle(server: string, tool: string): string {
  return `Would you like to let the model call ${server}.${tool}?`;
}
export const MCP_APPROVAL_OPTIONS = [
  'y  Yes, proceed',
  "a  Yes, and don't ask again for this tool in this session",
  'n  No, and tell Tiller what to do differently (esc)',
];

/**
 * The approval prompt in at most `maxRows` rows (the live area must stay shorter than the terminal):
 * a command too tall keeps its first rows and its last, the rest counted.
 */
export function approvalLines(modal: ApprovalModal, width: number, c: ChalkInstance = defaultChalk, maxRows = Infinity): string[] {
  const mcp = modal.mcp;
  const title = mcp === undefined ? APPROVAL_TITLE : sanitize(mcpApprovalTitle(mcp.server, mcp.tool));
  const head: string[] = [...wrapWithPrefix(title, width, '', '').map((l) => c.bold(l))];
  if (modal.reason !== null && modal.reason !== '') head.push(...wrapWithPrefix(sanitize(modal.reason), width, 'Reason: ', '        '));
  head.push('');
  const tail = mcp === undefined ? wrapWithPrefix(sanitize(modal.cwd), width, c.dim('  in '), '     ').map((l) => c.dim(l)) : [];
  tail.push('');
  for (const option of mcp === undefined ? APPROVAL_OPTIONS : MCP_APPROVAL_OPTIONS)
    tail.push(...wrapWithPrefix(option, width, '  ', '     '));
  const command = wrapWithPrefix(
    sanitize(modal.command),
    width,
    mcp === undefined ? `  ${c.bold('$')} ` : '  ',
    mcp === undefined ? '    ' : '  ',
  );
  return [...head, ...cutRows(command, maxRows - head.length - tail.length, 1, c), ...tail];
}

export const MODE_PICKER_TITLE = 'Approval mode: when commands ask, and where they may write';
/** The footer while the /approvals picker owns the keys. */
export const MODE_PICKER_HINT = `↑/↓ to choose · enter or 1–${APPROVAL_PRESETS.length} to pick · esc to close`;

/** The /approvals picker: each preset with its description, the highlighted one `▸`, the current one marked. */
export function modePickerLines(selected: number, current: ApprovalMode, width: number, c: ChalkInstance = defaultChalk): string[] {
  const currentIndex = presetIndexOf(current);
  const labels = APPROVAL_PRESETS.map((p, i) => `${i + 1}. ${p.label}${i === currentIndex ? ' (current)' : ''}`);
  const labelWidth = Math.max(...labels.map((l) => stringWidth(l)));
  const rows = [...wrapWithPrefix(MODE_PICKER_TITLE, width, '', '').map((l) => c.bold(l)), ''];
  APPROVAL_PRESETS.forEach((preset, i) => {
    const isSelected = i === selected;
    const head = `${isSelected ? '▸ ' : '  '}${labels[i]!.padEnd(labelWidth)}  `;
    const wrapped = wrapWithPrefix(preset.description, width, head, ' '.repeat(stringWidth(head)));
    rows.push(...wrapped.map((row) => (isSelected ? c.cyan(row) : `${row.slice(0, head.length)}${c.dim(row.slice(head.length))}`)));
  });
  return rows;
}

export const MODEL_PICKER_TITLE = 'Model for the next turn';
/** The footer while the /model picker owns the keys, per stage. */
export const MODEL_PICKER_HINT = '↑/↓ · type to filter · enter to pick · esc to close';
export const EFFORT_PICKER_HINT = `↑/↓ to choose · enter or 1–${EFFORT_CHOICES.length} to pick · esc to go back`;

/**
 * The /model picker in at most `maxRows` rows: the models (filtered, scrolled to the highlighted
 * one, `▸`; the current one marked) or, for the picked model, the reasoning efforts; model/list's
 * note last.
 */
export function modelPickerLines(
  picker: ModelPickerState,
  current: { model: string; effort: ReasoningEffort | null },
  width: number,
  c: ChalkInstance = defaultChalk,
  maxRows = Infinity,
): string[] {
  const effortStage = picker.stage === 'effort';
  const title = effortStage ? `Reasoning effort for ${picker.model ?? ''}` : MODEL_PICKER_TITLE;
  const head = wrapWithPrefix(sanitize(title), width, '', '').map((l) => c.bold(l));
  if (!effortStage && picker.filter !== '') head.push(...wrapWithPrefix(sanitize(picker.filter), width, c.dim('  filter: '), '          '));
  head.push('');
  const tail =
    picker.note === null || effortStage ? [] : ['', ...wrapWithPrefix(sanitize(picker.note), width, '⚠ ', '  ').map((l) => c.yellow(l))];
  let items: Array<{ label: string; description: string }>;
  if (effortStage) {
    items = EFFORT_CHOICES.map((choice, i) => ({
      label: `${i + 1}. ${choice.label}${choice.effort === current.effort ? ' (current)' : ''}`,
      description: choice.description,
    }));
  } else if (picker.models === null) {
    return [...head, c.dim("  Loading the provider's models…")];
  } else {
    items = filteredModels(picker).map((m) => ({ label: sanitize(m) + (m === current.model ? ' (current)' : ''), description: '' }));
    if (items.length === 0) return [...head, c.dim('  no model matches the filter'), ...tail];
  }
  const room = Math.max(1, maxRows - head.length - tail.length - 1);
  const start = Math.min(Math.max(0, picker.selected - room + 1), Math.max(0, items.length - room));
  const shown = items.slice(start, start + room);
  const labelWidth = Math.max(...shown.map((item) => stringWidth(item.label)));
  const rows = shown.map((item, i) => {
    const isSelected = start + i === picker.selected;
    const lead = `${isSelected ? '▸ ' : '  '}${item.label.padEnd(labelWidth)}`;
    const text = truncateToWidth(item.description === '' ? lead.trimEnd() : `${lead}  ${item.description}`, width);
    return isSelected ? c.cyan(text) : `${text.slice(0, lead.length)}${c.dim(text.slice(lead.length))}`;
  });
  if (items.length > shown.length) rows.push(c.dim(`  ${start + 1}–${start + shown.length} of ${items.length}`));
  return [...head, ...rows, ...tail];
}

/** At most `max` rows (at least 2): the first ones, a `… N more lines` row, then the last `keepLast`. */
function cutRows(rows: string[], max: number, keepLast: number, c: ChalkInstance): string[] {
  const limit = Math.max(2, max);
  if (rows.length <= limit) return rows;
  const last = Math.min(keepLast, limit - 2);
  const first = limit - 1 - last;
  return [...rows.slice(0, first), c.dim(`    … ${rows.length - first - last} more lines`), ...rows.slice(rows.length - last)];
}

export interface FooterParts {
  /** Left side: `? for shortcuts`, `Shell mode`, the quit hint… */
  hint: string;
  model: string;
  offline: boolean;
  /** `Vim: Normal` / `Vim: Insert`, or null when Vim mode is off. */
  vim: string | null;
  /** The approval mode (`auto`, `full access`…); `danger` draws it in red. */
  mode: { text: string; danger: boolean };
}

export const QUIT_HINT = 'ctrl + c again to quit';
/** The footer while the approval prompt owns the keys (`?` does nothing then). */
export const APPROVAL_HINT = 'y to run · a for the session · n or esc to decline';

/**
 * One footer row: the hint on the left, approval mode · model · offline · Vim mode on the right; too
 * narrow, it is cut at the width (what shows of the mode keeps its colour).
 */
export function footerLine(parts: FooterParts, width: number, c: ChalkInstance = defaultChalk): string {
  const rest = [sanitize(parts.model), parts.offline ? 'offline' : null, parts.vim].filter((p): p is string => p !== null && p !== '');
  const restText = rest.map((p) => ` · ${p}`).join('');
  const left = `  ${parts.hint}`;
  const gap = width - stringWidth(left) - stringWidth(parts.mode.text + restText) - 1;
  const segments: Array<[string, (text: string) => string]> = [
    [`${left}${' '.repeat(gap < 1 ? 2 : gap)}`, c.dim],
    [parts.mode.text, parts.mode.danger ? c.red : c.dim],
    [restText, c.dim],
  ];
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
