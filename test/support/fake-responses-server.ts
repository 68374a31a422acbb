/**
 * A real HTTP server on 127.0.0.1 speaking the OpenAI Responses streaming protocol at
 * POST {base}/responses, with scripted answers and faults (status codes, dropped sockets,
 * malformed events, stalls, response.failed), and the Models API's GET {base}/models (a list of
 * ids, or an error status: setModels). Used by runtime tests, e2e tests and the bench.
 *
 * A test that needs a turn to stay running holds its stream at a gate instead of pacing it in real
 * time: `const gate = server.gate(); server.enqueue({ text, hold: { gate, afterDeltas: 2 } })` streams
 * the first two words, then nothing until `gate.release()` (a client that hangs up ends it too).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type ListeningFake, listenFake } from './listen-fake.js';
import {
  encodeSse,
  failedEvent,
  responseEvents,
  splitWords,
  type ScriptUsage,
  type StreamEvent,
} from '../../src/runtime/model/wires/responses/sse-events.js';

export type Fault =
  | { kind: 'status'; status: number; body?: unknown; retryAfter?: string }
  | { kind: 'drop'; afterEvents: number }
  | { kind: 'malformed'; afterEvents: number }
  | { kind: 'stall'; afterEvents: number }
  | { kind: 'failed'; code: string; message: string };

/**
 * A latch scripted streams wait at: closed until `release()`, open for good after. `reached()`
 * resolves once a stream has written everything before it (so the client has had that much).
 */
export class Gate {
  private open = false;
  private arrivals = 0;
  private readonly openWaiters: Array<() => void> = [];
  private readonly arrivalWaiters: Array<() => void> = [];

  get released(): boolean {
    return this.open;
  }

  /** How many streams have reached the gate so far (waiting at it or let through). */
  get reachedCount(): number {
    return this.arrivals;
  }

  release(): void {
    this.open = true;
    for (const resolve of this.openWaiters.splice(0)) resolve();
  }

  /** Resolves once `count` streams have reached the gate. */
  reached(count = 1, timeoutMs = 10_000): Promise<void> {
    if (this.arrivals >= count) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`fake server: gate reached ${this.arrivals} times, expected ${count} within ${timeoutMs} ms`)),
        timeoutMs,
      );
      const check = (): void => {
        if (this.arrivals < count) return void this.arrivalWaiters.push(check);
        clearTimeout(timer);
        resolve();
      };
      this.arrivalWaiters.push(check);
    });
  }

  /** A stream arrives; resolves when released (at once if it already is). */
  pass(): Promise<void> {
    this.arrivals += 1;
    for (const check of this.arrivalWaiters.splice(0)) check();
    return this.open ? Promise.resolve() : new Promise((resolve) => this.openWaiters.push(resolve));
  }
}

/** Where a stream stops until its gate is released. */
export interface Hold {
  gate: Gate;
  /** Stop right after this many text deltas (0: the message item has begun, no text yet). Omitted: just before response.completed. */
  afterDeltas?: number;
}

export interface ScriptedResponse {
  /** The assistant message, streamed as deltas (split into words unless `deltas`). */
  text?: string;
  deltas?: string[];
  functionCall?: { name: string; arguments: unknown; callId?: string };
  /** Further function calls in the same response (parallel tool calls). */
  functionCalls?: Array<{ name: string; arguments: unknown; callId?: string }>;
  /** Freeform (custom) tool calls, e.g. apply_patch with its patch as `input`. */
  customToolCalls?: Array<{ name: string; input: string; callId?: string }>;
  /** Hosted web searches (`web_search_call` items, e.g. `{action: {type: 'search', query}}`) before the answer. */
  webSearches?: Array<{ action: Record<string, unknown> }>;
  /** A reasoning item first: summary parts streamed, encrypted content as given. */
  reasoning?: { summary: string[]; encryptedContent?: string };
  /** Pause before each event after the first (real-time pacing: the manual server and the bench; tests hold at a gate). */
  delayMs?: number;
  /** Stop the stream at one or more gates; each stop point is passed only once its gate is released. */
  hold?: Hold | Hold[];
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
  private readonly waiters: Array<{ count: number; resolve: () => void }> = [];
  private readonly gates: Gate[] = [];
  private counter = 0;

  readonly baseUrl: string;

  private constructor(private readonly listening: ListeningFake) {
    this.baseUrl = listening.baseUrl;
  }

  static async start(options: { port?: number; host?: string } = {}): Promise<FakeResponsesServer> {
    // Requests reach `fake` only once its URL is out, so after it is made.
    const fake: FakeResponsesServer = new FakeResponsesServer(
      await listenFake('fake server', (req, res) => fake.handle(req, res), options),
    );
    return fake;
  }

  enqueue(...responses: ScriptedResponse[]): void {
    for (const response of responses) checkHolds(response);
    this.queue.push(...responses);
  }

  setDefault(response: ScriptedResponse): void {
    this.fallback = response;
  }

  respondWith(responder: Responder | null): void {
    this.responder = responder;
  }

  /** A new closed gate for `hold`; close() releases every gate still closed. */
  gate(): Gate {
    const gate = new Gate();
    this.gates.push(gate);
    return gate;
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
    for (const gate of this.gates) gate.release();
    await this.listening.close();
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
      const calls = [...(script.functionCall ? [script.functionCall] : []), ...(script.functionCalls ?? [])];
      const customs = script.customToolCalls ?? [];
      const deltas = script.deltas ?? splitWords(script.text ?? (calls.length > 0 || customs.length > 0 ? '' : 'ok'));
      events = responseEvents({
        responseId,
        model,
        deltas,
        functionCalls: calls.map((call, i) => ({
          name: call.name,
          arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
          callId: call.callId ?? `call_fake_${this.counter}${i === 0 ? '' : `_${i}`}`,
        })),
        customToolCalls: customs.map((call, i) => ({
          name: call.name,
          input: call.input,
          callId: call.callId ?? `call_fake_${this.counter}_c${i}`,
        })),
        ...(script.reasoning ? { reasoning: script.reasoning } : {}),
        ...(script.webSearches ? { webSearches: script.webSearches } : {}),
        endTurn: script.endTurn,
        usage: script.usage ?? { input_tokens: 10, output_tokens: deltas.length },
      });
    }

    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    res.flushHeaders();
    const stops = holdPoints(script.hold, events);
    // A client that hangs up (an interrupt) ends a held stream without a release.
    const hungUp = new Promise<void>((resolve) => res.once('close', () => resolve()));
    const cut = fault && 'afterEvents' in fault ? fault.afterEvents : events.length;
    for (let i = 0; i < Math.min(cut, events.length); i++) {
      for (const stop of stops.filter((s) => s.before === i)) await Promise.race([stop.gate.pass(), hungUp]);
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

/** A hold past the answer's last delta is a mistake in the test: say so where it is made. */
function checkHolds(script: ScriptedResponse): void {
  const holds = script.hold === undefined ? [] : Array.isArray(script.hold) ? script.hold : [script.hold];
  const count = (script.deltas ?? splitWords(script.text ?? '')).length;
  for (const { afterDeltas } of holds) {
    if (afterDeltas !== undefined && (afterDeltas > count || count === 0))
      throw new Error(`fake server: hold after ${afterDeltas} deltas, but the answer has ${count}`);
  }
}

/** Each hold as the index of the event it stops before. */
function holdPoints(hold: Hold | Hold[] | undefined, events: StreamEvent[]): Array<{ gate: Gate; before: number }> {
  const holds = hold === undefined ? [] : Array.isArray(hold) ? hold : [hold];
  return holds.map(({ gate, afterDeltas }) => {
    if (afterDeltas === undefined) return { gate, before: events.length - 1 };
    const deltas = events.flatMap((e, i) => (e.type === 'response.output_text.delta' ? [i] : []));
    if (afterDeltas > deltas.length || deltas.length === 0)
      throw new Error(`fake server: hold after ${afterDeltas} deltas, but the answer has ${deltas.length}`);
    return { gate, before: afterDeltas < deltas.length ? deltas[afterDeltas]! : deltas.at(-1)! + 1 };
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
