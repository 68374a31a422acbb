/**
 * A real HTTP server on 127.0.0.1 speaking the OpenAI Responses streaming protocol at
 * POST {base}/responses, with scripted answers and faults (status codes, dropped sockets,
 * malformed events, stalls, response.failed), and the Models API's GET {base}/models (a list of
 * ids, or an error status: setModels). Used by runtime tests, e2e tests and the bench.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { encodeSse, failedEvent, responseEvents, splitWords, type ScriptUsage, type StreamEvent } from '../../src/runtime/model/sse-events.js';

export type Fault =
  | { kind: 'status'; status: number; body?: unknown; retryAfter?: string }
  | { kind: 'drop'; afterEvents: number }
  | { kind: 'malformed'; afterEvents: number }
  | { kind: 'stall'; afterEvents: number }
  | { kind: 'failed'; code: string; message: string };

export interface ScriptedResponse {
  /** The assistant message, streamed as deltas (split into words unless `deltas`). */
  text?: string;
  deltas?: string[];
  functionCall?: { name: string; arguments: unknown; callId?: string };
  /** Pause before each event after the first. */
  delayMs?: number;
  /** response.completed's end_turn (omit → field absent). */
  endTurn?: boolean;
  usage?: ScriptUsage;
  fault?: Fault;
}

export interface RecordedRequest {
  body: any;
  headers: Record<string, string | string[] | undefined>;
  at: number;
}

/** Computes an answer from the request; used instead of the queue when set (manual testing). */
export type Responder = (request: RecordedRequest) => ScriptedResponse;

/** What GET /models answers with by default. */
export const FAKE_MODELS = ['fake-model', 'fake-model-mini', 'fake-reasoner'];

export class FakeResponsesServer {
  /** The Responses requests (POST /responses) only. */
  readonly requests: RecordedRequest[] = [];
  /** Each GET /models, in order. */
  readonly modelListRequests: RecordedRequest[] = [];
  private models: string[] | { status: number } = FAKE_MODELS;
  private readonly queue: ScriptedResponse[] = [];
  private fallback: ScriptedResponse = { text: 'ok' };
  private responder: Responder | null = null;
  private readonly sockets = new Set<Socket>();
  private readonly waiters: Array<{ count: number; resolve: () => void }> = [];
  private counter = 0;

  private constructor(
    private readonly server: Server,
    readonly baseUrl: string,
  ) {}

  static async start(options: { port?: number; host?: string } = {}): Promise<FakeResponsesServer> {
    const server = createServer();
    const host = options.host ?? '127.0.0.1';
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, host, () => resolve());
    });
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('fake server: no TCP address');
    const fake = new FakeResponsesServer(server, `http://${host}:${address.port}/v1`);
    server.on('connection', (socket) => {
      fake.sockets.add(socket);
      socket.on('close', () => fake.sockets.delete(socket));
    });
    server.on('request', (req, res) => {
      fake.handle(req, res).catch(() => res.destroy());
    });
    return fake;
  }

  enqueue(...responses: ScriptedResponse[]): void {
    this.queue.push(...responses);
  }

  setDefault(response: ScriptedResponse): void {
    this.fallback = response;
  }

  respondWith(responder: Responder | null): void {
    this.responder = responder;
  }

  /** GET /models lists these ids, or answers with this status (e.g. `{ status: 404 }`). */
  setModels(models: string[] | { status: number }): void {
    this.models = models;
  }

  waitForRequests(count: number, timeoutMs = 5000): Promise<RecordedRequest[]> {
    if (this.requests.length >= count) return Promise.resolve(this.requests.slice());
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(new Error(`fake server: expected ${count} requests, got ${this.requests.length} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiters.push({
        count,
        resolve: () => {
          clearTimeout(timer);
          resolve(this.requests.slice());
        },
      });
    });
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (req.method === 'GET' && url.pathname.endsWith('/models')) {
      this.modelListRequests.push({ body: null, headers: { ...req.headers }, at: Date.now() });
      const models = this.models;
      res.writeHead(Array.isArray(models) ? 200 : models.status, { 'content-type': 'application/json' });
      if (Array.isArray(models)) {
        res.end(JSON.stringify({ object: 'list', data: models.map((id) => ({ id, object: 'model', created: 0, owned_by: 'fake' })) }));
      } else res.end(JSON.stringify({ error: { message: `scripted status ${models.status}`, type: 'invalid_request_error', code: null } }));
      return;
    }
    if (req.method !== 'POST' || !url.pathname.endsWith('/responses')) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `no route ${req.method} ${url.pathname}`, type: 'invalid_request_error' } }));
      return;
    }
    let body: unknown;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      body = null;
    }
    const recorded: RecordedRequest = { body, headers: { ...req.headers }, at: Date.now() };
    this.requests.push(recorded);
    for (const waiter of this.waiters.filter((w) => this.requests.length >= w.count)) {
      this.waiters.splice(this.waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
    const script = this.responder ? this.responder(recorded) : (this.queue.shift() ?? this.fallback);
    await this.answer(script, body, res);
  }

  private async answer(script: ScriptedResponse, body: unknown, res: ServerResponse): Promise<void> {
    const fault = script.fault;
    if (fault?.kind === 'status') {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (fault.retryAfter !== undefined) headers['retry-after'] = fault.retryAfter;
      const errorBody = fault.body ?? { error: { message: `scripted status ${fault.status}`, type: 'server_error', code: null } };
      res.writeHead(fault.status, headers);
      res.end(typeof errorBody === 'string' ? errorBody : JSON.stringify(errorBody));
      return;
    }
    this.counter += 1;
    const responseId = `resp_fake_${this.counter}`;
    const model = typeof (body as { model?: unknown })?.model === 'string' ? (body as { model: string }).model : 'fake-model';
    let events: StreamEvent[];
    if (fault?.kind === 'failed') {
      const created = responseEvents({ responseId, model, deltas: [] })[0]!;
      events = [created, failedEvent(responseId, model, fault.code, fault.message, 1)];
    } else {
      const deltas = script.deltas ?? splitWords(script.text ?? (script.functionCall ? '' : 'ok'));
      const call = script.functionCall;
      events = responseEvents({
        responseId,
        model,
        deltas,
        functionCall: call && {
          name: call.name,
          arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
          callId: call.callId ?? `call_fake_${this.counter}`,
        },
        endTurn: script.endTurn,
        usage: script.usage ?? { input_tokens: 10, output_tokens: deltas.length },
      });
    }

    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    res.flushHeaders();
    const cut = fault && 'afterEvents' in fault ? fault.afterEvents : events.length;
    for (let i = 0; i < Math.min(cut, events.length); i++) {
      if (i > 0 && script.delayMs) await sleep(script.delayMs);
      if (res.destroyed) return;
      res.write(encodeSse(events[i]!));
    }
    switch (fault?.kind) {
      case 'drop':
        // Let the written frames reach the client before the connection is cut.
        await sleep(10);
        res.socket?.destroy();
        return;
      case 'malformed':
        res.write('event: response.output_text.delta\ndata: {"type": "response.output_text.delta", "delta": \n\n');
        res.end();
        return;
      case 'stall':
        // Keep the socket open and silent; close() destroys it.
        return;
      default:
        res.end();
    }
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
