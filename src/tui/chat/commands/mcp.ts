/**
 * The TUI side of MCP: an `mcpToolCall` item as a transcript cell and a live row, `/mcp`'s server
 * list (mcpServerStatus/list), the waiting line while a turn starts a server it needs, and the
 * `mcp://NAME` entries the `@` popup offers for the configured servers. Pure builders; the screen
 * draws them in components/lines.ts.
 */
import type { AppServerClient, ListMcpServerStatusResult, McpServerStatus, ThreadItem } from '../../../protocol/api.js';
import type { LiveMcpCall, McpCellStatus, McpResultSummary, McpServerRow, NewCell } from '../../store-types.js';

export type { McpServerRow } from '../../store-types.js';

export const MCP_NO_SERVERS_MESSAGE = 'No MCP servers configured.';
export const MCP_NO_SERVERS_HINT = 'Add a [mcp_servers.NAME] table with a command (stdio) or a url to config.toml.';
export const MCP_URI_PREFIX = 'mcp://';

type McpItem = Extract<ThreadItem, { type: 'mcpToolCall' }>;

/** More than a row can show: what a cell keeps of the arguments (a file's content can be one). */
const MAX_ARGUMENT_CHARS = 1000;

/** Arguments on one line (`{"a":1}`), at most MAX_ARGUMENT_CHARS; nothing for none or an empty object. */
export function compactArguments(args: unknown): string {
  if (args === undefined || args === null) return '';
  if (typeof args === 'object' && !Array.isArray(args) && Object.keys(args).length === 0) return '';
  let text: string;
  try {
    text = typeof args === 'string' ? args : (JSON.stringify(args) ?? '');
  } catch {
    text = String(args);
  }
  return text.length <= MAX_ARGUMENT_CHARS ? text : `${text.slice(0, MAX_ARGUMENT_CHARS)}…`;
}

/**
 * The text parts of the result, joined (the structured content when there is no content); else how
 * many items came back. An error wins; a failed call's text (an `isError` result) is its error.
 */
export function mcpResultSummary(item: Pick<McpItem, 'result' | 'error' | 'status'>): McpResultSummary {
  if (item.error !== null && item.error !== undefined) return { kind: 'error', message: item.error.message };
  const summary = contentSummary(item.result);
  return item.status === 'failed' && summary.kind === 'text' ? { kind: 'error', message: summary.text } : summary;
}

function contentSummary(result: McpItem['result']): McpResultSummary {
  const content: unknown[] = Array.isArray(result?.content) ? result.content : [];
  const texts: string[] = [];
  const types: string[] = [];
  for (const part of content) {
    const type =
      typeof part === 'object' && part !== null && typeof (part as { type?: unknown }).type === 'string'
        ? (part as { type: string }).type
        : 'item';
    if (type === 'text' && typeof (part as { text?: unknown }).text === 'string') texts.push((part as { text: string }).text);
    else types.push(type);
  }
  const distinct = [...new Set(types)];
  if (texts.length > 0) {
    const text = texts.join('\n');
    return types.length === 0 ? { kind: 'text', text } : { kind: 'text', text, others: { count: types.length, types: distinct } };
  }
  if (content.length === 0 && result?.structuredContent !== undefined && result.structuredContent !== null) {
    return { kind: 'text', text: compactArguments(result.structuredContent) };
  }
  return { kind: 'items', count: content.length, types: distinct };
}

export function liveMcpCall(item: McpItem): LiveMcpCall {
  return { itemId: item.id, server: item.server, tool: item.tool, arguments: compactArguments(item.arguments) };
}

/** A finished (or, at the end of its turn, unfinished) call as a transcript cell. */
export function mcpCallCell(item: McpItem): NewCell {
  const status: McpCellStatus = item.status === 'inProgress' ? 'interrupted' : item.status;
  return {
    kind: 'mcp',
    server: item.server,
    tool: item.tool,
    arguments: compactArguments(item.arguments),
    status,
    result: item.status === 'inProgress' && item.error === null ? null : mcpResultSummary(item),
    durationMs: item.durationMs ?? null,
  };
}

/** A live call the turn ended under: interrupted, or failed with its turn. */
export function unfinishedMcpCell(call: LiveMcpCall, status: 'interrupted' | 'failed'): NewCell {
  return { kind: 'mcp', server: call.server, tool: call.tool, arguments: call.arguments, status, result: null, durationMs: null };
}

/** `850ms`, `2.4s`, `1m 05s`. */
export function formatMcpDuration(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))}ms`;
  if (ms < 59_950) return `${(ms / 1000).toFixed(1)}s`;
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)}m ${String(seconds % 60).padStart(2, '0')}s`;
}

/** The waiting line's text for the servers a turn waits for. */
export function mcpStartingText(servers: readonly string[]): string {
  return servers.length === 1 ? `starting MCP server ${servers[0]}…` : `starting MCP servers ${servers.join(', ')}…`;
}

// ---- /mcp -------------------------------------------------------------------------------------

/** `/mcp`'s answer as a cell: the servers, or how to configure one when there are none. */
export function mcpServersCell(servers: readonly McpServerRow[]): NewCell {
  if (servers.length === 0) return { kind: 'info', text: MCP_NO_SERVERS_MESSAGE, hint: MCP_NO_SERVERS_HINT };
  return { kind: 'mcpServers', servers: [...servers] };
}

// ---- the `@` popup ----------------------------------------------------------------------------

/**
 * The server names of `[mcp_servers.*]` as the config holds them (raw tables or typed entries),
 * without those switched off (`enabled = false`), sorted.
 */
export function configuredMcpServerNames(servers: Readonly<Record<string, unknown>> | undefined): string[] {
  if (servers === undefined || servers === null || typeof servers !== 'object') return [];
  return Object.entries(servers)
    .filter(([, entry]) => !(typeof entry === 'object' && entry !== null && (entry as { enabled?: unknown }).enabled === false))
    .map(([name]) => name)
    .sort();
}

/**
 * The `@query` popup's rows: `mcp://NAME` for each server whose name (or `mcp://NAME`) starts with
 * the query ahead of the files (every server for a bare `@`), those whose name only contains it
 * (case-insensitive) after them, so a file's name typed in full is still the first row.
 */
export function withMcpServerEntries(names: readonly string[], query: string, paths: readonly string[]): string[] {
  const q = query.trim().toLowerCase();
  const first: string[] = [];
  const last: string[] = [];
  for (const name of names) {
    const lower = name.toLowerCase();
    const uri = `${MCP_URI_PREFIX}${name}`;
    if (q === '' || lower.startsWith(q) || uri.toLowerCase().startsWith(q)) first.push(uri);
    else if (lower.includes(q)) last.push(uri);
  }
  return [...first, ...paths, ...last];
}

// ---- mcpServerStatus/list ---------------------------------------------------------------------

/** The wire's entries as `/mcp` rows, in the order given; tools by name, sorted. */
export function mcpServerRows(entries: readonly McpServerStatus[]): McpServerRow[] {
  return entries.map((e) => ({
    name: e.name,
    status: e.status,
    tools: Object.keys(e.tools ?? {}).sort(),
    error: e.status === 'failed' ? (e.error ?? e.startupError ?? null) : null,
  }));
}

/** At most this many pages are read (a server that always says there is more cannot hang `/mcp`). */
const MAX_STATUS_PAGES = 50;

/** Every page of mcpServerStatus/list, as `/mcp` rows. */
export async function listMcpServers(client: AppServerClient): Promise<McpServerRow[]> {
  const entries: McpServerStatus[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < MAX_STATUS_PAGES; page++) {
    const res: ListMcpServerStatusResult = await client.request('mcpServerStatus/list', cursor === null ? {} : { cursor });
    entries.push(...res.data);
    cursor = res.nextCursor ?? null;
    if (cursor === null) break;
  }
  return mcpServerRows(entries);
}
