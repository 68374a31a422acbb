/**
 * What the /diff explorer asks of the checkpoints: `tiller/checkpoints/diff` gives a turn's patch
 * (before to after, `git apply`'s shape), and `tiller/checkpoints/restore` with `paths` puts back
 * only those files, asking first only about those.
 */
import { readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness, tempDir, text } from '../support/harness.js';

let h: Harness;
afterEach(async () => {
  await h?.close();
});

const PATCH = '*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+two\n*** Update File: b.txt\n@@\n-bee\n+BEE\n*** End Patch';

async function patchTurn(): Promise<{ ws: string; turnId: string }> {
  const ws = realpathSync(tempDir('tiller-ws-'));
  writeFileSync(join(ws, 'a.txt'), 'one\n');
  writeFileSync(join(ws, 'b.txt'), 'bee\n');
  h = await startHarness({ config: { checkpoints: true }, cwd: ws });
  h.fake.enqueue({ customToolCalls: [{ name: 'apply_patch', input: PATCH }] }, { text: 'done' });
  await h.server.request('turn/start', { threadId: h.threadId, input: [text('go')] });
  const turnId = (await h.log.waitFor('turn/completed')).turn.id;
  // The record after the turn follows turn/completed: a hand edit before it would count as the turn's.
  await h.log.waitFor('tiller/turn/checkpoint', (n) => n.checkpoint.after !== null);
  return { ws, turnId };
}

describe("the explorer's checkpoint methods", () => {
  it("gives a turn's patch, and reverts one file of it, leaving the other", async () => {
    const { ws, turnId } = await patchTurn();
    const { workspace, patch } = await h.server.request('tiller/checkpoints/diff', { threadId: h.threadId, turnId });
    expect(workspace).toBe(ws);
    expect(patch).toContain('diff --git a/a.txt b/a.txt');
    expect(patch).toContain('-one\n+two\n');
    expect(patch).toContain('-bee\n+BEE\n');
    const restored = await h.server.request('tiller/checkpoints/restore', { threadId: h.threadId, turnId, paths: ['a.txt'] });
    expect(restored).toEqual({ status: 'restored', changes: [{ path: join(ws, 'a.txt'), kind: 'update' }] });
    expect(readFileSync(join(ws, 'a.txt'), 'utf8')).toBe('one\n');
    expect(readFileSync(join(ws, 'b.txt'), 'utf8')).toBe('BEE\n');
    // One file put back is no rewind of the turn: there is nothing for redo.
    expect(await h.server.request('tiller/checkpoints/redo', { threadId: h.threadId })).toEqual({
      status: 'unavailable',
      message: 'nothing to redo',
    });
    expect(await h.server.request('tiller/checkpoints/diff', { threadId: h.threadId, turnId: 'no-such-turn' })).toEqual({
      workspace: '',
      patch: null,
    });
  });

  it('asks about a hand-edited file only when reverting that one', async () => {
    const { ws, turnId } = await patchTurn();
    writeFileSync(join(ws, 'b.txt'), 'mine\n');
    const other = await h.server.request('tiller/checkpoints/restore', { threadId: h.threadId, turnId, paths: ['a.txt'] });
    expect(other.status).toBe('restored');
    const edited = await h.server.request('tiller/checkpoints/restore', { threadId: h.threadId, turnId, paths: ['b.txt'] });
    expect(edited).toEqual({ status: 'userEdited', paths: [join(ws, 'b.txt')] });
    expect(readFileSync(join(ws, 'b.txt'), 'utf8')).toBe('mine\n');
    await h.server.request('tiller/checkpoints/restore', { threadId: h.threadId, turnId, paths: ['b.txt'], force: true });
    expect(readFileSync(join(ws, 'b.txt'), 'utf8')).toBe('bee\n');
  });
});
