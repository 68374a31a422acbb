import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { conversation, type Harness, startHarness, tempDir, text } from './support/harness.js';

let h: Harness;
afterEach(async () => {
  await h?.close();
});

function userContents(body: { input: Array<{ type: string; role?: string; content?: Array<{ type: string }> }> }): string[] {
  return conversation(body)
    .filter((item) => item.type === 'message' && item.role === 'user')
    .map((item) => JSON.stringify(item.content));
}

describe('media given by a Files API id (as Codex accepts)', () => {
  it('an image and an audio file by fileId reach the model as input_image / input_file with that id', async () => {
    h = await startHarness();
    await h.server.request('turn/start', {
      threadId: h.threadId,
      input: [{ type: 'image', fileId: 'file-img-1', detail: 'high' }, { type: 'audio', fileId: 'file-aud-2' }, text('what is in these?')],
    });
    expect((await h.log.waitFor('turn/completed')).turn.status).toBe('completed');
    const [content] = userContents(h.fake.requests[0]!.body);
    expect(JSON.parse(content!)).toEqual([
      { type: 'input_image', file_id: 'file-img-1', detail: 'high' },
      { type: 'input_file', file_id: 'file-aud-2' },
      { type: 'input_text', text: 'what is in these?' },
    ]);
    const user = h.log.of('item/completed').find((n) => n.item.type === 'userMessage')!;
    expect(user.item).toMatchObject({
      content: [{ type: 'image', fileId: 'file-img-1' }, { type: 'audio', fileId: 'file-aud-2' }, { type: 'text' }],
    });
  });

  it('an image with both url and fileId, or neither, is -32602 naming the rule', async () => {
    h = await startHarness();
    for (const image of [{ type: 'image', url: 'https://x/y.png', fileId: 'file-1' }, { type: 'image' }]) {
      await expect(h.server.request('turn/start', { threadId: h.threadId, input: [image as never] })).rejects.toMatchObject({
        code: -32602,
        message: expect.stringContaining('exactly one of url and fileId'),
      });
    }
  });
});

describe('local media in a turn', () => {
  it('an unreadable attachment gives a warning notification and the turn still runs with the rest', async () => {
    h = await startHarness();
    const missing = join(tempDir(), 'gone.png');
    await h.server.request('turn/start', { threadId: h.threadId, input: [{ type: 'localImage', path: missing }, text('describe it')] });
    const warning = await h.log.waitFor('warning');
    expect(warning.message).toBe('Tiller could not read the local image: no such file.');
    expect(warning.message).not.toContain('gone.png');
    expect((await h.log.waitFor('turn/completed')).turn.status).toBe('completed');
    const body = h.fake.requests[0]!.body;
    expect(JSON.stringify(body)).not.toContain('gone.png');
    expect(JSON.stringify(body.input.at(-1))).toContain('Tiller could not read the local image: no such file.');
  });

  it('converts an input once: a later request repeats it even after the file changed', async () => {
    h = await startHarness();
    const path = join(tempDir(), 'shot.png');
    writeFileSync(
      path,
      await sharp({ create: { width: 8, height: 4, channels: 3, background: '#f00' } })
        .png()
        .toBuffer(),
    );
    h.fake.enqueue({ text: 'first' }, { text: 'second' });
    await h.server.request('turn/start', { threadId: h.threadId, input: [{ type: 'localImage', path }, text('one')] });
    await h.log.waitFor('turn/completed');
    writeFileSync(path, 'not an image any more');
    await h.server.request('turn/start', { threadId: h.threadId, input: [text('two')] });
    await h.log.waitFor('turn/completed', (p) => p.turn.id !== h.log.of('turn/completed')[0]!.turn.id);
    const [first, second] = [userContents(h.fake.requests[0]!.body), userContents(h.fake.requests[1]!.body)];
    expect(first[0]).toContain('data:image/png;base64,');
    expect(second[0]).toBe(first[0]);
    expect(h.log.of('warning')).toHaveLength(0);
  });

  it('turn/mediaPreparation brackets the preparation when it outlasts the notice delay (0 here), never when it does not', async () => {
    h = await startHarness({ server: { mediaPreparationNoticeMs: 0 } });
    const path = join(tempDir(), 'shot.png');
    writeFileSync(
      path,
      await sharp({ create: { width: 8, height: 4, channels: 3, background: '#0f0' } })
        .png()
        .toBuffer(),
    );
    const { turn } = await h.server.request('turn/start', { threadId: h.threadId, input: [{ type: 'localImage', path }, text('one')] });
    await h.log.waitFor('turn/completed');
    const order = h.log.all
      .filter((n) => n.method === 'tiller/mediaPreparation' || (n.method === 'item/started' && n.params.item.type === 'userMessage'))
      .map((n) =>
        n.method === 'tiller/mediaPreparation' ? `${n.params.state}:${n.params.count}:${n.params.turnId === turn.id}` : 'userMessage',
      );
    expect(order).toEqual(['started:1:true', 'finished:1:true', 'userMessage']);
    await h.close();

    h = await startHarness({ server: { mediaPreparationNoticeMs: 60_000 } });
    await h.server.request('turn/start', { threadId: h.threadId, input: [{ type: 'localImage', path }, text('two')] });
    await h.log.waitFor('turn/completed');
    expect(h.log.of('tiller/mediaPreparation')).toHaveLength(0);
  });
});
