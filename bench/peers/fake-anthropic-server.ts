/**
 * A fake Anthropic Messages API for Claude Code in the bench: POST /v1/messages streams each scripted
 * answer (message_start, one text block of text_delta events, message_delta, message_stop), or
 * answers in one JSON body when the request does not stream; count_tokens and the model list get
 * plausible answers, anything else a 404 in the API's error shape.
 */
import type { FakeModelServer } from '../peer.js';
import { sendJson, serveFake } from './fake-http.js';

export async function startFakeAnthropicServer(): Promise<FakeModelServer> {
  const queue: string[][] = [];
  let counter = 0;
  const { origin, close } = await serveFake(({ method, path, body }, res) => {
    if (method === 'POST' && path === '/v1/messages/count_tokens') return sendJson(res, 200, { input_tokens: 10 });
    if (method === 'GET' && path === '/v1/models') {
      const model = { type: 'model', id: 'claude-fake', display_name: 'Fake', created_at: '2025-01-01T00:00:00Z' };
      return sendJson(res, 200, { data: [model], has_more: false, first_id: model.id, last_id: model.id });
    }
    if (method !== 'POST' || path !== '/v1/messages') {
      return sendJson(res, 404, { type: 'error', error: { type: 'not_found_error', message: `no route ${method} ${path}` } });
    }
    const deltas = queue.shift() ?? ['ok'];
    counter += 1;
    const message = {
      id: `msg_fake_${counter}`,
      type: 'message',
      role: 'assistant',
      model: body?.model ?? 'claude-fake',
      stop_sequence: null,
    };
    const usage = { input_tokens: 10, output_tokens: deltas.length };
    if (body?.stream !== true) {
      return sendJson(res, 200, { ...message, content: [{ type: 'text', text: deltas.join('') }], stop_reason: 'end_turn', usage });
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const send = (type: string, data: object): void => void res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
    send('message_start', { message: { ...message, content: [], stop_reason: null, usage: { ...usage, output_tokens: 1 } } });
    send('content_block_start', { index: 0, content_block: { type: 'text', text: '' } });
    for (const text of deltas) send('content_block_delta', { index: 0, delta: { type: 'text_delta', text } });
    send('content_block_stop', { index: 0 });
    send('message_delta', { delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: deltas.length } });
    send('message_stop', {});
    res.end();
  });
  return { baseUrl: origin, enqueue: ({ deltas }) => void queue.push(deltas), close };
}
