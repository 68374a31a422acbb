/**
 * Checkpoints through the app server: each turn that may write records the workspace before and
 * after, files changed by commands (not apply_patch) come in `tiller/turn/checkpoint`,
 * `tiller/checkpoints/restore` puts the files back (refusing, with the file named, when the user
 * edited one since), and a resumed thread still lists and restores its checkpoints.
 */
import { readFileSync, realpathSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { TillerTurnCheckpoint } from '../../../src/protocol/checkpoints.js';
import { createInProcessAppServer } from '../../../src/runtime/app-server.js';
import { FakeResponsesServer } from '../../support/fake-responses-server.js';
import { type Harness, NotificationLog, startHarness, tempDir, testConfig, text } from '../support/harness.js';

let h: Harness;
afterEach(async () => {
  await h?.close();
});

const PATCH = '*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+two\n*** End Patch';

function workspace(): string {
  const ws = realpathSync(tempDir('tiller-ws-'));
  writeFileSync(join(ws, 'a.txt'), 'one\n');
  return ws;
}

async function patchAndCommandTurn(waitForCheckpoint = true): Promise<string> {
  h.fake.enqueue(
    { customToolCalls: [{ name: 'apply_patch', input: PATCH }] },
    { functionCall: { name: 'shell', arguments: { command: 'printf made > cmd.txt' }, callId: 'call_sh' } },
    { text: 'done' },
  );
  await h.server.request('turn/start', { threadId: h.threadId, input: [text('go')] });
  const turnId = (await h.log.waitFor('turn/completed')).turn.id;
  if (waitForCheckpoint) await h.log.waitFor('tiller/turn/checkpoint', (n) => n.checkpoint.after !== null);
  return turnId;
}

describe('checkpoints in the app server', () => {
  it('lists what commands changed, apart from what apply_patch wrote, and puts the workspace back', async () => {
    const ws = workspace();
    h = await startHarness({ config: { checkpoints: true }, cwd: ws });
    const turnId = await patchAndCommandTurn();
    expect(readFileSync(join(ws, 'a.txt'), 'utf8')).toBe('two\n');
    const ends = h.log.of('tiller/turn/checkpoint');
    expect(ends).toHaveLength(2);
    const end = ends[1]!;
    // The record after the turn is reported outside it: turn/completed never waits for it.
    const order = h.log.all.map((n) => n.method).filter((m) => m === 'turn/completed' || m === 'tiller/turn/checkpoint');
    expect(order).toEqual(['tiller/turn/checkpoint', 'turn/completed', 'tiller/turn/checkpoint']);
    expect(end.turnId).toBe(turnId);
    expect(end.checkpoint).toMatchObject({ turnId, workspace: ws, before: expect.any(String), after: expect.any(String), note: null });
    expect(end.commandChanges).toEqual([{ path: join(ws, 'cmd.txt'), kind: { type: 'add' }, diff: 'made' }]);

    const { checkpoints } = await h.server.request('tiller/checkpoints/list', { threadId: h.threadId });
    expect(checkpoints).toEqual([end.checkpoint]);
    const restored = await h.server.request('tiller/checkpoints/restore', { threadId: h.threadId, turnId });
    expect(restored).toEqual({
      status: 'restored',
      changes: expect.arrayContaining([
        { path: join(ws, 'a.txt'), kind: 'update' },
        { path: join(ws, 'cmd.txt'), kind: 'delete' },
      ]),
    });
    expect(readFileSync(join(ws, 'a.txt'), 'utf8')).toBe('one\n');
    expect(existsSync(join(ws, 'cmd.txt'))).toBe(false);
  });

  it('names a file the user edited since the turn and writes nothing until asked to force', async () => {
    const ws = workspace();
    h = await startHarness({ config: { checkpoints: true }, cwd: ws });
    const turnId = await patchAndCommandTurn();
    writeFileSync(join(ws, 'a.txt'), 'edited by hand\n');
    const refused = await h.server.request('tiller/checkpoints/restore', { threadId: h.threadId, turnId });
    expect(refused).toEqual({ status: 'userEdited', paths: [join(ws, 'a.txt')] });
    expect(readFileSync(join(ws, 'a.txt'), 'utf8')).toBe('edited by hand\n');
    expect(existsSync(join(ws, 'cmd.txt'))).toBe(true);
    const forced = await h.server.request('tiller/checkpoints/restore', { threadId: h.threadId, turnId, force: true });
    expect(forced.status).toBe('restored');
    expect(readFileSync(join(ws, 'a.txt'), 'utf8')).toBe('one\n');
  });

  it('warns and goes on without a checkpoint when the workspace cannot be recorded', async () => {
    const ws = workspace();
    h = await startHarness({ config: { checkpoints: true }, cwd: ws });
    // The store's place is taken by a file: every record fails, as on a full or broken disk.
    writeFileSync(join(h.config.home, 'checkpoints'), '');
    h.fake.enqueue({ text: 'fine' });
    await h.server.request('turn/start', { threadId: h.threadId, input: [text('go')] });
    expect((await h.log.waitFor('turn/completed')).turn.status).toBe('completed');
    await h.log.waitFor('warning');
    expect(h.log.of('warning').map((w) => w.message)).toEqual([
      expect.stringMatching(/^no checkpoint for this turn: the checkpoint store failed/u),
    ]);
    const [listed] = (await h.server.request('tiller/checkpoints/list', { threadId: h.threadId })).checkpoints;
    expect(listed).toMatchObject({ before: null, note: expect.stringContaining('no checkpoint') });
  });

  it('sends a Codex client (no tillerExtensions) nothing of it, and still records the checkpoint', async () => {
    const ws = workspace();
    const fake = await FakeResponsesServer.start();
    const server = createInProcessAppServer({ config: testConfig({ baseUrl: fake.baseUrl, checkpoints: true }), cwd: ws });
    const log = new NotificationLog();
    server.onNotification(log.push);
    try {
      await server.request('initialize', { clientInfo: { name: 'codex-client', version: '0' } });
      const { thread } = await server.request('thread/start', {});
      fake.enqueue({ functionCall: { name: 'shell', arguments: { command: 'printf x > c.txt' }, callId: 'c1' } }, { text: 'ok' });
      await server.request('turn/start', { threadId: thread.id, input: [text('go')] });
      await log.waitFor('turn/completed');
      let checkpoints: TillerTurnCheckpoint[] = [];
      for (let tries = 0; tries < 200 && checkpoints[0]?.after == null; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        checkpoints = (await server.request('tiller/checkpoints/list', { threadId: thread.id })).checkpoints;
      }
      expect(checkpoints[0]).toMatchObject({ before: expect.any(String), after: expect.any(String) });
      expect(log.all.filter((n) => n.method.startsWith('tiller/'))).toEqual([]);
    } finally {
      await server.close();
      await fake.close();
    }
  });

  it('keeps the checkpoints with the rollout: a resumed thread can rewind (closing waits for the record after the turn)', async () => {
    const ws = workspace();
    h = await startHarness({ config: { checkpoints: true }, cwd: ws });
    const turnId = await patchAndCommandTurn(false);
    await h.server.close();
    const checkpoints = h.log.of('tiller/turn/checkpoint').map((n) => n.checkpoint);
    expect(checkpoints.at(-1)).toMatchObject({ turnId, after: expect.any(String) });
    const again = createInProcessAppServer({ config: h.config, cwd: ws });
    try {
      await again.request('initialize', { clientInfo: { name: 'test', version: '0' }, capabilities: { tillerExtensions: true } });
      await again.request('thread/resume', { threadId: h.threadId });
      expect((await again.request('tiller/checkpoints/list', { threadId: h.threadId })).checkpoints).toEqual([checkpoints.at(-1)]);
      expect(await again.request('tiller/checkpoints/restore', { threadId: h.threadId, turnId })).toMatchObject({ status: 'restored' });
      expect(readFileSync(join(ws, 'a.txt'), 'utf8')).toBe('one\n');
    } finally {
      await again.close();
    }
  });
});
