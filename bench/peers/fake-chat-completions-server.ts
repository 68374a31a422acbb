/**
 * A fake OpenAI-compatible Chat Completions API for OpenCode in the bench: POST /v1/chat/completions
 * streams each scripted answer as `choices[0].delta.content` chunks, a finish chunk (with usage),
 * then `data: [DONE]`, or answers in one JSON body when the request does not stream; GET /v1/models
 * lists the models. Scripted answers go to requests for `fake-model` only: OpenCode asks another
 * model for a session title beside the turn.
 */
import type { FakeModelServer } from '../peer.js';
import { sendJson, serveFake } from './fake-http.js';

export async function startFakeChatCompletionsServer(): Promise<FakeModelServer> {
  const queue: string[][] = [];
  let counter = 0;
  const { origin, close } = await serveFake(({ method, path, body }, res) => {
    if (method === 'GET' && path === '/v1/models') {
      const data = ['fake-model', 'fake-small'].map((id) => ({ id, object: 'model', created: 0, owned_by: 'fake' }));
      return sendJson(res, 200, { object: 'list', data });
    }
    if (method !== 'POST' || path !== '/v1/chat/completions') {
      return sendJson(res, 404, { error: { message: `no route ${method} ${path}`, type: 'invalid_request_error', code: null } });
    }
    const deltas = (body?.model === 'fake-model' ? queue.shift() : undefined) ?? ['ok'];
    counter += 1;
    const head = { id: `chatcmpl-fake-${counter}`, created: 0, model: body?.model ?? 'fake-model' };
    const usage = { prompt_tokens: 10, completion_tokens: deltas.length, total_tokens: 10 + deltas.length };
    if (body?.stream !== true) {
      const message = { role: 'assistant', content: deltas.join('') };
      return sendJson(res, 200, { ...head, object: 'chat.completion', choices: [{ index: 0, message, finish_reason: 'stop' }], usage });
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const send = (delta: object, finish: string | null, extra: object = {}): void =>
      void res.write(
        `data: ${JSON.stringify({ ...head, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`,
      );
    send({ role: 'assistant', content: '' }, null);
    for (const content of deltas) send({ content }, null);
    send({}, 'stop', { usage });
    res.end('data: [DONE]\n\n');
  });
  return { baseUrl: `${origin}/v1`, enqueue: ({ deltas }) => void queue.push(deltas), close };
}
