/**
 * `tiller app-server` over a real child process: every kind of malformed line
 * gets its JSON-RPC error (or, for responses and notifications, nothing) and the server keeps
 * serving; oversized input over the wire; a client that answers an approval with an error; EOF
 * in the middle of a running command.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from './support/harness.js';
import { alive, until, waitForPid } from './support/process.js';
import { parseMessage, stdioAppServerPerTest } from './support/stdio-app-server.js';

const app = stdioAppServerPerTest(() => tempDir());
const { send, response, initialize } = app;

describe('tiller app-server never stops on bad input', () => {
  it('answers every malformed line with the right error, ignores what needs no answer, and keeps serving', async () => {
    const threadId = await initialize();
    const before = app.child.lines.length;
    const bad: string[] = [
      '[]', // a batch: not supported
      '42',
      'null',
      '"just a string"',
      '{}',
      '{"id":{"nested":1},"method":"thread/start"}',
      '{"id":true,"method":"thread/start"}',
      '{"id":"no-method"}',
      '{"id":"num-method","method":5}',
      '\u00ff\u00fe{not json',
      '{"jsonrpc":"2.0","id":"cut","method":"turn/start","params":{"threadId":',
    ];
    const quiet: string[] = [
      '', // blank lines
      '   \t',
      '{"id":"server-999","result":{"decision":"accept"}}', // answer to a server request never sent
      '{"id":"server-998","error":{"code":1,"message":"x"}}',
      '{"method":"initialized"}', // a client notification
    ];
    for (const line of [...bad, ...quiet]) send(line);
    app.child.proc.stdin.write(Buffer.from([0xff, 0xfe, 0x7b, 0x80, 0x0a])); // not UTF-8 at all
    const methods = ['__proto__', 'constructor', 'toString', 'thread/archive', 'turn/start/'];
    for (const [i, method] of methods.entries()) send({ id: `m${i}`, method, params: {} });
    send({ id: 'p1', method: 'turn/start', params: [] });
    send({
      id: 'p2',
      method: 'turn/start',
      params: { threadId, input: [{ type: 'text', text: 'x', text_elements: [{ byteRange: { start: 0, end: -2 } }] }] },
    });
    send({ id: 'p3', method: 'turn/steer', params: { threadId, input: [{ type: 'localImage' }], expectedTurnId: 't' } });
    send({ id: 'again', method: 'initialize', params: { clientInfo: { name: 'malformed-lines', version: '1' } } });

    for (const [i] of methods.entries()) expect((await response(`m${i}`)).error?.code).toBe(-32601);
    const p1 = await response('p1');
    expect(p1.error).toMatchObject({ code: -32602, message: expect.stringContaining('params') });
    const p2 = await response('p2');
    expect(p2.error).toMatchObject({ code: -32602, message: expect.stringContaining('input[0].text_elements[0].byteRange') });
    expect((await response('p3')).error).toMatchObject({ code: -32602, message: expect.stringContaining('input[0].path') });
    expect((await response('again')).error).toEqual({ code: -32600, message: 'Already initialized' });

    // Still serving: a real turn runs to completion.
    app.fake.enqueue({ text: 'still here' });
    send({ id: 'live', method: 'turn/start', params: { threadId, input: [{ type: 'text', text: 'hello', text_elements: [] }] } });
    const turnId = (await response('live')).result.turn.id as string;
    await app.child.waitForLine((l) => parseMessage(l).method === 'turn/completed' && parseMessage(l).params.turn.id === turnId);

    const out = app.child.lines.slice(before).map(parseMessage);
    for (const message of out) expect(message.jsonrpc).toBe('2.0');
    // As Codex: a bad line with no usable id gets no answer at all; `no-method` and `num-method` are answered by id.
    expect(out.filter((m) => m.id === null || (m.id === undefined && m.method === undefined))).toEqual([]);
    expect(out.find((m) => m.id === 'no-method')?.error).toMatchObject({ code: -32600 });
    expect(out.find((m) => m.id === 'num-method')?.error).toMatchObject({ code: -32600 });
    // The quiet lines produced nothing: no message names their ids.
    expect(out.filter((m) => m.id === 'server-999' || m.id === 'server-998')).toEqual([]);
    expect(app.child.proc.exitCode).toBeNull();
  });

  it('input over the limit, split over two text items, is refused with the data over the wire', async () => {
    const threadId = await initialize();
    const half = 'a'.repeat(1 << 19);
    const input = [
      { type: 'text', text: half, text_elements: [] },
      { type: 'text', text: `${half}b`, text_elements: [] },
    ];
    send({ id: 'big', method: 'turn/start', params: { threadId, input } });
    expect((await response('big')).error).toEqual({
      code: -32602,
      message: 'Input exceeds the maximum length of 1048576 characters.',
      data: { input_error_code: 'input_too_large', max_chars: 1048576, actual_chars: 1048577 },
    });
    expect(app.fake.requests).toHaveLength(0);
  });

  it('an approval answered with an error declines the command; the turn completes', async () => {
    send({ id: 'init', method: 'initialize', params: { clientInfo: { name: 'malformed-lines', version: '1' } } });
    await response('init');
    send({ id: 'thread', method: 'thread/start', params: { approvalPolicy: 'on-request', sandbox: 'danger-full-access' } });
    const threadId = (await response('thread')).result.thread.id as string;
    const marker = join(tempDir(), 'ran');
    app.fake.enqueue({ functionCall: { name: 'shell', arguments: { command: `touch ${marker}` } } }, { text: 'ok' });
    send({ id: 'go', method: 'turn/start', params: { threadId, input: [{ type: 'text', text: 'go', text_elements: [] }] } });
    const asked = parseMessage(await app.child.waitForLine((l) => parseMessage(l).method === 'item/commandExecution/requestApproval'));
    send({ id: asked.id, error: { code: -32000, message: 'client cannot ask' } });
    const item = parseMessage(
      await app.child.waitForLine(
        (l) => parseMessage(l).method === 'item/completed' && parseMessage(l).params.item.type === 'commandExecution',
      ),
    );
    expect(item.params.item).toMatchObject({ status: 'declined' });
    const done = parseMessage(await app.child.waitForLine((l) => parseMessage(l).method === 'turn/completed'));
    expect(done.params.turn.status).toBe('completed');
    expect(existsSync(marker)).toBe(false);
  });

  it('EOF while a command runs: exit 0 and the command is killed', async () => {
    send({ id: 'init', method: 'initialize', params: { clientInfo: { name: 'malformed-lines', version: '1' } } });
    await response('init');
    send({ id: 'thread', method: 'thread/start', params: { approvalPolicy: 'never', sandbox: 'danger-full-access' } });
    const threadId = (await response('thread')).result.thread.id as string;
    const pidFile = join(tempDir(), 'pid');
    app.fake.enqueue({ functionCall: { name: 'shell', arguments: { command: `echo $$ > ${pidFile}; sleep 30` } } }, { text: 'never' });
    send({ id: 'go', method: 'turn/start', params: { threadId, input: [{ type: 'text', text: 'go', text_elements: [] }] } });
    const pid = await waitForPid(pidFile);
    expect(alive(pid)).toBe(true);
    app.child.proc.stdin.end();
    expect(await app.child.exit).toBe(0);
    await until(() => !alive(pid));
  });
});
