/**
 * A real session's wire traffic (start, a turn with a tool call and an approval, steer, interrupt,
 * compact, `!cmd`, the thread methods, model/list, mcpServerStatus/list) validated against the JSON
 * Schema Codex 0.171 generates for its app server: what Tiller sends back, and the requests as
 * Tiller's own clients (TUI, exec) send them. The same traffic is parsed with Tiller's own zod
 * schemas (src/protocol/wire/), strict: an undeclared field fails.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { afterEach, describe, expect, it } from 'vitest';
import type { TillerConfig } from '../../src/runtime/config.js';
import type { z } from 'zod';
import { notificationSchemas } from '../../src/protocol/wire/notifications.js';
import { serverRequestSchemas } from '../../src/protocol/wire/requests.js';
import { resultSchemas } from '../../src/protocol/wire/results.js';
import { createInProcessAppServer } from '../../src/runtime/app-server.js';
import { JsonRpcConnection } from '../../src/runtime/app-server-stdio.js';
import { FakeResponsesServer } from '../support/fake-responses-server.js';
import { tempDir, testConfig } from '../runtime/support/config.js';

process.env.SHELL = '/bin/sh';

const SCHEMAS = join(import.meta.dirname, '../fixtures/codex-app-server-schema');
const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
const load = (file: string) => ajv.compile(JSON.parse(readFileSync(join(SCHEMAS, file), 'utf8')) as object);
const RESULTS: Record<string, string> = {
  initialize: 'v1/InitializeResponse.json',
  'thread/start': 'v2/ThreadStartResponse.json',
  'turn/start': 'v2/TurnStartResponse.json',
  'turn/steer': 'v2/TurnSteerResponse.json',
  'turn/interrupt': 'v2/TurnInterruptResponse.json',
  'thread/compact/start': 'v2/ThreadCompactStartResponse.json',
  'thread/shellCommand': 'v2/ThreadShellCommandResponse.json',
  'thread/list': 'v2/ThreadListResponse.json',
  'thread/read': 'v2/ThreadReadResponse.json',
  'thread/resume': 'v2/ThreadResumeResponse.json',
  'thread/fork': 'v2/ThreadForkResponse.json',
  'thread/revert': 'v2/ThreadRevertResponse.json',
  'model/list': 'v2/ModelListResponse.json',
  'mcpServerStatus/list': 'v2/ListMcpServerStatusResponse.json',
};
const notification = load('ServerNotification.json');
const serverRequest = load('ServerRequest.json');
const clientRequest = load('ClientRequest.json');

type Message = { id?: string | number; method?: string; params?: any; result?: any; error?: any };
/** One recorded message: `sent` by the client, or answered/sent by the server (`method` is the request's, for answers). */
type Recorded = { sent: boolean; method: string; message: Message };

let fake: FakeResponsesServer | undefined;
afterEach(async () => {
  await fake?.close();
});

async function until(test: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !test(); i++) await new Promise((r) => setTimeout(r, 10));
  if (!test()) throw new Error('timed out');
}

/** Every message of the log that Tiller's zod schemas refuse (or have none for), as `method: problem`. */
function zodFailures(log: readonly Recorded[]): string[] {
  const failures: string[] = [];
  const check = (what: string, schema: z.ZodType | undefined, value: unknown) => {
    if (schema === undefined) failures.push(`${what}: no schema`);
    else {
      const parsed = schema.safeParse(value);
      if (!parsed.success) failures.push(`${what}: ${parsed.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}`);
    }
  };
  const requests: Record<string, { params: z.ZodType; result: z.ZodType }> = serverRequestSchemas;
  for (const { sent, method, message } of log) {
    if (message.method !== undefined && message.id !== undefined && !sent) check(method, requests[method]?.params, message.params);
    else if (message.method !== undefined && !sent)
      check(method, (notificationSchemas as Record<string, z.ZodType>)[method], message.params);
    else if (message.method === undefined && sent) check(`answer to ${method}`, requests[method]?.result, message.result);
    else if (message.result !== undefined) check(method, (resultSchemas as Record<string, z.ZodType>)[method], message.result);
  }
  return failures;
}

/** A stdio connection to a fresh app server, recording every message both ways into `log`. */
function connect(config: TillerConfig, cwd: string, log: Recorded[]) {
  const server = createInProcessAppServer({ config, cwd, backoffMs: () => 5 });
  const out: Message[] = [];
  const methods = new Map<string | number, string>();
  const connection = new JsonRpcConnection(server, {
    write: (m) => {
      const message = JSON.parse(JSON.stringify(m)) as Message;
      out.push(message);
      const method = message.method ?? methods.get(message.id!) ?? '?';
      log.push({ sent: false, method, message });
    },
  });
  let next = 0;
  const send = (message: Message & { jsonrpc: '2.0' }) => {
    const asked = out.find((m) => m.method !== undefined && m.id === message.id);
    log.push({ sent: true, method: message.method ?? asked?.method ?? '?', message });
    connection.handleLine(JSON.stringify(message));
  };
  const request = async (method: string, params: unknown): Promise<any> => {
    const id = next++;
    methods.set(id, method);
    send({ jsonrpc: '2.0', id, method, params });
    await until(() => out.some((m) => m.id === id && m.method === undefined && (m.result !== undefined || m.error !== undefined)));
    const answer = out.find((m) => m.id === id && m.method === undefined)!;
    if (answer.error) throw new Error(`${method}: ${JSON.stringify(answer.error)}`);
    return answer.result;
  };
  return { connection, out, request, send };
}

/** Every failure of the log against Codex's schema, as `method: errors`. */
function schemaFailures(log: readonly Recorded[]): string[] {
  const failures: string[] = [];
  for (const { sent, method, message } of log) {
    const { jsonrpc: _, ...body } = message as Message & { jsonrpc?: string };
    let validate;
    let value: unknown = body;
    if (sent && message.method === undefined) continue;
    if (sent) validate = clientRequest;
    else if (message.method !== undefined && message.id !== undefined) validate = serverRequest;
    else if (message.method !== undefined) {
      // Tiller's own notifications are extensions, outside Codex's schema.
      if (message.method.startsWith('tiller/')) continue;
      validate = notification;
    } else if (message.result !== undefined) {
      validate = load(RESULTS[method]!);
      value = message.result;
    } else {
      failures.push(`error answer: ${JSON.stringify(message)}`);
      continue;
    }
    if (!validate(value)) failures.push(`${sent ? 'request ' : ''}${method}: ${ajv.errorsText(validate.errors)}`);
  }
  return failures;
}

describe('the wire against Codex 0.171 schema', () => {
  it('every message of a session validates', async () => {
    fake = await FakeResponsesServer.start();
    const config = testConfig({ baseUrl: fake.baseUrl, approvalPolicy: 'on-request' });
    const cwd = tempDir();
    const log: Recorded[] = [];
    const { connection, out, request, send } = connect(config, cwd, log);
    const text = (t: string) => ({ type: 'text', text: t, text_elements: [] });
    const completedTurns = () => out.filter((m) => m.method === 'turn/completed').length;

    connection.handleLine('{not json');
    await request('initialize', { clientInfo: { name: 'test', version: '0' }, capabilities: { tillerExtensions: true } });
    // As the TUI starts one (src/tui/chat/controller.ts).
    const { thread } = await request('thread/start', {
      model: 'test-model',
      cwd,
      approvalPolicy: 'on-request',
      sandbox: 'danger-full-access',
    });
    // A turn with a tool call that asks for approval.
    fake.enqueue({ functionCall: { name: 'shell', arguments: { command: 'echo hi' }, callId: 'c1' } }, { text: 'done' });
    const { turn: first } = await request('turn/start', { threadId: thread.id, input: [text('run it')] });
    await until(() => out.some((m) => m.method === 'item/commandExecution/requestApproval'));
    const ask = out.find((m) => m.method === 'item/commandExecution/requestApproval')!;
    send({ jsonrpc: '2.0', id: ask.id, result: { decision: 'accept' } });
    await until(() => completedTurns() === 1);
    // Steer, then interrupt a stalled turn.
    fake.enqueue({ fault: { kind: 'stall', afterEvents: 3 } });
    const { turn } = await request('turn/start', { threadId: thread.id, input: [text('long')] });
    await until(() => out.some((m) => m.method === 'turn/started' && m.params.turn.id === turn.id));
    await request('turn/steer', { threadId: thread.id, input: [text('more')], expectedTurnId: turn.id });
    await request('turn/interrupt', { threadId: thread.id, turnId: turn.id });
    await until(() => completedTurns() === 2);
    fake.enqueue({ text: 'summary' });
    await request('thread/compact/start', { threadId: thread.id });
    await until(() => completedTurns() === 3);
    await request('thread/shellCommand', { threadId: thread.id, command: 'echo bang' });
    // The thread methods on a loaded thread, as the TUI's sessions picker sends them (src/tui/chat/sessions.ts).
    const settings = { cwd, approvalPolicy: 'on-request', sandbox: 'danger-full-access' };
    const listed = await request('thread/list', { limit: 50 });
    expect(listed.data.map((t: { id: string }) => t.id)).toContain(thread.id);
    await request('thread/read', { threadId: thread.id, includeTurns: true });
    await request('thread/resume', { threadId: thread.id, ...settings });
    const forked = await request('thread/fork', { threadId: thread.id, lastTurnId: first.id, ...settings });
    expect(forked.thread.turns).toHaveLength(1);
    await request('thread/fork', { threadId: thread.id, ...settings, ephemeral: true });
    await request('model/list', {});
    await request('mcpServerStatus/list', {});
    await connection.close();

    // A second server on the same home: the thread is on disk only, then resumed from it (as `exec resume --last`).
    const second = connect(config, cwd, log);
    await second.request('initialize', { clientInfo: { name: 'test', version: '0' }, capabilities: { tillerExtensions: true } });
    const [latest] = (await second.request('thread/list', { cwd, limit: 1 })).data;
    expect(latest.status).toEqual({ type: 'notLoaded' });
    await second.request('thread/read', { threadId: thread.id, includeTurns: true });
    await second.request('thread/read', { threadId: thread.id });
    const resumed = await second.request('thread/resume', { threadId: thread.id });
    expect(resumed.thread.turns.length).toBeGreaterThan(1);
    await second.request('thread/revert', { threadId: thread.id, beforeTurnId: turn.id });
    await second.connection.close();

    expect(out.some((m) => m.method === 'item/commandExecution/requestApproval')).toBe(true);
    expect(new Set(log.filter((r) => !r.sent && r.message.result !== undefined).map((r) => r.method))).toEqual(
      new Set(Object.keys(RESULTS)),
    );
    expect(schemaFailures(log)).toEqual([]);
    expect(zodFailures(log)).toEqual([]);
  });

  it("Tiller's zod schemas refuse an undeclared field, take the declared extensions and MCP's own fields", () => {
    const usage = { inputTokens: 1, cachedInputTokens: 0, outputTokens: 1, reasoningOutputTokens: 0, totalTokens: 2 };
    const params = { threadId: 't', turnId: 'u', tokenUsage: { total: usage, last: usage } };
    const tokenUsage = notificationSchemas['thread/tokenUsage/updated'];
    expect(tokenUsage.safeParse(params).success).toBe(true);
    expect(tokenUsage.safeParse({ ...params, tokenUsage: { ...params.tokenUsage, last: { ...usage, extra: 1 } } }).success).toBe(false);
    expect(resultSchemas['turn/interrupt'].safeParse({}).success).toBe(true);
    expect(resultSchemas['turn/interrupt'].safeParse({ ok: true }).success).toBe(false);
    const server = {
      name: 's',
      status: 'ready',
      tools: {},
      resources: [],
      resourceTemplates: [],
      authStatus: 'unsupported',
      startupError: null,
    };
    const tool = { name: 'x', inputSchema: { type: 'object' }, _meta: { a: 1 }, icons: [] };
    const list = resultSchemas['mcpServerStatus/list'];
    expect(list.safeParse({ data: [{ ...server, tools: { x: tool } }], nextCursor: null }).success).toBe(true);
    expect(list.safeParse({ data: [{ ...server, extra: 1 }], nextCursor: null }).success).toBe(false);
  });
});
