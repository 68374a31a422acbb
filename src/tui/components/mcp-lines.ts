/**
 * The rows of MCP: a tool call's cell (`✓ Called server.tool(args)` and its result), `/mcp`'s server
 * list, and the live rows of a server starting or a call in progress (texts from chat/commands/mcp.ts).
 */
import type { ChalkInstance } from 'chalk';
import stringWidth from '../string-width.js';
import { formatMcpDuration, mcpStartingText } from '../chat/commands/mcp.js';
import { sanitize } from '../markdown.js';
import type { LiveMcpCall, LiveState, McpServerRow, TranscriptCell } from '../store-types.js';
import { truncateToWidth } from '../text-width.js';
import { defaultChalk, wrapWithPrefix } from './row-shapes.js';
import { palette } from '../theme.js';

/** Rows of an MCP call's result (or error) in its cell before `… N more lines`. */
export const MCP_RESULT_ROWS = 4;

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
  const lead = `${ok ? palette(c).success('✓') : palette(c).danger('✗')} ${c.bold('Called')} `;
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
  if (result === null) rows.push(palette(c).danger(`  └ ${cell.status === 'failed' ? 'failed' : 'interrupted'}`));
  else if (result.kind === 'error') body(result.message, palette(c).danger);
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
              ['ready', palette(c).success],
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
        rows.push(styledTail(head, [['starting…', palette(c).warning]], width));
        break;
      case 'disabled':
        rows.push(styledTail(head, [['disabled', c.dim]], width));
        break;
      case 'failed': {
        const why = server.error === null || server.error === '' ? 'failed' : `failed: ${sanitize(server.error)}`;
        const wrapped = wrapWithPrefix(why, width, head, indent);
        rows.push(
          ...wrapped.map((l, j) =>
            j === 0 ? `${l.slice(0, head.length)}${palette(c).danger(l.slice(head.length))}` : palette(c).danger(l),
          ),
        );
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
    rows.push('', ...wrapWithPrefix(text, width, `${palette(c).accent('⋯')} `, '  '));
  }
  const calls: readonly LiveMcpCall[] = live.mcpCalls ?? [];
  if (calls.length > 0) rows.push('');
  for (const call of calls) {
    const room = width - stringWidth('⋯ Calling …');
    rows.push(`${palette(c).accent('⋯')} ${c.bold('Calling')} ${mcpInvocation(call.server, call.tool, call.arguments, room)}…`);
    if (call.progress !== undefined && call.progress !== '')
      rows.push(c.dim(truncateToWidth(`  └ ${sanitize(call.progress).replace(/\s+/g, ' ')}`, width)));
  }
  return rows;
}
