/**
 * tiller/commandSessions/list and /stop (/ps, /stop): a command the model left running is listed with
 * its last output line and ended on request; a client without Tiller's extensions does not have the
 * methods. thread/name/set (/rename): the name is kept in the session index and shows in thread/list.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { JSONRPC_METHOD_NOT_FOUND, JsonRpcError } from '../../src/protocol/api.js';
import { createInProcessAppServer } from '../../src/runtime/app-server.js';
import { type Harness, startHarness, tempDir, testConfig, text } from './support/harness.js';

let h: Harness;
afterEach(async () => {
  await h?.close();
});

async function leaveRunning(cmd: string): Promise<void> {
  let n = 0;
  h.fake.respondWith(() =>
    n++ === 0 ? { functionCall: { name: 'exec_command', arguments: { cmd, yield_time_ms: 300 } } } : { text: 'ok' },
  );
  await h.server.request('turn/start', { threadId: h.threadId, input: [text('go')] });
  await h.log.waitFor('turn/completed', () => true, 30_000);
}

describe('tiller/commandSessions', () => {
  it('lists a running command with its last line; stop with an unknown id ends nothing, without one ends it', async () => {
    h = await startHarness({ config: { approvalPolicy: 'never', sandboxMode: 'danger-full-access' } });
    await leaveRunning('printf "one\\ntwo\\n"; sleep 30');
    const { data } = await h.server.request('tiller/commandSessions/list', { threadId: h.threadId });
    expect(data).toHaveLength(1);
    expect(data[0]).toMatchObject({ lastLine: 'two', exited: false, exitCode: null });
    expect(data[0]!.command).toContain('sleep 30');
    expect(data[0]!.runningMs).toBeGreaterThanOrEqual(0);

    expect(await h.server.request('tiller/commandSessions/stop', { threadId: h.threadId, id: data[0]!.id + 1 })).toEqual({ stopped: [] });
    expect(await h.server.request('tiller/commandSessions/stop', { threadId: h.threadId })).toEqual({ stopped: [data[0]!.id] });
    expect((await h.server.request('tiller/commandSessions/list', { threadId: h.threadId })).data).toEqual([]);
    expect(await h.server.request('tiller/commandSessions/stop', { threadId: h.threadId })).toEqual({ stopped: [] });
  });

  it('a Codex client (no tillerExtensions) gets method not found', async () => {
    const config = testConfig({ baseUrl: 'http://127.0.0.1:9' });
    const server = createInProcessAppServer({ config, cwd: tempDir() });
    await server.request('initialize', { clientInfo: { name: 'codex', version: '0' } });
    const { thread } = await server.request('thread/start', {});
    const error = await server.request('tiller/commandSessions/list', { threadId: thread.id }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JsonRpcError);
    expect((error as JsonRpcError).code).toBe(JSONRPC_METHOD_NOT_FOUND);
    await server.close();
  });
});

describe('thread/name/set', () => {
  it('names the thread: Codex’s notification, a 0600 index line, Thread.name in thread/list and thread/read', async () => {
    h = await startHarness();
    h.fake.respondWith(() => ({ text: 'hi' }));
    await h.server.request('turn/start', { threadId: h.threadId, input: [text('hello')] });
    await h.log.waitFor('turn/completed', () => true, 30_000);
    expect(await h.server.request('thread/name/set', { threadId: h.threadId, name: '  my   task ' })).toEqual({});
    expect(h.log.of('thread/name/updated')).toEqual([{ threadId: h.threadId, threadName: 'my task' }]);
    const index = join(h.config.home, 'session_index.jsonl');
    expect(statSync(index).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(index, 'utf8').trim())).toMatchObject({ id: h.threadId, thread_name: 'my task' });
    const listed = await h.server.request('thread/list', {});
    expect(listed.data.find((t) => t.id === h.threadId)?.name).toBe('my task');
    expect((await h.server.request('thread/read', { threadId: h.threadId })).thread.name).toBe('my task');
  });

  it('an empty name is refused with -32602 and nothing is written', async () => {
    h = await startHarness();
    const error = await h.server.request('thread/name/set', { threadId: h.threadId, name: '   ' }).catch((e: unknown) => e);
    expect((error as JsonRpcError).code).toBe(-32602);
    expect((error as JsonRpcError).message).toBe('Invalid params: name: thread name must not be empty');
    expect(() => statSync(join(h.config.home, 'session_index.jsonl'))).toThrow();
  });
});
