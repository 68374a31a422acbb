import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from './support/harness.js';
import { alive, until, waitForPid } from './support/process.js';
import { type Message, stdioAppServerPerTest } from './support/stdio-app-server.js';

const app = stdioAppServerPerTest();
const { send, response, notification, initialize } = app;

describe('tiller app-server over stdio', () => {
  it('initialize, thread/start, turn/start with notifications, then steer', async () => {
    const threadId = await initialize();
    expect((await notification('thread/started')).params.thread.id).toBe(threadId);
    app.fake.enqueue({ deltas: ['one ', 'two ', 'three ', 'four'], delayMs: 60 }, { text: 'after steer' });
    send({ id: 3, method: 'turn/start', params: { threadId, input: [{ type: 'text', text: 'hello', text_elements: [] }] } });
    const turnId = (await response(3)).result.turn.id as string;
    expect((await notification('turn/started')).params.turn.id).toBe(turnId);
    await notification('item/agentMessage/delta');
    send({
      id: 4,
      method: 'turn/steer',
      params: { threadId, expectedTurnId: turnId, input: [{ type: 'text', text: 'and this', text_elements: [] }] },
    });
    expect((await response(4)).result).toEqual({ turnId });
    const steerItem = await notification(
      'item/completed',
      (m) => m.params.item.type === 'userMessage' && m.params.item.content[0].text === 'and this',
    );
    expect(steerItem.params.turnId).toBe(turnId);
    const done = await notification('turn/completed');
    expect(done.params.turn).toMatchObject({ id: turnId, status: 'completed' });
    expect(app.fake.requests).toHaveLength(2);
    // Every stdout line is a JSON-RPC message.
    for (const line of app.child.lines) expect(() => JSON.parse(line)).not.toThrow();
  });

  it('bad input gets JSON-RPC errors and the server keeps running', async () => {
    send({ id: 'early', method: 'thread/start', params: {} });
    expect((await response('early')).error).toMatchObject({ code: -32600, message: 'Not initialized' });
    // A malformed line gets no answer (as Codex), and the next request is served.
    send('{not json');
    const threadId = await initialize();
    expect(app.child.lines.some((l) => l.includes('-32700'))).toBe(false);
    send({ id: 10, method: 'thread/archive', params: {} });
    expect((await response(10)).error).toMatchObject({ code: -32601 });
    send({ id: 11, method: 'turn/start', params: { threadId, input: 'not a list' } });
    const bad = await response(11);
    expect(bad.error?.code).toBe(-32602);
    expect(bad.error?.message).toContain('input');
    send({
      id: 12,
      method: 'turn/steer',
      params: { threadId, expectedTurnId: 'x', input: [{ type: 'text', text: 'x', text_elements: [] }] },
    });
    expect((await response(12)).error).toEqual({
      code: -32600,
      message: 'no active turn to steer',
      data: { tillerNotSubmitted: { type: 'noActiveTurn' } },
    });
    // Nested 5,000 deep: refused before any recursive code sees it, naming where.
    const deep = `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`;
    send(`{"jsonrpc":"2.0","id":"deep","method":"turn/start","params":{"threadId":"${threadId}","input":[],"outputSchema":${deep}}}`);
    expect((await response('deep')).error).toEqual({
      code: -32602,
      message: 'Invalid params: outputSchema.a.a.a.a.a…: nested deeper than 128 levels',
    });
    send({ id: 13, method: 'turn/start', params: { threadId, input: [{ type: 'text', text: 'still alive', text_elements: [] }] } });
    expect((await response(13)).result.turn.status).toBe('inProgress');
    await notification('turn/completed');
  });

  it('every method the app server answers is reachable over stdio (tiller/shellCommand, model/list)', async () => {
    const threadId = await initialize();
    send({ id: 'sh', method: 'tiller/shellCommand', params: { threadId, command: 'echo over-stdio' } });
    expect((await response('sh')).result).toMatchObject({ exitCode: 0, output: 'over-stdio\n' });
    send({ id: 'models', method: 'model/list', params: {} });
    expect((await response('models')).result.data.length).toBeGreaterThan(0);
  });

  it('serves the thread methods: list, read, fork, revert (resume of one it holds just returns it)', async () => {
    const threadId = await initialize();
    app.fake.enqueue({ text: 'first answer' });
    send({ id: 't1', method: 'turn/start', params: { threadId, input: [{ type: 'text', text: 'first', text_elements: [] }] } });
    const turnId = (await response('t1')).result.turn.id as string;
    await notification('turn/completed');
    send({ id: 'list', method: 'thread/list', params: {} });
    expect((await response('list')).result.data.map((t: { id: string }) => t.id)).toEqual([threadId]);
    send({ id: 'read', method: 'thread/read', params: { threadId, includeTurns: true } });
    expect((await response('read')).result.thread.turns[0].id).toBe(turnId);
    send({ id: 'resume', method: 'thread/resume', params: { threadId } });
    expect((await response('resume')).result.thread).toMatchObject({ id: threadId, status: { type: 'idle' } });
    send({ id: 'fork', method: 'thread/fork', params: { threadId } });
    expect((await response('fork')).result.thread).toMatchObject({ forkedFromId: threadId });
    send({ id: 'revert', method: 'thread/revert', params: { threadId, beforeTurnId: turnId } });
    expect((await response('revert')).result.thread).toMatchObject({ id: threadId, tillerTurnCount: 0 });
    send({ id: 'bad', method: 'thread/resume', params: {} });
    expect((await response('bad')).error).toMatchObject({ code: -32602, message: expect.stringContaining('threadId') });
  });

  it('approvals are server requests answered by the client', async () => {
    send({ id: 1, method: 'initialize', params: { clientInfo: { name: 'test', version: '1' } } });
    await response(1);
    send({ id: 2, method: 'thread/start', params: { approvalPolicy: 'on-request', sandbox: 'danger-full-access' } });
    const threadId = (await response(2)).result.thread.id as string;
    app.fake.enqueue({ functionCall: { name: 'shell', arguments: { command: 'echo approved-run' } } }, { text: 'done' });
    send({ id: 3, method: 'turn/start', params: { threadId, input: [{ type: 'text', text: 'go', text_elements: [] }] } });
    // A server request: it carries an id (unlike a notification) for the client's answer.
    const asked = JSON.parse(
      await app.child.waitForLine((l) => (JSON.parse(l) as Message).method === 'item/commandExecution/requestApproval'),
    ) as Message;
    expect(typeof asked.id).toBe('string');
    expect(asked.params).toMatchObject({ threadId, command: 'echo approved-run' });
    send({ id: asked.id, result: { decision: 'accept' } });
    const item = await notification('item/completed', (m) => m.params.item.type === 'commandExecution');
    expect(item.params.item).toMatchObject({ status: 'completed', exitCode: 0 });
    expect(item.params.item.aggregatedOutput).toContain('approved-run');
    await notification('turn/completed');
  });

  it('a warning (unreadable image) reaches the client as a notification; interrupts of stalled and finished turns', async () => {
    const threadId = await initialize();
    app.fake.enqueue({ text: 'never ends', fault: { kind: 'stall', afterEvents: 3 } }, { text: 'fresh' });
    const image = { type: 'localImage', path: '/nonexistent/tiller-missing.png' };
    send({ id: 3, method: 'turn/start', params: { threadId, input: [image, { type: 'text', text: 'look', text_elements: [] }] } });
    const turnId = (await response(3)).result.turn.id as string;
    const warning = await notification('warning');
    expect(warning.params).toEqual({ threadId, turnId, message: 'Tiller could not read the local image: no such file.' });
    await app.fake.waitForRequests(1);
    send({ id: 4, method: 'turn/interrupt', params: { threadId, turnId } });
    expect((await response(4)).result).toEqual({});
    expect((await notification('turn/completed')).params.turn).toMatchObject({ id: turnId, status: 'interrupted' });
    send({ id: 5, method: 'turn/interrupt', params: { threadId, turnId } });
    expect((await response(5)).error).toEqual({
      code: -32600,
      message: 'no active turn to interrupt',
      data: { tillerInterrupt: { type: 'noActiveTurn' } },
    });
    send({ id: 6, method: 'turn/start', params: { threadId, input: [{ type: 'text', text: 'again', text_elements: [] }] } });
    const next = (await response(6)).result.turn.id as string;
    expect((await notification('turn/completed', (m) => m.params.turn.id === next)).params.turn.status).toBe('completed');
    expect(app.fake.requests).toHaveLength(2);
  });

  it('SIGTERM exits 143 and kills a running command', async () => {
    await initialize();
    send({ id: 20, method: 'thread/start', params: { approvalPolicy: 'never', sandbox: 'danger-full-access' } });
    const threadId = (await response(20)).result.thread.id as string;
    const pidFile = join(tempDir(), 'pid');
    app.fake.enqueue({ functionCall: { name: 'shell', arguments: { command: `echo $$ > ${pidFile}; sleep 30` } } });
    send({ id: 21, method: 'turn/start', params: { threadId, input: [{ type: 'text', text: 'run', text_elements: [] }] } });
    await app.child.waitForLine((l) => (JSON.parse(l) as Message).method === 'item/started' && l.includes('commandExecution'));
    const pid = await waitForPid(pidFile);
    app.child.proc.kill('SIGTERM');
    expect(await app.child.exit).toBe(143);
    await until(() => !alive(pid));
  });
});
