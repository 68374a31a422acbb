/**
 * `tiller app-server` over stdio to a raw JSON-RPC client: a Codex client (no Tiller capability)
 * gets Codex's notifications only, no `tiller/*` method and no `tiller*` field; a client that asks
 * (`capabilities.tillerExtensions`) gets them; Codex's `optOutNotificationMethods` drops methods (issue 30).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeResponsesServer } from '../support/fake-responses-server.js';
import { type Child, fakeServerEnv, spawnTiller } from './support/spawn.js';
import { type Message, parseMessage } from './support/stdio-app-server.js';

let fake: FakeResponsesServer;
let child: Child | null = null;
beforeEach(async () => {
  fake = await FakeResponsesServer.start();
});
afterEach(async () => {
  child?.proc.stdin.end();
  await child?.exit;
  child = null;
  await fake.close();
});

/** One turn that names an MCP server (`tiller/requiredMcpServers`) and is answered; every notification and response it got. */
async function oneTurn(capabilities: unknown): Promise<Message[]> {
  fake.enqueue({ text: 'Answer in several words here.' });
  const c = spawnTiller(['app-server'], fakeServerEnv(fake));
  child = c;
  const send = (message: unknown): void => void c.proc.stdin.write(`${JSON.stringify(message)}\n`);
  const response = async (id: string): Promise<Message> => parseMessage(await c.waitForLine((l) => parseMessage(l).id === id));
  send({
    id: 'init',
    method: 'initialize',
    params: { clientInfo: { name: 'raw', version: '1' }, ...(capabilities === undefined ? {} : { capabilities }) },
  });
  expect((await response('init')).error).toBeUndefined();
  send({ id: 'thread', method: 'thread/start', params: {} });
  const threadId = (await response('thread')).result.thread.id as string;
  send({
    id: 'turn',
    method: 'turn/start',
    params: { threadId, input: [{ type: 'text', text: 'look at mcp://nosuch please', text_elements: [] }] },
  });
  await c.waitForLine((l) => parseMessage(l).method === 'turn/completed');
  return c.lines.map(parseMessage).filter((m) => (m.method !== undefined && m.id === undefined) || m.result !== undefined);
}

/** Every key of a message's params, and of the objects in them, that starts with `tiller`. */
function tillerKeys(m: Message): string[] {
  const out: string[] = [];
  const walk = (value: unknown): void => {
    if (typeof value !== 'object' || value === null) return;
    for (const [key, inner] of Object.entries(value)) {
      if (key.startsWith('tiller')) out.push(`${m.method}: ${key}`);
      walk(inner);
    }
  };
  walk(m.params ?? m.result);
  return out;
}

describe('Tiller extensions go only to clients that ask', { timeout: 60_000 }, () => {
  it('a Codex client (no capabilities) gets no tiller/* notification and no tiller* field', async () => {
    const notes = await oneTurn(undefined);
    expect(notes.map((m) => m.method)).toContain('item/agentMessage/delta');
    expect(notes.map((m) => m.method)).toContain('item/completed');
    expect(notes.filter((m) => m.method?.startsWith('tiller/'))).toEqual([]);
    // Responses too: thread/start's result is Codex's shape.
    expect(notes.find((m) => m.id === 'thread')?.result.thread.id).toEqual(expect.any(String));
    expect(notes.flatMap(tillerKeys)).toEqual([]);
  });

  it('a client with capabilities.tillerExtensions gets them', async () => {
    const notes = await oneTurn({ tillerExtensions: true });
    expect(notes.find((m) => m.method === 'tiller/requiredMcpServers')?.params.servers).toEqual(['nosuch']);
    expect(notes.flatMap(tillerKeys)).toContain('item/completed: tillerDelivery');
    // thread/start's result keeps Tiller's fields for such a client.
    expect(notes.find((m) => m.id === 'thread')?.result).toHaveProperty('tillerInstructions');
  });

  it("Codex's optOutNotificationMethods drops the methods named", async () => {
    const notes = await oneTurn({ optOutNotificationMethods: ['item/agentMessage/delta'] });
    expect(notes.map((m) => m.method)).not.toContain('item/agentMessage/delta');
    expect(notes.map((m) => m.method)).toContain('turn/completed');
  });
});
