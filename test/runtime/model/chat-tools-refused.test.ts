/**
 * A chat provider that refuses tools (Ollama with a model that has none): the user is told once, as a
 * warning, and the turn runs without tools; the notice is Tiller's, so the model never reads it back as
 * something it said.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { toolsRejectedNotice } from '../../../src/runtime/model/wires/chat/client.js';
import { wireById } from '../../../src/runtime/model/wires/index.js';
import { FakeChatServer } from '../../support/fake-chat-server.js';
import { type Harness, startHarness, text } from '../support/harness.js';

let chat: FakeChatServer;
let h: Harness;

beforeEach(async () => {
  chat = await FakeChatServer.start();
  const modelClient = wireById('chat').create({ label: 'Ollama', baseUrl: chat.baseUrl, apiKey: null, idleTimeoutMs: 5000 });
  h = await startHarness({ config: { model: 'qwen3:8b' }, server: { modelClient } });
});
afterEach(async () => {
  await h.close();
  await chat.close();
});

async function turn(prompt: string): Promise<string> {
  const started = await h.server.request('turn/start', { threadId: h.threadId, input: [text(prompt)] });
  const done = await h.log.waitFor('turn/completed', (n) => n.turn.id === started.turn.id);
  expect(done.turn.status).toBe('completed');
  return started.turn.id;
}

describe('a chat provider that refuses tools', () => {
  it('warns the user once and keeps the notice out of the model history', async () => {
    chat.refuseTools();
    chat.enqueue({ text: 'Answer without tools.' }, { text: 'Second answer.' });
    const first = await turn('list the files');
    const warnings = h.log.of('warning').map((n) => n.message);
    expect(warnings).toEqual([toolsRejectedNotice('Ollama')]);
    const agent = h.log
      .of('item/completed')
      .filter((n) => n.turnId === first && n.item.type === 'agentMessage')
      .map((n) => (n.item as { text: string }).text);
    expect(agent).toEqual(['Answer without tools.']);

    await turn('and now?');
    const last = chat.requests.at(-1)!;
    expect(last.body.tools).toBeUndefined();
    const sent = JSON.stringify(last.body.messages);
    expect(sent).toContain('Answer without tools.');
    expect(sent).not.toContain('does not support tools');
    // Said once: the second turn runs without tools at once, with no second warning.
    expect(h.log.of('warning')).toHaveLength(1);
  });
});
