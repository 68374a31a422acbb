import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TURN_ABORTED_MARKER } from '../../src/runtime/core/history.js';
import { type Harness, inputTexts, startHarness, tempDir, text } from './support/harness.js';

let h: Harness;
afterEach(async () => {
  await h?.close();
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('turn/interrupt', () => {
  it('while streaming: turn/completed interrupted, marker in the next request, history kept, session still accepts input', async () => {
    h = await startHarness();
    h.fake.enqueue({ fault: { kind: 'stall', afterEvents: 3 } }, { text: 'next' });
    const { turn } = await h.server.request('turn/start', { threadId: h.threadId, input: [text('first')] });
    await h.fake.waitForRequests(1);
    await h.log.waitFor('turn/started');
    expect(await h.server.request('turn/interrupt', { threadId: h.threadId, turnId: turn.id })).toEqual({});
    const done = await h.log.waitFor('turn/completed');
    expect(done.turn).toMatchObject({ id: turn.id, status: 'interrupted', error: null });
    await h.server.request('turn/start', { threadId: h.threadId, input: [text('second')] });
    await h.log.waitFor('turn/completed', (n) => n.turn.id !== turn.id);
    expect(inputTexts(h.fake.requests[1]!.body)).toEqual(['first', TURN_ABORTED_MARKER, 'second']);
    const marker = h.fake.requests[1]!.body.input[1];
    expect(marker).toMatchObject({ type: 'message', role: 'user' });
  });

  it('without the marker when config interruptMarker is off', async () => {
    h = await startHarness({ config: { interruptMarker: false } });
    h.fake.enqueue({ fault: { kind: 'stall', afterEvents: 3 } }, { text: 'next' });
    const { turn } = await h.server.request('turn/start', { threadId: h.threadId, input: [text('first')] });
    await h.fake.waitForRequests(1);
    await h.server.request('turn/interrupt', { threadId: h.threadId, turnId: turn.id });
    await h.server.request('turn/start', { threadId: h.threadId, input: [text('second')] });
    await h.fake.waitForRequests(2);
    expect(inputTexts(h.fake.requests[1]!.body)).toEqual(['first', 'second']);
  });

  it('while a tool runs: the process group is killed and the call and output stay in history', async () => {
    const dir = tempDir();
    const pidFile = join(dir, 'pid');
    const childPidFile = join(dir, 'child');
    h = await startHarness({ cwd: dir });
    h.fake.enqueue({ functionCall: { name: 'shell', arguments: { command: `echo $$ > ${pidFile}; (sleep 30 & echo $! > ${childPidFile}; wait)` }, callId: 'call_1' } }, { text: 'after' });
    const { turn } = await h.server.request('turn/start', { threadId: h.threadId, input: [text('run it')] });
    await until(() => existsSync(pidFile) && existsSync(childPidFile) && readFileSync(childPidFile, 'utf8').trim().length > 0);
    const pid = Number(readFileSync(pidFile, 'utf8').trim());
    const childPid = Number(readFileSync(childPidFile, 'utf8').trim());
    expect(alive(pid)).toBe(true);
    await h.server.request('turn/interrupt', { threadId: h.threadId, turnId: turn.id });
    const done = await h.log.waitFor('turn/completed');
    expect(done.turn.status).toBe('interrupted');
    await until(() => !alive(pid) && !alive(childPid));
    await h.server.request('turn/start', { threadId: h.threadId, input: [text('again')] });
    await h.fake.waitForRequests(2);
    const input = h.fake.requests[1]!.body.input as Array<{ type: string; call_id?: string }>;
    expect(input.map((i) => i.type)).toEqual(['message', 'function_call', 'function_call_output', 'message', 'message']);
    expect(inputTexts(h.fake.requests[1]!.body)).toEqual(['run it', TURN_ABORTED_MARKER, 'again']);
    const command = h.log.of('item/completed').find((n) => n.item.type === 'commandExecution');
    expect(command?.item).toMatchObject({ status: 'failed' });
  });

  it('drops pending steers that were not taken', async () => {
    h = await startHarness();
    h.fake.enqueue({ fault: { kind: 'stall', afterEvents: 3 } }, { text: 'next' });
    const { turn } = await h.server.request('turn/start', { threadId: h.threadId, input: [text('first')] });
    await h.fake.waitForRequests(1);
    await h.log.waitFor('turn/started');
    await h.server.request('turn/steer', { threadId: h.threadId, input: [text('pending steer')], expectedTurnId: turn.id });
    await h.server.request('turn/interrupt', { threadId: h.threadId, turnId: turn.id });
    await h.server.request('turn/start', { threadId: h.threadId, input: [text('second')] });
    await h.fake.waitForRequests(2);
    expect(inputTexts(h.fake.requests[1]!.body)).not.toContain('pending steer');
  });
});
