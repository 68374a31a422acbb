/**
 * The names MCP tools are offered to the model under: `server__tool`, fitted to the Responses
 * API's function name rule (`^[a-zA-Z0-9_-]{1,64}$`). Names are given in a fixed order (server,
 * then tool), so the same servers always give the same names whatever order they started in; a
 * name already taken (by `shell`, or by another tool once sanitized or cut) gets `_2`, `_3`, ….
 */
import { createHash } from 'node:crypto';

export const MCP_TOOL_NAME_DELIMITER = '__';
export const MAX_TOOL_NAME_LENGTH = 64;
const VALID = /^[a-zA-Z0-9_-]{1,64}$/;

export function isValidToolName(name: string): boolean {
  return VALID.test(name);
}

/** `server__tool` with every other character made `_`; over 64, cut and ended with a short hash of the whole name. */
export function sanitizedToolName(server: string, tool: string): string {
  const joined = `${server}${MCP_TOOL_NAME_DELIMITER}${tool}`;
  const clean = joined.replace(/[^a-zA-Z0-9_-]/g, '_') || '_';
  if (clean.length <= MAX_TOOL_NAME_LENGTH) return clean;
  const hash = createHash('sha1').update(joined).digest('hex').slice(0, 8);
  return `${clean.slice(0, MAX_TOOL_NAME_LENGTH - hash.length - 1)}_${hash}`;
}

export interface ToolKey {
  server: string;
  tool: string;
}

/**
 * The qualified name of each tool, keyed `server\0tool`. `reserved` names (the built-in tools)
 * are never given out.
 */
export function qualifyToolNames(tools: readonly ToolKey[], reserved: readonly string[] = []): Map<string, string> {
  const sorted = [...tools].sort((a, b) => (a.server === b.server ? compare(a.tool, b.tool) : compare(a.server, b.server)));
  const taken = new Set(reserved);
  const out = new Map<string, string>();
  for (const { server, tool } of sorted) {
    const key = toolKey(server, tool);
    if (out.has(key)) continue;
    const base = sanitizedToolName(server, tool);
    let name = base;
    for (let n = 2; taken.has(name); n++) {
      const suffix = `_${n}`;
      name = `${base.slice(0, MAX_TOOL_NAME_LENGTH - suffix.length)}${suffix}`;
    }
    taken.add(name);
    out.set(key, name);
  }
  return out;
}

export function toolKey(server: string, tool: string): string {
  return `${server}\0${tool}`;
}

/** Code-unit order, not the locale's: the same names everywhere. */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
