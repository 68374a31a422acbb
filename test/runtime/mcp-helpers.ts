/** Shared pieces of the MCP runtime tests: server configs (the reference servers, the fixture), a harness, waits. */
import { join } from 'node:path';
import type { McpServerStatus } from '../../src/protocol/api.js';
import type { TillerConfig } from '../../src/runtime/config.js';
import type { McpServerConfig } from '../../src/runtime/mcp/config.js';
import { type Harness, startHarness } from './support/harness.js';
import { ROOT } from './support/spawn.js';

export const FIXTURE = join(ROOT, 'test/support/mcp-fixture-server.ts');

/** The in-repo fixture over stdio (run with tsx), with its flags. */
export function fixtureServer(flags: string[] = [], extra: McpServerConfig = {}): McpServerConfig {
  return { command: process.execPath, args: ['--import', 'tsx', FIXTURE, ...flags], cwd: ROOT, ...extra };
}

export function everythingServer(extra: McpServerConfig = {}): McpServerConfig {
  return { command: join(ROOT, 'node_modules/.bin/mcp-server-everything'), args: ['stdio'], ...extra };
}

export function filesystemServer(dir: string, extra: McpServerConfig = {}): McpServerConfig {
  return { command: join(ROOT, 'node_modules/.bin/mcp-server-filesystem'), args: [dir], ...extra };
}

export function startMcpHarness(
  servers: Record<string, McpServerConfig>,
  config: Partial<TillerConfig> = {},
  cwd?: string,
): Promise<Harness> {
  return startHarness({ config: { mcpServers: servers, ...config }, ...(cwd ? { cwd } : {}) });
}

/** Polls mcpServerStatus/list until `name` is in `status` (rejects after `timeoutMs`). */
export async function waitForServer(
  h: Harness,
  name: string,
  status: McpServerStatus['status'],
  timeoutMs = 15_000,
): Promise<McpServerStatus> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const { data } = await h.server.request('mcpServerStatus/list', {});
    const found = data.find((s) => s.name === name);
    if (found?.status === status) return found;
    if (Date.now() > until) throw new Error(`MCP server ${name}: expected ${status}, last seen ${JSON.stringify(found)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export function functionOutputs(body: { input: Array<{ type: string; output?: string; call_id?: string }> }): string[] {
  return body.input.flatMap((i) => (i.type === 'function_call_output' ? [i.output!] : []));
}

export function toolNames(body: { tools: Array<{ name: string }> }): string[] {
  return body.tools.map((t) => t.name);
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Waits until `pid` is gone (rejects after `timeoutMs`). */
export async function waitForExit(pid: number, timeoutMs = 5000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (isAlive(pid)) {
    if (Date.now() > until) throw new Error(`process ${pid} is still alive`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export function callTool(name: string, args: unknown, callId = 'call_mcp') {
  return { functionCall: { name, arguments: args, callId } };
}
