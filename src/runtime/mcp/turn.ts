/**
 * What a turn's input asks of MCP (found by context/input-scan.ts): `mcp://NAME` mentions make
 * NAME a required server, and `@NAME:uri` mentions (as Claude Code's, e.g. `@docs:file:///guide.md`)
 * read a resource of a configured server into the conversation. Before the turn samples, each
 * required server must be ready: one still starting is awaited (`tiller/mcpServerStarting`, so
 * the UI can say so; an interrupt gives up), a failed one is started again. A server that cannot
 * be had is a warning and a developer notice for the model; the turn still runs.
 */
import { countChars } from '../../protocol/limits.js';
import { MAX_USER_INPUT_TEXT_CHARS } from '../../protocol/user-input.js';
import type { InputScan } from '../context/input-scan.js';
import { developerTextItem, userTextItem } from '../core/history.js';
import type { TurnServices } from '../core/turn-services.js';
import { type ActiveTurn, TurnAborted } from '../core/turn-state.js';
import { base64Bytes } from './format.js';

export function unavailableNotice(server: string, reason: string): string {
  return `The MCP server "${server}" the user mentioned is not available: it ${reason}. Its tools cannot be used in this turn.`;
}

/** A resource's contents as the text the model reads, cut to the input text limit (as a paste would be). */
export function resourceText(
  server: string,
  uri: string,
  contents: ReadonlyArray<{ uri: string; mimeType?: string; text?: string; blob?: string }>,
): string {
  const parts = contents.map((c) => {
    if (typeof c.text === 'string') return c.text;
    const bytes = typeof c.blob === 'string' ? base64Bytes(c.blob) : 0;
    return `[binary content: ${c.mimeType ?? 'unknown type'}, ${bytes} bytes, ${c.uri}]`;
  });
  let body = parts.join('\n');
  const chars = countChars(body);
  if (chars > MAX_USER_INPUT_TEXT_CHARS) {
    body = `${[...body].slice(0, MAX_USER_INPUT_TEXT_CHARS).join('')}\n[… ${chars - MAX_USER_INPUT_TEXT_CHARS} characters cut …]`;
  }
  return `<resource server="${server}" uri="${uri}">\n${body}\n</resource>`;
}

/**
 * Runs after the user input was recorded and before the turn samples: waits for the servers the
 * input needs, tells the model about those it cannot have, and records the resources it mentions.
 * Throws TurnAborted when the turn is interrupted while waiting.
 */
export async function prepareMcpInput(services: TurnServices, turn: ActiveTurn, scan: InputScan): Promise<void> {
  const mcp = services.mcp;
  const events = services.events;
  const resources = mcp !== null && mcp.configured ? scan.resources : [];
  const required = [...new Set([...scan.mcpServers, ...resources.map((r) => r.server)])];
  // `tiller exec` has no one to watch servers start: its turns wait for all of them.
  const awaited = services.mcpAwaitStartup && mcp !== null ? mcp.pending().filter((name) => !required.includes(name)) : [];
  if (required.length === 0 && awaited.length === 0) return;

  const ready = new Set<string>();
  const outcomes = await Promise.all([
    ...required.map(async (server) => {
      if (mcp === null)
        return { server, ok: false as const, reason: `is not configured (no [mcp_servers.${server}] in config.toml)`, required: true };
      const outcome = await mcp.ensureReady(server, turn.signal, () => events.emit('tiller/mcpServerStarting', { server }));
      return { server, ...outcome, required: true };
    }),
    ...awaited.map(async (server) => {
      const outcome = await mcp!.ensureReady(server, turn.signal, () => events.emit('tiller/mcpServerStarting', { server }));
      return { server, ...outcome, required: false };
    }),
  ]);
  if (turn.signal.aborted || outcomes.some((o) => !o.ok && o.aborted)) throw new TurnAborted();
  for (const outcome of outcomes) {
    if (outcome.ok) {
      ready.add(outcome.server);
      continue;
    }
    // A server only awaited (exec) was reported by the manager when it failed.
    if (!outcome.required) continue;
    if (!('reported' in outcome && outcome.reported)) {
      events.warning(`MCP server "${outcome.server}" ${outcome.reason}`);
    }
    services.record({ type: 'item', item: developerTextItem(unavailableNotice(outcome.server, outcome.reason)) });
  }

  for (const { server, uri } of resources) {
    if (!ready.has(server) || mcp === null) continue;
    try {
      const result = await mcp.readResource(server, uri, turn.signal);
      services.record({ type: 'item', item: userTextItem(resourceText(server, uri, result.contents)) });
    } catch (error) {
      if (turn.signal.aborted) throw new TurnAborted();
      const message = error instanceof Error ? error.message : String(error);
      events.warning(`Could not read ${uri} from MCP server "${server}": ${message}`);
    }
  }
}
