/**
 * One live MCP server: the SDK's Client over stdio (GroupStdioTransport) or streamable HTTP.
 * Loaded only when a server starts (the manager imports it dynamically), so a start-up without
 * MCP servers never loads the SDK. Every failure becomes an Error with a one-line message.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolResultSchema,
  ErrorCode,
  ListToolsResultSchema,
  McpError,
  ToolListChangedNotificationSchema,
  ToolSchema,
  type CallToolResult,
  type ReadResourceResult,
} from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod/v4';
import type { McpAuthStatus, McpResource, McpResourceTemplate, McpTool } from '../../protocol/api.js';
import { registerSecret } from '../../protocol/redact.js';
import { TILLER_VERSION } from '../../version.js';
import type { ResolvedMcpServer } from './config.js';
import { oneLine } from './format.js';
import { GroupStdioTransport } from './stdio-transport.js';

/** The variables a stdio server inherits (as Codex's list): no API keys, unless `env` or `env_vars` pass them. */
const INHERITED_ENV = [
  'HOME',
  'LOGNAME',
  'PATH',
  'SHELL',
  'USER',
  'LANG',
  'LC_ALL',
  'LC_CTYPE',
  'TERM',
  'TMPDIR',
  'TZ',
  '__CF_USER_TEXT_ENCODING',
];
/** Listing stops after this many pages (a server that always says "more" cannot hang start-up). */
const MAX_PAGES = 50;
const MAX_RESOURCES = 1000;

export interface DroppedTool {
  name: string;
  reason: string;
}

export interface ToolListing {
  tools: McpTool[];
  dropped: DroppedTool[];
}

export interface OpenOptions {
  /** Where a stdio server runs when its config gives no `cwd` (and what a relative one is taken from). */
  cwd: string;
  signal: AbortSignal;
  timeoutMs: number;
  /** The connection ended without close() (the process exited, the pipe broke). */
  onClosed: (reason: string) => void;
  /** The server said its tool list changed. */
  onToolsChanged: () => void;
}

export interface CallOptions {
  signal: AbortSignal;
  timeoutMs: number;
  onProgress?: (message: string) => void;
}

/**
 * A signal of its own for one SDK request, aborted with `parent`: the SDK never removes the abort
 * listener it adds to a request's signal, so a turn's signal shared by many calls would pile them up.
 */
async function withSignal<T>(parent: AbortSignal, run: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const onAbort = (): void => controller.abort(parent.reason);
  if (parent.aborted) onAbort();
  else parent.addEventListener('abort', onAbort, { once: true });
  try {
    return await run(controller.signal);
  } finally {
    parent.removeEventListener('abort', onAbort);
  }
}

/** `tools/list` items taken as they come; each is checked on its own, so one bad tool does not fail the server. */
const LaxToolsResultSchema = ListToolsResultSchema.extend({ tools: z.array(z.unknown()) });

function stdioEnv(server: Extract<ResolvedMcpServer, { transport: 'stdio' }>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const key of [...INHERITED_ENV, ...server.envVars]) {
    const value = process.env[key];
    // A bash function exported into the environment is not a value to pass on.
    if (value !== undefined && !value.startsWith('()')) env[key] = value;
  }
  return { ...env, ...server.env };
}

export class McpConnection {
  private closing = false;

  private constructor(
    readonly server: ResolvedMcpServer,
    private readonly client: Client,
    private readonly transport: Transport,
    readonly authStatus: McpAuthStatus,
  ) {}

  static async open(server: ResolvedMcpServer, options: OpenOptions): Promise<McpConnection> {
    let transport: Transport;
    let authStatus: McpAuthStatus = 'unsupported';
    if (server.transport === 'stdio') {
      const { resolve } = await import('node:path');
      const cwd = server.cwd === null ? options.cwd : resolve(options.cwd, server.cwd);
      transport = new GroupStdioTransport({ command: server.command, args: server.args, env: stdioEnv(server), cwd });
    } else {
      const headers: Record<string, string> = { ...server.httpHeaders };
      if (server.bearerTokenEnvVar !== null) {
        const token = process.env[server.bearerTokenEnvVar];
        if (token === undefined || token.length === 0)
          throw new Error(`the environment variable ${server.bearerTokenEnvVar} (bearer_token_env_var) is not set`);
        registerSecret(token);
        headers.Authorization = `Bearer ${token}`;
        authStatus = 'bearerToken';
      }
      transport = new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers } });
    }
    const client = new Client({ name: 'tiller', version: TILLER_VERSION }, { capabilities: {} });
    const connection = new McpConnection(server, client, transport, authStatus);
    client.onerror = () => undefined;
    client.onclose = () => {
      if (!connection.closing) options.onClosed(connection.describeClose());
    };
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => options.onToolsChanged());
    try {
      await client.connect(transport, { signal: options.signal, timeout: options.timeoutMs });
    } catch (error) {
      const reason = connection.explain(error, options.signal);
      await connection.close();
      throw new Error(reason);
    }
    return connection;
  }

  /** Why the connection ended, as the transport knows it. */
  private describeClose(): string {
    const exit = this.transport instanceof GroupStdioTransport ? this.transport.exitReason : null;
    return exit ?? 'the connection to the server closed';
  }

  private unreachable(error: TypeError): string {
    const cause = (error as { cause?: unknown }).cause;
    const detail = cause instanceof Error ? ((cause as NodeJS.ErrnoException).code ?? cause.message) : null;
    return oneLine(`the server could not be reached: ${error.message}${detail ? ` (${detail})` : ''}`);
  }

  /** The server went away during a request: `the server exited with code 1: …`. */
  private closedReason(): string {
    const exit = this.transport instanceof GroupStdioTransport ? this.transport.exitReason : null;
    return oneLine(exit === null ? 'the connection to the server closed' : `the server ${exit}`);
  }

  /** One line for a failed request: the abort's reason, the process's exit, or the error. */
  explain(error: unknown, signal?: AbortSignal): string {
    if (signal?.aborted) return oneLine(signal.reason instanceof Error ? signal.reason.message : String(signal.reason ?? 'aborted'));
    if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) return oneLine(this.describeClose());
    const exit = this.transport instanceof GroupStdioTransport ? this.transport.exitReason : null;
    if (exit !== null) return oneLine(exit);
    if (error instanceof StreamableHTTPError && typeof error.code === 'number') {
      return oneLine(`HTTP ${error.code}: ${error.message.replace(/^Streamable HTTP error: /, '')}`);
    }
    const message = error instanceof Error ? error.message : String(error);
    return oneLine(message.replace(/^MCP error -?\d+: /, ''));
  }

  get pid(): number | null {
    return this.transport instanceof GroupStdioTransport ? this.transport.pid : null;
  }

  get hasResources(): boolean {
    return this.client.getServerCapabilities()?.resources !== undefined;
  }

  async listTools(signal: AbortSignal, timeoutMs: number): Promise<ToolListing> {
    const tools: McpTool[] = [];
    const dropped: DroppedTool[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const params = cursor === undefined ? {} : { cursor };
      const result = await withSignal(signal, (own) =>
        this.client.request({ method: 'tools/list', params }, LaxToolsResultSchema, { signal: own, timeout: timeoutMs }),
      );
      for (const raw of result.tools) {
        const parsed = ToolSchema.safeParse(raw);
        const name = typeof (raw as { name?: unknown })?.name === 'string' ? (raw as { name: string }).name : '(unnamed)';
        if (parsed.success) {
          tools.push(parsed.data as McpTool);
          continue;
        }
        const issue = parsed.error.issues[0];
        const inSchema = issue?.path[0] === 'inputSchema';
        dropped.push({
          name,
          reason: inSchema
            ? 'its input schema is not an object schema'
            : `its definition is not valid (${issue ? `${issue.path.join('.') || 'tool'}: ${issue.message}` : 'unknown problem'})`,
        });
      }
      cursor = result.nextCursor;
      if (cursor === undefined) break;
    }
    return { tools, dropped };
  }

  /** Resources and templates, when the server has any; a server that fails to list them just has none. */
  async listResources(
    signal: AbortSignal,
    timeoutMs: number,
  ): Promise<{ resources: McpResource[]; resourceTemplates: McpResourceTemplate[] }> {
    if (!this.hasResources) return { resources: [], resourceTemplates: [] };
    const resources: McpResource[] = [];
    const resourceTemplates: McpResourceTemplate[] = [];
    try {
      let cursor: string | undefined;
      for (let page = 0; page < MAX_PAGES && resources.length < MAX_RESOURCES; page++) {
        const params = cursor === undefined ? {} : { cursor };
        const result = await withSignal(signal, (own) => this.client.listResources(params, { signal: own, timeout: timeoutMs }));
        resources.push(...(result.resources as McpResource[]));
        cursor = result.nextCursor;
        if (cursor === undefined) break;
      }
    } catch {
      // Listing resources is a convenience (the `@` popup); reading one still works.
    }
    try {
      let cursor: string | undefined;
      for (let page = 0; page < MAX_PAGES && resourceTemplates.length < MAX_RESOURCES; page++) {
        const params = cursor === undefined ? {} : { cursor };
        const result = await withSignal(signal, (own) => this.client.listResourceTemplates(params, { signal: own, timeout: timeoutMs }));
        resourceTemplates.push(...(result.resourceTemplates as McpResourceTemplate[]));
        cursor = result.nextCursor;
        if (cursor === undefined) break;
      }
    } catch {
      // As above.
    }
    return { resources: resources.slice(0, MAX_RESOURCES), resourceTemplates: resourceTemplates.slice(0, MAX_RESOURCES) };
  }

  /** The tool's result; throws McpCallError with a one-line reason (`timedOut` when the per-call timeout ran out). */
  async callTool(tool: string, args: Record<string, unknown>, options: CallOptions): Promise<CallToolResult> {
    try {
      return (await withSignal(options.signal, (own) =>
        this.client.callTool({ name: tool, arguments: args }, CallToolResultSchema, {
          signal: own,
          timeout: options.timeoutMs,
          ...(options.onProgress
            ? {
                onprogress: (progress: { progress: number; total?: number; message?: string }) =>
                  options.onProgress!(
                    progress.message ?? (progress.total !== undefined ? `${progress.progress}/${progress.total}` : `${progress.progress}`),
                  ),
              }
            : {}),
        }),
      )) as CallToolResult;
    } catch (error) {
      if (options.signal.aborted) throw new McpCallError('interrupted', 'aborted');
      if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
        throw new McpCallError(`timed out after ${formatSeconds(options.timeoutMs)} (tool_timeout_sec)`, 'timedOut');
      }
      if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) throw new McpCallError(this.closedReason(), 'closed');
      // An HTTP server that went away shows as a failed fetch: the connection is as good as closed.
      if (this.server.transport === 'streamableHttp' && error instanceof TypeError)
        throw new McpCallError(this.unreachable(error), 'closed');
      throw new McpCallError(this.explain(error), 'error');
    }
  }

  async readResource(uri: string, options: { signal: AbortSignal; timeoutMs: number }): Promise<ReadResourceResult> {
    try {
      return await withSignal(options.signal, (own) => this.client.readResource({ uri }, { signal: own, timeout: options.timeoutMs }));
    } catch (error) {
      if (options.signal.aborted) throw new McpCallError('interrupted', 'aborted');
      throw new McpCallError(this.explain(error), 'error');
    }
  }

  async close(): Promise<void> {
    this.closing = true;
    try {
      await this.client.close();
    } catch {
      // Closing is best effort; the transport kills what is left.
    }
    await this.transport.close().catch(() => undefined);
  }
}

export class McpCallError extends Error {
  constructor(
    message: string,
    readonly kind: 'aborted' | 'timedOut' | 'closed' | 'error',
  ) {
    super(message);
    this.name = 'McpCallError';
  }
}

export function formatSeconds(ms: number): string {
  const s = ms / 1000;
  return `${Number.isInteger(s) ? s : s.toFixed(1)} s`;
}
