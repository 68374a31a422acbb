/**
 * A real HTTP server on 127.0.0.1 speaking Anthropic's Messages streaming protocol at
 * POST {base}/messages (and GET {base}/models), with scripted answers shaped as the API sends them:
 * message_start, a ping, content blocks (thinking with its signature, text in word deltas, tool_use
 * with its input in JSON pieces, several at once), message_delta with the stop reason and output
 * usage, message_stop; and faults (a status with Anthropic's error body, an `error` event, a dropped
 * stream). Every request is recorded with its headers.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type ListeningFake, listenFake } from './listen-fake.js';

export type AnthropicFault =
  | { kind: 'status'; status: number; type: string; message: string; retryAfter?: string }
  | { kind: 'error'; type: string; message: string }
  | { kind: 'drop'; afterEvents: number };

export interface AnthropicScript {
  thinking?: { text: string; signature: string };
  redactedThinking?: string;
  /** The answer's text, streamed a word at a time. */
  text?: string;
  /** tool_use blocks after the text, each input streamed as JSON in pieces of `pieceLength` characters. */
  toolUses?: Array<{ name: string; input: Record<string, unknown>; id?: string }>;
  pieceLength?: number;
  usage?: { input_tokens: number; output_tokens: number; cache_read_input_tokens?: number; cache_creation_input_tokens?: number };
  fault?: AnthropicFault;
}

export interface AnthropicRequest {
  body: any;
  headers: Record<string, string | string[] | undefined>;
  path: string;
  /** The URL's query string, without the `?` ('' when none). */
  query: string;
}

export const FAKE_ANTHROPIC_MODELS = ['claude-fake-4', 'claude-fake-4-mini'];

function frame(event: { type: string } & Record<string, unknown>): string {
  return `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}

function words(text: string): string[] {
  return text.match(/\s*\S+|\s+$/g) ?? [];
}

function pieces(text: string, length: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += length) out.push(text.slice(i, i + length));
  return out;
}

/** The events of one scripted answer, as the Messages API streams them. */
export function messageEvents(script: AnthropicScript, id: string, model: string): Array<{ type: string } & Record<string, unknown>> {
  const usage = script.usage ?? { input_tokens: 10, output_tokens: 5 };
  const events: Array<{ type: string } & Record<string, unknown>> = [];
  events.push({
    type: 'message_start',
    message: {
      id,
      type: 'message',
      role: 'assistant',
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: {
        input_tokens: usage.input_tokens,
        cache_read_input_tokens: usage.cache_read_input_tokens ?? 0,
        cache_creation_input_tokens: usage.cache_creation_input_tokens ?? 0,
        output_tokens: 1,
      },
    },
  });
  events.push({ type: 'ping' });
  let index = 0;
  const block = (start: Record<string, unknown>, deltas: Array<Record<string, unknown>>): void => {
    events.push({ type: 'content_block_start', index, content_block: start });
    for (const delta of deltas) events.push({ type: 'content_block_delta', index, delta });
    events.push({ type: 'content_block_stop', index });
    index++;
  };
  if (script.thinking) {
    block({ type: 'thinking', thinking: '', signature: '' }, [
      ...words(script.thinking.text).map((thinking) => ({ type: 'thinking_delta', thinking })),
      { type: 'signature_delta', signature: script.thinking.signature },
    ]);
  }
  if (script.redactedThinking !== undefined) block({ type: 'redacted_thinking', data: script.redactedThinking }, []);
  if (script.text !== undefined)
    block(
      { type: 'text', text: '' },
      words(script.text).map((text) => ({ type: 'text_delta', text })),
    );
  for (const [n, call] of (script.toolUses ?? []).entries()) {
    block(
      { type: 'tool_use', id: call.id ?? `toolu_${id}_${n}`, name: call.name, input: {} },
      pieces(JSON.stringify(call.input), script.pieceLength ?? 7).map((partial_json) => ({ type: 'input_json_delta', partial_json })),
    );
  }
  const stop = (script.toolUses ?? []).length > 0 ? 'tool_use' : 'end_turn';
  events.push({ type: 'message_delta', delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: usage.output_tokens } });
  events.push({ type: 'message_stop' });
  return events;
}

export class FakeAnthropicServer {
  readonly requests: AnthropicRequest[] = [];
  private readonly queue: AnthropicScript[] = [];
  private readonly waiters: Array<{ count: number; resolve: () => void }> = [];
  private counter = 0;

  readonly baseUrl: string;

  private constructor(private readonly listening: ListeningFake) {
    this.baseUrl = listening.baseUrl;
  }

  static async start(): Promise<FakeAnthropicServer> {
    // Requests reach `fake` only once its URL is out, so after it is made.
    const fake: FakeAnthropicServer = new FakeAnthropicServer(
      await listenFake('fake anthropic server', (req, res) => fake.handle(req, res)),
    );
    return fake;
  }

  /** Answers for the next requests, in order; with none queued a request gets `ok`. */
  enqueue(...scripts: AnthropicScript[]): void {
    this.queue.push(...scripts);
  }

  waitForRequests(count: number, timeoutMs = 5000): Promise<AnthropicRequest[]> {
    if (this.requests.length >= count) return Promise.resolve(this.requests);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`fake anthropic server: ${this.requests.length} of ${count} requests`)), timeoutMs);
      this.waiters.push({
        count,
        resolve: () => {
          clearTimeout(timer);
          resolve(this.requests);
        },
      });
    });
  }

  async close(): Promise<void> {
    await this.listening.close();
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const [route = '', query = ''] = (req.url ?? '').split('?');
    const path = route.replace(/^\/v1/, '');
    if (req.method === 'GET' && path.startsWith('/models')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ data: FAKE_ANTHROPIC_MODELS.map((id) => ({ type: 'model', id, display_name: id })), has_more: false }));
      return;
    }
    if (req.method !== 'POST' || path !== '/messages') {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: `no route ${req.method} ${req.url}` } }));
      return;
    }
    const body: any = JSON.parse(text);
    this.requests.push({ body, headers: req.headers, path, query });
    for (const waiter of this.waiters.filter((w) => this.requests.length >= w.count)) {
      this.waiters.splice(this.waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
    const script = this.queue.shift() ?? { text: 'ok' };
    const fault = script.fault;
    if (fault?.kind === 'status') {
      res.writeHead(fault.status, { 'content-type': 'application/json', ...(fault.retryAfter ? { 'retry-after': fault.retryAfter } : {}) });
      res.end(JSON.stringify({ type: 'error', error: { type: fault.type, message: fault.message } }));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const events = messageEvents(script, `msg_${++this.counter}`, String(body.model));
    for (const [n, event] of events.entries()) {
      if (fault?.kind === 'drop' && n === fault.afterEvents) {
        // What was written reaches the client first: a drop mid-answer, not before it.
        await new Promise<void>((resolve) => setTimeout(resolve, 50));
        res.destroy();
        return;
      }
      if (fault?.kind === 'error' && n === 2) {
        res.end(frame({ type: 'error', error: { type: fault.type, message: fault.message } }));
        return;
      }
      res.write(frame(event));
    }
    res.end();
  }
}
