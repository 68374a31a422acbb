/**
 * review/start over the stdio JSON-RPC connection, checked against the JSON Schema Codex 0.171
 * generates: the request, the turn it answers with, every notification of the review, and a steer
 * refused while it runs with Codex's -32600 and `activeTurnNotSteerable`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { afterEach, describe, expect, it } from 'vitest';
import { notificationSchemas } from '../../src/protocol/wire/notifications.js';
import { resultSchemas } from '../../src/protocol/wire/results.js';
import { createInProcessAppServer } from '../../src/runtime/app-server.js';
import { JsonRpcConnection } from '../../src/runtime/app-server-stdio.js';
import { FakeResponsesServer } from '../support/fake-responses-server.js';
import { tempDir, testConfig } from '../runtime/support/config.js';

process.env.SHELL = '/bin/sh';

const SCHEMAS = join(import.meta.dirname, '../fixtures/codex-app-server-schema');
const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
const load = (file: string) => ajv.compile(JSON.parse(readFileSync(join(SCHEMAS, file), 'utf8')) as object);
const clientRequest = load('ClientRequest.json');
const notification = load('ServerNotification.json');
// The review's turn has the shape of turn/start's (Codex's ReviewStartResponse is `{turn, reviewThreadId}`).
const turnResponse = load('v2/TurnStartResponse.json');

type Message = { id?: number; method?: string; params?: any; result?: any; error?: any };

let fake: FakeResponsesServer | undefined;
afterEach(async () => {
  await fake?.close();
});

async function until(test: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !test(); i++) await new Promise((r) => setTimeout(r, 10));
  if (!test()) throw new Error('timed out');
}

function connect(extensions: boolean) {
  const cwd = tempDir();
  const server = createInProcessAppServer({ config: testConfig({ baseUrl: fake!.baseUrl }), cwd, backoffMs: () => 5 });
  const out: Message[] = [];
  const sent: Message[] = [];
  const connection = new JsonRpcConnection(server, { write: (m) => void out.push(JSON.parse(JSON.stringify(m)) as Message) });
  let next = 0;
  const request = async (method: string, params: unknown): Promise<Message> => {
    const id = next++;
    const message = { jsonrpc: '2.0' as const, id, method, params };
    sent.push(message);
    connection.handleLine(JSON.stringify(message));
    await until(() => out.some((m) => m.id === id && m.method === undefined));
    return out.find((m) => m.id === id && m.method === undefined)!;
  };
  return {
    out,
    sent,
    request,
    cwd,
    connection,
    init: () => request('initialize', { clientInfo: { name: 'test', version: '0' }, capabilities: { tillerExtensions: extensions } }),
  };
}

const answer = JSON.stringify({
  findings: [
    {
      title: '[P2] Check',
      body: 'b',
      confidence_score: 0.5,
      priority: 2,
      code_location: { absolute_file_path: '/x', line_range: { start: 1, end: 1 } },
    },
  ],
  overall_correctness: 'patch is correct',
  overall_explanation: 'Fine overall.',
  overall_confidence_score: 0.6,
});

describe('review/start against Codex 0.171 schema', () => {
  it("answers with the turn and reviewThreadId, then Codex's items; a steer during it is refused", async () => {
    fake = await FakeResponsesServer.start();
    const gate = fake.gate();
    fake.enqueue({ text: answer, hold: { gate } });
    const app = connect(false);
    await app.init();
    const { result: started } = await app.request('thread/start', {});
    const threadId = started.thread.id as string;
    const params = { threadId, target: { type: 'commit', sha: '0123456789abcdef', title: 'Fix' } };
    const reply = await app.request('review/start', params);
    expect(clientRequest({ id: 9, method: 'review/start', params })).toBe(true);
    expect(Object.keys(reply.result).sort()).toEqual(['reviewThreadId', 'turn']);
    expect(reply.result.reviewThreadId).toBe(threadId);
    expect(turnResponse({ turn: reply.result.turn })).toBe(true);
    expect(resultSchemas['review/start'].safeParse(reply.result).success).toBe(true);
    expect(reply.result.turn).toMatchObject({ status: 'inProgress', items: [{ type: 'userMessage' }] });
    const turnId = reply.result.turn.id as string;

    await gate.reached();
    const steer = await app.request('turn/steer', {
      threadId,
      input: [{ type: 'text', text: 'also this', text_elements: [] }],
      expectedTurnId: turnId,
    });
    expect(steer.error).toEqual({
      code: -32600,
      message: 'cannot steer a review turn',
      // Codex's TurnError as the data (docs/codex-parity.md#steer-validation-order).
      data: {
        message: 'cannot steer a review turn',
        codexErrorInfo: { activeTurnNotSteerable: { turnKind: 'review' } },
        additionalDetails: null,
      },
    });
    gate.release();
    await until(() => app.out.some((m) => m.method === 'turn/completed'));

    const notifications = app.out.filter((m) => m.method !== undefined && m.id === undefined);
    // A Codex client gets no tiller/* notification.
    expect(notifications.filter((m) => m.method!.startsWith('tiller/'))).toEqual([]);
    for (const m of notifications) {
      const { jsonrpc: _, ...body } = m as Message & { jsonrpc?: string };
      expect(notification(body), `${m.method}: ${ajv.errorsText(notification.errors)}`).toBe(true);
      const zod = (notificationSchemas as Record<string, { safeParse(v: unknown): { success: boolean } }>)[m.method!];
      expect(zod?.safeParse(m.params).success, m.method).toBe(true);
    }
    const items = notifications.filter((m) => m.method === 'item/completed').map((m) => m.params.item);
    expect(items.map((i: { type: string }) => i.type)).toEqual(['enteredReviewMode', 'exitedReviewMode', 'agentMessage']);
    expect(items[0].review).toBe('commit 0123456: Fix');
    const rendered = 'Fine overall.\n\nReview comment:\n\n- [P2] Check — /x:1-1\n  b';
    expect(items[1].review).toBe(rendered);
    expect(items[2].text).toBe(rendered);
    expect(notifications.at(-1)!.method).toBe('turn/completed');
    expect(notifications.at(-1)!.params.turn.status).toBe('completed');
    // The review brief replaces the base brief; the thread's history keeps the rendered review.
    expect(fake.requests[0]!.body.input[0].content[0].text).toMatch(/^# Reviewing a change/);
    await app.connection.close();
  });

  it('refuses empty custom instructions as Codex does, and sends Tiller clients the structured findings', async () => {
    fake = await FakeResponsesServer.start();
    fake.enqueue({ text: answer });
    const app = connect(true);
    await app.init();
    const { result: started } = await app.request('thread/start', {});
    const threadId = started.thread.id as string;
    const empty = await app.request('review/start', { threadId, target: { type: 'custom', instructions: '  ' } });
    expect(empty.error).toMatchObject({ code: -32600, message: 'Review prompt cannot be empty' });
    await app.request('review/start', { threadId, target: { type: 'uncommittedChanges' } });
    await until(() => app.out.some((m) => m.method === 'turn/completed'));
    const output = app.out.find((m) => m.method === 'tiller/reviewOutput')!;
    expect(output.params.output.findings[0].title).toBe('[P2] Check');
    expect(notificationSchemas['tiller/reviewOutput'].safeParse(output.params).success).toBe(true);
    await app.connection.close();
  });
});
