/**
 * The MCP servers of one app server, shared by its threads: one process (or HTTP session) per
 * configured server per Tiller process. Servers start in the background when a thread starts;
 * each is `starting`, then `ready` with its tools or `failed` with a one-line reason (a failure is
 * one warning; the session goes on); `disabled` ones never start. A ready server that exits is
 * `failed` with the reason; a turn that needs it (a `mcp://NAME` mention) starts it again.
 * close() ends them all. The SDK is loaded on the first start, never before.
 */
import type { McpAuthStatus, McpResource, McpResourceTemplate, McpServerStatus, McpTool } from '../../protocol/api.js';
import type { FunctionToolSpec } from '../model/types.js';
import { type McpServerConfig, type ResolvedMcpServer, resolveMcpServer } from './config.js';
import type { McpConnection } from './connection.js';
import { oneLine, type RawToolResult } from './format.js';
import { qualifyToolNames, toolKey } from './names.js';

type ConnectionModule = typeof import('./connection.js');

export interface McpManagerEvents {
  /** A server's start-up state changed (`failed` also when a ready server exits). */
  status: (name: string, status: 'starting' | 'ready' | 'failed', error: string | null) => void;
  /** A server failed, or left a tool out: for the user, once. */
  warning: (message: string) => void;
}

export interface McpManagerOptions {
  /** Where stdio servers run when their config gives no `cwd`. */
  cwd: string;
  events?: Partial<McpManagerEvents>;
}

/** A tool as offered to the model. */
export interface McpToolEntry {
  /** The function name the model calls (`server__tool`, fitted to the API's rules). */
  name: string;
  server: string;
  /** The tool's own name on its server. */
  tool: string;
  trusted: boolean;
  timeoutMs: number;
  spec: FunctionToolSpec;
}

export interface McpToolTable {
  specs: FunctionToolSpec[];
  byName: ReadonlyMap<string, McpToolEntry>;
}

/** `reported`: the failure was already a warning (the start the turn waited for was the session's own). */
export type EnsureOutcome = { ok: true } | { ok: false; reason: string; aborted?: true; reported?: true };

const EMPTY_TABLE: McpToolTable = { specs: [], byName: new Map() };

type Phase = 'idle' | 'disabled' | 'starting' | 'ready' | 'failed';

interface ServerEntry {
  server: ResolvedMcpServer;
  phase: Phase;
  error: string | null;
  tools: McpTool[];
  resources: McpResource[];
  resourceTemplates: McpResourceTemplate[];
  authStatus: McpAuthStatus;
  connection: McpConnection | null;
  starting: Promise<EnsureOutcome> | null;
  /** The start in progress reports its own failure (a warning). */
  startWarns: boolean;
  abort: AbortController | null;
}

export class McpManager {
  private readonly entries = new Map<string, ServerEntry>();
  private readonly events: McpManagerEvents;
  private table: McpToolTable | null = null;
  private tableReserved = '';
  private closed = false;
  private module: Promise<ConnectionModule> | null = null;

  constructor(
    servers: Readonly<Record<string, McpServerConfig>>,
    private readonly options: McpManagerOptions,
  ) {
    this.events = { status: () => undefined, warning: () => undefined, ...options.events };
    for (const [name, config] of Object.entries(servers)) {
      const server = resolveMcpServer(name, config);
      this.entries.set(name, {
        server,
        phase: server.enabled ? 'idle' : 'disabled',
        error: null,
        tools: [],
        resources: [],
        resourceTemplates: [],
        authStatus: server.transport === 'streamableHttp' && server.bearerTokenEnvVar !== null ? 'bearerToken' : 'unsupported',
        connection: null,
        starting: null,
        startWarns: false,
        abort: null,
      });
    }
  }

  /** Whether any server is configured at all. */
  get configured(): boolean {
    return this.entries.size > 0;
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  names(): string[] {
    return [...this.entries.keys()];
  }

  /** Starts every enabled server not yet started, in the background (a failed one stays failed). */
  startAll(): void {
    if (this.closed) return;
    for (const entry of this.entries.values()) if (entry.phase === 'idle') void this.start(entry, false);
  }

  /** Names of servers still starting (or not yet started). */
  pending(): string[] {
    return [...this.entries.values()].filter((e) => e.phase === 'starting' || e.phase === 'idle').map((e) => e.server.name);
  }

  /**
   * Makes `name` ready for a turn that needs it: a starting one is awaited (up to its
   * startup_timeout_sec), a failed or unstarted one is started again. `onWait` is called when
   * the turn has to wait. An abort gives up waiting (the server goes on starting).
   */
  async ensureReady(name: string, signal: AbortSignal, onWait: () => void = () => undefined): Promise<EnsureOutcome> {
    const entry = this.entries.get(name);
    if (entry === undefined) return { ok: false, reason: 'is not configured (no [mcp_servers.' + name + '] in config.toml)' };
    if (entry.phase === 'disabled') return { ok: false, reason: 'is disabled (enabled = false in config.toml)' };
    if (entry.phase === 'ready') return { ok: true };
    if (this.closed) return { ok: false, reason: 'is not running (Tiller is closing)' };
    const joined = entry.phase === 'starting' && entry.starting !== null;
    const reported = joined && entry.startWarns;
    const starting = joined ? entry.starting! : this.start(entry, true);
    onWait();
    if (signal.aborted) return { ok: false, reason: 'interrupted', aborted: true };
    let onAbort: () => void = () => undefined;
    const aborted = new Promise<EnsureOutcome>((resolve) => {
      onAbort = () => resolve({ ok: false, reason: 'interrupted', aborted: true });
      signal.addEventListener('abort', onAbort, { once: true });
    });
    try {
      const outcome = await Promise.race([starting, aborted]);
      if (outcome.ok || outcome.aborted) return outcome;
      return { ok: false, reason: `failed to start: ${outcome.reason}`, ...(reported ? { reported: true as const } : {}) };
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  }

  private loadConnection(): Promise<ConnectionModule> {
    this.module ??= import('./connection.js');
    return this.module;
  }

  /** Starts one server; `quiet`: the caller reports a failure (a turn that needed it), so no warning here. */
  private start(entry: ServerEntry, quiet: boolean): Promise<EnsureOutcome> {
    if (entry.phase === 'starting' && entry.starting) return entry.starting;
    if (this.closed) return Promise.resolve({ ok: false, reason: 'Tiller is closing' });
    const { server } = entry;
    entry.phase = 'starting';
    entry.error = null;
    entry.startWarns = !quiet;
    this.invalidate();
    this.events.status(server.name, 'starting', null);
    const abort = new AbortController();
    entry.abort = abort;
    const run = async (): Promise<EnsureOutcome> => {
      const timer = setTimeout(
        () => abort.abort(new Error(`timed out after ${seconds(server.startupTimeoutMs)} (startup_timeout_sec)`)),
        server.startupTimeoutMs,
      );
      let connection: McpConnection | null = null;
      try {
        const { McpConnection } = await this.loadConnection();
        abort.signal.throwIfAborted();
        // The callbacks may come before open() returns (a server that exits while starting): they
        // act only on the connection once it is the server's.
        const opened = await McpConnection.open(server, {
          cwd: this.options.cwd,
          signal: abort.signal,
          timeoutMs: server.startupTimeoutMs,
          onClosed: (reason) => {
            if (connection !== null) this.stopped(entry, connection, reason);
          },
          onToolsChanged: () => {
            if (connection !== null) void this.relist(entry, connection);
          },
        });
        connection = opened;
        const listing = await opened.listTools(abort.signal, server.startupTimeoutMs);
        const { resources, resourceTemplates } = await opened.listResources(abort.signal, server.startupTimeoutMs);
        abort.signal.throwIfAborted();
        if (this.closed) throw new Error('Tiller is closing');
        entry.connection = opened;
        entry.authStatus = opened.authStatus;
        entry.tools = this.offered(server, listing.tools);
        entry.resources = resources;
        entry.resourceTemplates = resourceTemplates;
        entry.phase = 'ready';
        entry.error = null;
        this.invalidate();
        this.events.status(server.name, 'ready', null);
        for (const dropped of listing.dropped)
          this.events.warning(`MCP server "${server.name}": tool "${dropped.name}" was left out: ${dropped.reason}`);
        return { ok: true };
      } catch (error) {
        const reason = abort.signal.aborted
          ? oneLine(reasonOf(abort.signal.reason))
          : connection !== null
            ? connection.explain(error)
            : oneLine(reasonOf(error));
        if (connection !== null) await connection.close();
        entry.connection = null;
        entry.phase = 'failed';
        entry.error = reason;
        entry.tools = [];
        this.invalidate();
        if (this.closed) return { ok: false, reason };
        this.events.status(server.name, 'failed', reason);
        if (!quiet) this.events.warning(`MCP server "${server.name}" failed to start: ${reason}`);
        return { ok: false, reason };
      } finally {
        clearTimeout(timer);
        if (entry.abort === abort) entry.abort = null;
      }
    };
    const started = run();
    entry.starting = started;
    void started.finally(() => {
      if (entry.starting === started) entry.starting = null;
    });
    return started;
  }

  /** The tools the config lets through: `enabled_tools` (when given), less `disabled_tools`. */
  private offered(server: ResolvedMcpServer, tools: McpTool[]): McpTool[] {
    return tools.filter(
      (tool) => (server.enabledTools === null || server.enabledTools.has(tool.name)) && !server.disabledTools.has(tool.name),
    );
  }

  /** A ready server's connection ended on its own. */
  private stopped(entry: ServerEntry, connection: McpConnection, reason: string): void {
    if (entry.connection !== connection || this.closed) return;
    entry.connection = null;
    entry.phase = 'failed';
    entry.error = reason;
    entry.tools = [];
    this.invalidate();
    this.events.status(entry.server.name, 'failed', reason);
    this.events.warning(`MCP server "${entry.server.name}" stopped: ${reason}`);
    void connection.close();
  }

  private async relist(entry: ServerEntry, connection: McpConnection): Promise<void> {
    try {
      const listing = await connection.listTools(AbortSignal.timeout(entry.server.startupTimeoutMs), entry.server.startupTimeoutMs);
      if (entry.connection !== connection) return;
      entry.tools = this.offered(entry.server, listing.tools);
      this.invalidate();
    } catch {
      // The old list stays.
    }
  }

  private invalidate(): void {
    this.table = null;
  }

  /**
   * The tools of the ready servers, as the next sampling request offers them, named apart from
   * `reserved` (the built-in tools'); the same object until a server changes.
   */
  toolTable(reserved: readonly string[] = []): McpToolTable {
    if (this.table !== null && this.tableReserved === reserved.join('\0')) return this.table;
    this.tableReserved = reserved.join('\0');
    const ready = [...this.entries.values()].filter((e) => e.phase === 'ready');
    if (ready.length === 0) return (this.table = EMPTY_TABLE);
    const keys = ready.flatMap((e) => e.tools.map((tool) => ({ server: e.server.name, tool: tool.name })));
    const names = qualifyToolNames(keys, reserved);
    const byName = new Map<string, McpToolEntry>();
    const specs: FunctionToolSpec[] = [];
    for (const e of ready) {
      for (const tool of e.tools) {
        const name = names.get(toolKey(e.server.name, tool.name))!;
        const spec: FunctionToolSpec = {
          type: 'function',
          name,
          description: tool.description ?? tool.title ?? `The ${tool.name} tool of the ${e.server.name} MCP server.`,
          strict: false,
          parameters: { ...tool.inputSchema, properties: tool.inputSchema.properties ?? {} },
        };
        byName.set(name, {
          name,
          server: e.server.name,
          tool: tool.name,
          trusted: e.server.trusted,
          timeoutMs: e.server.toolTimeoutMs,
          spec,
        });
        specs.push(spec);
      }
    }
    specs.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return (this.table = { specs, byName });
  }

  /** Calls a tool; rejects with McpCallError (kind `aborted`, `timedOut`, `closed`, `error`). */
  async callTool(
    entry: McpToolEntry,
    args: Record<string, unknown>,
    options: { signal: AbortSignal; onProgress?: (message: string) => void },
  ): Promise<RawToolResult> {
    const connection = await this.liveConnection(entry.server);
    try {
      return await connection.callTool(entry.tool, args, {
        signal: options.signal,
        timeoutMs: entry.timeoutMs,
        ...(options.onProgress ? { onProgress: options.onProgress } : {}),
      });
    } catch (error) {
      // The server went away (an HTTP one is only found out by a call): it is failed from now on.
      const server = this.entries.get(entry.server);
      if (server && (error as { kind?: string }).kind === 'closed')
        this.stopped(server, connection, (error as Error).message.replace(/^the server /, ''));
      throw error;
    }
  }

  /** `resources/read` on a ready server (tool_timeout_sec applies). */
  async readResource(
    name: string,
    uri: string,
    signal: AbortSignal,
  ): Promise<{ contents: Array<{ uri: string; mimeType?: string; text?: string; blob?: string }> }> {
    const entry = this.entries.get(name);
    const connection = await this.liveConnection(name);
    return connection.readResource(uri, { signal, timeoutMs: entry!.server.toolTimeoutMs });
  }

  private async liveConnection(name: string): Promise<McpConnection> {
    const entry = this.entries.get(name);
    if (entry?.connection) return entry.connection;
    const { McpCallError } = await this.loadConnection();
    throw new McpCallError(`MCP server "${name}" is not running${entry?.error ? ` (${entry.error})` : ''}`, 'closed');
  }

  /** Every configured server, in config order. */
  status(): McpServerStatus[] {
    return [...this.entries.values()].map((e) => {
      const status = e.phase === 'idle' ? 'starting' : e.phase;
      return {
        name: e.server.name,
        status,
        ...(status === 'failed' ? { error: e.error ?? 'failed' } : {}),
        tools: Object.fromEntries(e.tools.map((tool) => [tool.name, tool])),
        resources: e.resources,
        resourceTemplates: e.resourceTemplates,
        authStatus: e.authStatus,
        startupError: status === 'failed' ? (e.error ?? 'failed') : null,
      };
    });
  }

  /** `mcpServer/refresh`: failed (or unstarted) servers start again, ready ones list their tools again. */
  refresh(name?: string | null): void {
    for (const entry of this.entries.values()) {
      if (name && entry.server.name !== name) continue;
      if (entry.phase === 'failed' || entry.phase === 'idle') void this.start(entry, false);
      else if (entry.phase === 'ready' && entry.connection) void this.relist(entry, entry.connection);
    }
  }

  /** Process ids of the running stdio servers (for tests and the bench). */
  pids(): number[] {
    return [...this.entries.values()].flatMap((e) => (e.connection?.pid != null ? [e.connection.pid] : []));
  }

  /** Ends every server (starting ones too) and waits until their processes are gone. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const waits: Promise<unknown>[] = [];
    for (const entry of this.entries.values()) {
      entry.abort?.abort(new Error('Tiller is closing'));
      if (entry.starting) waits.push(entry.starting);
      const connection = entry.connection;
      entry.connection = null;
      if (connection) waits.push(connection.close());
    }
    await Promise.allSettled(waits);
    this.invalidate();
  }
}

function seconds(ms: number): string {
  const s = ms / 1000;
  return `${Number.isInteger(s) ? s : s.toFixed(1)} s`;
}

function reasonOf(reason: unknown): string {
  return reason instanceof Error ? reason.message : String(reason ?? 'aborted');
}
