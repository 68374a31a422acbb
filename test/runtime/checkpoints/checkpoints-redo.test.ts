/**
 * `tiller/checkpoints/redo` through the app server: it takes back the newest rewind (newest first),
 * names a file changed since the rewind before overwriting it, forgets the rewinds once a new turn
 * starts, and a resumed thread can still redo (the rewind goes out in `tiller/turn/checkpoint` and
 * the rollout keeps it). Consecutive rewinds do not mistake the previous rewind for a user's edit.
 * Each ended turn's checkpoint counts the files it changed.
 */
import { existsSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createInProcessAppServer } from '../../../src/runtime/app-server.js';
import { type Harness, startHarness, tempDir, text } from '../support/harness.js';

let h: Harness;
afterEach(async () => {
  await h?.close();
});

const patch = (body: string) => ({ customToolCalls: [{ name: 'apply_patch', input: `*** Begin Patch\n${body}\n*** End Patch` }] });

async function turn(body: string): Promise<string> {
  const count = h.log.of('turn/completed').length;
  h.fake.enqueue(patch(body), { text: 'done' });
  await h.server.request('turn/start', { threadId: h.threadId, input: [text('go')] });
  await h.log.waitFor('turn/completed', () => h.log.of('turn/completed').length > count);
  return h.log.of('turn/completed').at(-1)!.turn.id;
}

function read(ws: string, path: string): string | null {
  return existsSync(join(ws, path)) ? readFileSync(join(ws, path), 'utf8') : null;
}

async function twoTurns(): Promise<{ ws: string; first: string; second: string }> {
  const ws = realpathSync(tempDir('tiller-ws-'));
  writeFileSync(join(ws, 'a.txt'), 'one\n');
  h = await startHarness({ config: { checkpoints: true }, cwd: ws });
  const first = await turn('*** Update File: a.txt\n@@\n-one\n+two');
  const second = await turn('*** Add File: b.txt\n+bee');
  return { ws, first, second };
}

describe('redo of a rewind', () => {
  it('undoes two turns one after the other, then redoes them newest rewind first', async () => {
    const { ws, first, second } = await twoTurns();
    expect(await h.server.request('tiller/checkpoints/restore', { threadId: h.threadId, turnId: second })).toMatchObject({
      status: 'restored',
    });
    expect(read(ws, 'b.txt')).toBeNull();
    // The second rewind starts from what the first left: no file counts as edited by hand.
    expect(await h.server.request('tiller/checkpoints/restore', { threadId: h.threadId, turnId: first })).toMatchObject({
      status: 'restored',
    });
    expect(read(ws, 'a.txt')).toBe('one\n');
    const listed = (await h.server.request('tiller/checkpoints/list', { threadId: h.threadId })).checkpoints;
    expect(listed.map((c) => c.rewind !== null && c.rewind !== undefined)).toEqual([true, true]);
    // Each turn says how many files it changed: backtrack asks only when the agent changed some.
    expect(listed.map((c) => c.changedFiles)).toEqual([1, 1]);

    expect(await h.server.request('tiller/checkpoints/redo', { threadId: h.threadId })).toMatchObject({ status: 'restored' });
    expect([read(ws, 'a.txt'), read(ws, 'b.txt')]).toEqual(['two\n', null]);
    expect(await h.server.request('tiller/checkpoints/redo', { threadId: h.threadId })).toMatchObject({ status: 'restored' });
    expect([read(ws, 'a.txt'), read(ws, 'b.txt')]).toEqual(['two\n', 'bee\n']);
    expect(await h.server.request('tiller/checkpoints/redo', { threadId: h.threadId })).toEqual({
      status: 'unavailable',
      message: 'nothing to redo',
    });
  });

  it('names a file changed since the rewind and overwrites it only when forced', async () => {
    const { ws, second } = await twoTurns();
    await h.server.request('tiller/checkpoints/restore', { threadId: h.threadId, turnId: second });
    writeFileSync(join(ws, 'b.txt'), 'mine\n');
    expect(await h.server.request('tiller/checkpoints/redo', { threadId: h.threadId })).toEqual({
      status: 'userEdited',
      paths: [join(ws, 'b.txt')],
    });
    expect(read(ws, 'b.txt')).toBe('mine\n');
    expect(await h.server.request('tiller/checkpoints/redo', { threadId: h.threadId, force: true })).toMatchObject({ status: 'restored' });
    expect(read(ws, 'b.txt')).toBe('bee\n');
  });

  it('forgets the rewinds when a new turn starts', async () => {
    const { ws, second } = await twoTurns();
    await h.server.request('tiller/checkpoints/restore', { threadId: h.threadId, turnId: second });
    await turn('*** Add File: c.txt\n+sea');
    expect(await h.server.request('tiller/checkpoints/redo', { threadId: h.threadId })).toEqual({
      status: 'unavailable',
      message: 'nothing to redo',
    });
    expect([read(ws, 'b.txt'), read(ws, 'c.txt')]).toEqual([null, 'sea\n']);
  });

  it('keeps the rewind with the rollout: a resumed thread can redo it', async () => {
    const { ws, second } = await twoTurns();
    await h.server.request('tiller/checkpoints/restore', { threadId: h.threadId, turnId: second });
    const sent = h.log.of('tiller/turn/checkpoint').at(-1)!;
    expect(sent.turnId).toBe(second);
    expect(sent.checkpoint.rewind).toEqual({ redo: expect.any(String), at: expect.any(Number) });
    await h.server.close();
    const again = createInProcessAppServer({ config: h.config, cwd: ws });
    try {
      await again.request('initialize', { clientInfo: { name: 'test', version: '0' }, capabilities: { tillerExtensions: true } });
      await again.request('thread/resume', { threadId: h.threadId });
      expect(await again.request('tiller/checkpoints/redo', { threadId: h.threadId })).toMatchObject({ status: 'restored' });
      expect(read(ws, 'b.txt')).toBe('bee\n');
    } finally {
      await again.close();
    }
  });
});
