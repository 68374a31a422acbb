/**
 * A real HTTP server on 127.0.0.1 speaking OpenAI's Chat Completions streaming at
 * POST {base}/chat/completions, as DeepSeek, OpenRouter, Ollama and vLLM do: `data:` chunks with
 * `choices[0].delta` (content, `reasoning_content`, tool calls whose arguments come in pieces,
 * interleaved when there are several), a `finish_reason`, the usage in a last chunk with
 * `choices: []` when the request asks for it, then `data: [DONE]`. Faults: a status (429 with
 * Retry-After, 5xx), a dropped connection, an error chunk, a refusal of tools. GET {base}/models lists models,
 * or, as an older Ollama, only GET /api/tags does (`listModelsAs('ollamaTags')`).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type ListeningFake, listenFake } from './listen-fake.js';

export type ChatFault =
  | { kind: 'status'; status: number; retryAfter?: string; message?: string }
  | { kind: 'drop'; afterChunks: number }
  | { kind: 'errorChunk'; code: string; message: string };

export interface ChatToolCallScript {
  name: string;
  arguments: unknown;
  id?: string;
}

export interface ChatScript {
  /** Streamed as word pieces. */
  text?: string;
  /** `reasoning_content` pieces, before the text (`reasoningField: 'reasoning'` for OpenRouter's name). */
  reasoning?: string[];
  reasoningField?: 'reasoning_content' | 'reasoning';
  toolCalls?: ChatToolCallScript[];
  usage?: { prompt_tokens: number; completion_tokens: number; cached_tokens?: number; reasoning_tokens?: number };
  fault?: ChatFault;
}

export interface RecordedChatRequest {
  body: any;
  headers: Record<string, string | string[] | undefined>;
  url: string;
}

export class FakeChatServer {
  readonly requests: RecordedChatRequest[] = [];
  private readonly queue: ChatScript[] = [];
  private fallback: ChatScript = { text: 'ok' };
  private rejectTools = false;
  private modelIds = ['fake-chat'];
  private listing: 'models' | 'ollamaTags' = 'models';
  private counter = 0;

  readonly baseUrl: string;

  private constructor(private readonly listening: ListeningFake) {
    this.baseUrl = listening.baseUrl;
  }

  static async start(): Promise<FakeChatServer> {
    // Requests reach `fake` only once its URL is out, so after it is made.
    const fake: FakeChatServer = new FakeChatServer(await listenFake('fake chat server', (req, res) => fake.handle(req, res)));
    return fake;
  }

  enqueue(...scripts: ChatScript[]): void {
    this.queue.push(...scripts);
  }

  setDefault(script: ChatScript): void {
    this.fallback = script;
  }

  /** The models GET /models (or /api/tags) lists; `ollamaTags`: /models is a 404 and only Ollama's /api/tags lists them. */
  listModelsAs(listing: 'models' | 'ollamaTags', ids: string[] = this.modelIds): void {
    this.listing = listing;
    this.modelIds = ids;
  }

  /** Answer any request that carries `tools` with Ollama's 400 for a model without tool support. */
  refuseTools(refuse = true): void {
    this.rejectTools = refuse;
  }

  async close(): Promise<void> {
    await this.listening.close();
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (req.method === 'GET' && url.pathname.endsWith('/models') && this.listing === 'models') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ object: 'list', data: this.modelIds.map((id) => ({ id, object: 'model', owned_by: 'fake' })) }));
      return;
    }
    if (req.method === 'GET' && url.pathname === '/api/tags' && this.listing === 'ollamaTags') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ models: this.modelIds.map((name) => ({ name, model: name, size: 1 })) }));
      return;
    }
    if (req.method !== 'POST' || !url.pathname.endsWith('/chat/completions')) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `no route ${req.method} ${url.pathname}` } }));
      return;
    }
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null');
    this.requests.push({ body, headers: { ...req.headers }, url: req.url ?? '' });
    if (this.rejectTools && Array.isArray(body?.tools) && body.tools.length > 0) {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `registry.ollama.ai/library/${body.model} does not support tools`, type: 'api_error' } }));
      return;
    }
    await this.answer(this.queue.shift() ?? this.fallback, body, res);
  }

  private async answer(script: ChatScript, body: any, res: ServerResponse): Promise<void> {
    const fault = script.fault;
    if (fault?.kind === 'status') {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (fault.retryAfter !== undefined) headers['retry-after'] = fault.retryAfter;
      res.writeHead(fault.status, headers);
      res.end(JSON.stringify({ error: { message: fault.message ?? `scripted status ${fault.status}`, type: 'server_error' } }));
      return;
    }
    this.counter += 1;
    const frames = chatChunks(
      `chatcmpl-fake-${this.counter}`,
      String(body?.model ?? 'fake-chat'),
      script,
      body?.stream_options?.include_usage === true,
    );
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.flushHeaders();
    const cut = fault?.kind === 'drop' ? fault.afterChunks : frames.length;
    for (const frame of frames.slice(0, cut)) res.write(`data: ${JSON.stringify(frame)}\n\n`);
    if (fault?.kind === 'drop') {
      await new Promise((resolve) => setTimeout(resolve, 10));
      res.socket?.destroy();
      return;
    }
    if (fault?.kind === 'errorChunk') {
      res.end(`data: ${JSON.stringify({ error: { code: fault.code, message: fault.message } })}\n\n`);
      return;
    }
    res.end('data: [DONE]\n\n');
  }
}

/** The chunks of one scripted answer, in the order a server sends them. */
export function chatChunks(id: string, model: string, script: ChatScript, includeUsage: boolean): object[] {
  const chunk = (delta: object, finish: string | null = null): object => ({
    id,
    object: 'chat.completion.chunk',
    created: 0,
    model,
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  const out: object[] = [chunk({ role: 'assistant', content: '' })];
  const field = script.reasoningField ?? 'reasoning_content';
  for (const piece of script.reasoning ?? []) out.push(chunk({ [field]: piece }));
  for (const piece of (script.text ?? '').match(/\S+\s*/g) ?? []) out.push(chunk({ content: piece }));
  const calls = (script.toolCalls ?? []).map((call, index) => ({
    index,
    id: call.id ?? `call_${id}_${index}`,
    name: call.name,
    args: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
  }));
  for (const call of calls) {
    out.push(chunk({ tool_calls: [{ index: call.index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] }));
  }
  // The arguments in three pieces per call, the calls interleaved, as parallel calls stream.
  for (let part = 0; part < 3; part++) {
    for (const call of calls) {
      const size = Math.ceil(call.args.length / 3);
      const piece = call.args.slice(part * size, (part + 1) * size);
      if (piece !== '') out.push(chunk({ tool_calls: [{ index: call.index, function: { arguments: piece } }] }));
    }
  }
  out.push(chunk({}, calls.length > 0 ? 'tool_calls' : 'stop'));
  if (includeUsage) {
    const usage = script.usage ?? { prompt_tokens: 10, completion_tokens: 5 };
    out.push({
      id,
      object: 'chat.completion.chunk',
      created: 0,
      model,
      choices: [],
      usage: {
        prompt_tokens: usage.prompt_tokens,
        completion_tokens: usage.completion_tokens,
        total_tokens: usage.prompt_tokens + usage.completion_tokens,
        prompt_tokens_details: { cached_tokens: usage.cached_tokens ?? 0 },
        completion_tokens_details: { reasoning_tokens: usage.reasoning_tokens ?? 0 },
      },
    });
  }
  return out;
}
