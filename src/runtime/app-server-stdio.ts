/**
 * `tiller app-server`: the in-process app server over stdio, JSON-RPC 2.0, one message per line
 * (docs/codex-parity.md#app-server). `initialize` comes first; approvals go to the client as server requests and are
 * awaited. A bad request gets a JSON-RPC error; a line that is not a request with an id (malformed JSON, a
 * non-object, a bad id) gets no answer, as Codex, whose schema has no `id: null` error. Nothing stops
 * the server; EOF on stdin exits 0.
 * stdout carries protocol lines only.
 */
import { createInterface } from 'node:readline';
import { errorMessage } from '../error-message.js';
import {
  type AppServerClient,
  type ClientMethod,
  JSONRPC_INVALID_REQUEST,
  JSONRPC_METHOD_NOT_FOUND,
  JsonRpcError,
} from '../protocol/api.js';
import { paramsSchemas } from './app-server-params.js';
import { createInProcessAppServer } from './app-server.js';
import { loadConfigOrReport } from './config.js';

type Id = string | number;

interface Outgoing {
  write(message: object): void;
}

/** Every method the app server answers has a params schema: one list, so stdio never drifts from it. */
const CLIENT_METHODS: ReadonlySet<string> = new Set(Object.keys(paramsSchemas));

function isId(value: unknown): value is Id {
  return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
}

/**
 * The JSON-RPC connection over one server: feed it lines, it writes lines. Exported so tests can
 * drive it without a child process.
 */
export class JsonRpcConnection {
  private initialized = false;
  private nextServerRequestId = 0;
  private readonly pendingServerRequests = new Map<Id, { resolve: (result: unknown) => void; reject: (error: Error) => void }>();
  /**
   * Requests are answered one after another, in the order they arrived; but an interrupt goes at
   * once, so a turn/start still being prepared (its input checked, its images decoded) never holds
   * up the Esc that stops a turn. It names a turn whose start was already answered, so it needs no
   * place in the line.
   */
  private chain: Promise<void> = Promise.resolve();
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly server: AppServerClient,
    private readonly out: Outgoing,
  ) {
    server.onNotification((n) => {
      if (this.initialized) this.out.write({ jsonrpc: '2.0', method: n.method, params: n.params });
    });
    server.setServerRequestHandler((req) => {
      const id = `server-${this.nextServerRequestId++}`;
      return new Promise((resolve, reject) => {
        this.pendingServerRequests.set(id, { resolve: resolve as (r: unknown) => void, reject });
        this.out.write({ jsonrpc: '2.0', id, method: req.method, params: req.params });
      });
    });
  }

  private error(id: Id, code: number, message: string, data?: unknown): void {
    this.out.write({ jsonrpc: '2.0', id, error: data === undefined ? { code, message } : { code, message, data } });
  }

  handleLine(line: string): void {
    if (line.trim().length === 0) return;
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      return;
    }
    if (typeof message !== 'object' || message === null || Array.isArray(message)) return;
    const msg = message as { id?: unknown; method?: unknown; params?: unknown; result?: unknown; error?: unknown };
    if (typeof msg.method === 'string') {
      if (msg.id === undefined) return; // a client notification (e.g. `initialized`): nothing to do
      if (!isId(msg.id)) return;
      const { id, method, params } = { id: msg.id, method: msg.method, params: msg.params };
      if (method === 'turn/interrupt' && this.initialized) {
        const handled = this.handleRequest(id, method, params).finally(() => this.inFlight.delete(handled));
        this.inFlight.add(handled);
      } else this.chain = this.chain.then(() => this.handleRequest(id, method, params));
      return;
    }
    if (isId(msg.id) && ('result' in msg || 'error' in msg)) {
      const pending = this.pendingServerRequests.get(msg.id);
      if (!pending) return;
      this.pendingServerRequests.delete(msg.id);
      if ('error' in msg && msg.error !== undefined) pending.reject(new Error('client answered the request with an error'));
      else pending.resolve(msg.result);
      return;
    }
    if (isId(msg.id)) this.error(msg.id, JSONRPC_INVALID_REQUEST, 'Invalid Request');
  }

  private async handleRequest(id: Id, method: string, params: unknown): Promise<void> {
    if (!CLIENT_METHODS.has(method)) {
      this.error(id, JSONRPC_METHOD_NOT_FOUND, `method not found: ${method}`);
      return;
    }
    if (method === 'initialize' && this.initialized) {
      this.error(id, JSONRPC_INVALID_REQUEST, 'Already initialized');
      return;
    }
    if (method !== 'initialize' && !this.initialized) {
      this.error(id, JSONRPC_INVALID_REQUEST, 'Not initialized');
      return;
    }
    try {
      const result = await this.server.request(method as ClientMethod, params as never);
      if (method === 'initialize') this.initialized = true;
      this.out.write({ jsonrpc: '2.0', id, result });
    } catch (error) {
      if (error instanceof JsonRpcError) this.error(id, error.code, error.message, error.data);
      else this.error(id, -32603, errorMessage(error));
    }
  }

  /** Waits for requests in flight, rejects unanswered server requests, closes the server. */
  async close(): Promise<void> {
    await this.chain;
    await Promise.all(this.inFlight);
    for (const pending of this.pendingServerRequests.values()) pending.reject(new Error('connection closed'));
    this.pendingServerRequests.clear();
    await this.server.close();
  }
}

function parseArgs(argv: readonly string[]): { model?: string; baseUrl?: string } | { error: string } {
  const out: { model?: string; baseUrl?: string } = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const next = argv[i + 1];
    if ((arg === '--model' || arg === '--base-url') && next !== undefined) {
      if (arg === '--model') out.model = next;
      else out.baseUrl = next;
      i += 1;
    } else return { error: `unknown argument '${arg}'` };
  }
  return out;
}

export async function main(argv: string[]): Promise<number> {
  const args = parseArgs(argv);
  if ('error' in args) {
    process.stderr.write(`tiller app-server: ${args.error}\n`);
    return 2;
  }
  const config = loadConfigOrReport(args);
  if (config === null) return 2;
  const server = createInProcessAppServer({ config, cwd: process.cwd() });
  const connection = new JsonRpcConnection(server, {
    write: (message) => void process.stdout.write(`${JSON.stringify(message)}\n`),
  });
  // Exiting through process.exit() runs the 'exit' handlers, which kill running commands.
  for (const [signal, code] of [
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ] as const)
    process.once(signal, () => process.exit(code));
  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const line of lines) connection.handleLine(line);
  await connection.close();
  return 0;
}
