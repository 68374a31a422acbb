/**
 * The chat wire carries a user's image end to end: the real `tiller exec -i` against the fake Chat
 * Completions server sends it as an `image_url` data URL part beside the prompt, and a resume on the
 * same wire sends it again from the rollout. (chat-exec.test.ts pins tools, apply_patch and reasoning.)
 */
import { realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeChatServer } from '../../support/fake-chat-server.js';
import { tempDir } from '../support/config.js';
import { childEnv, spawnTiller } from '../support/spawn.js';

let fake: FakeChatServer;
beforeEach(async () => {
  fake = await FakeChatServer.start();
});
afterEach(async () => {
  await fake.close();
});

async function exec(args: string[], env: NodeJS.ProcessEnv, cwd: string) {
  const child = spawnTiller(['exec', '--json', '--skip-git-repo-check', ...args], env, cwd);
  return { code: await child.exit, stderr: child.stderr() };
}

type Part = { type: string; text?: string; image_url?: { url: string } };

describe('an image on the chat wire', () => {
  it('goes as an image_url data URL beside the prompt, and again on resume', async () => {
    const ws = realpathSync(tempDir('tiller-chat-image-'));
    const env = childEnv();
    writeFileSync(
      join(env.TILLER_HOME!, 'config.toml'),
      `model_provider = "local"\n[model_providers.local]\nname = "Local"\nbase_url = "${fake.baseUrl}"\nwire_api = "chat"\n`,
    );
    const image = join(ws, 'red.png');
    writeFileSync(
      image,
      await sharp({ create: { width: 8, height: 8, channels: 3, background: '#f00' } })
        .png()
        .toBuffer(),
    );
    fake.enqueue({ text: 'A red square.' });
    const first = await exec(['-m', 'gpt-5.5', '-i', image, 'what is this?'], env, ws);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    const imageParts = (messages: Array<{ role: string; content: unknown }>): Part[] =>
      messages
        .filter((m) => m.role === 'user' && Array.isArray(m.content))
        .flatMap((m) => m.content as Part[])
        .filter((p) => p.type === 'image_url');
    const sentFirst = imageParts(fake.requests[0]!.body.messages);
    expect(sentFirst).toHaveLength(1);
    expect(sentFirst[0]!.image_url!.url).toMatch(/^data:image\/png;base64,/);
    // The path stays on this machine: only the pixels are sent.
    expect(JSON.stringify(fake.requests[0]!.body)).not.toContain(image);

    fake.enqueue({ text: 'Still red.' });
    const resumed = await exec(['resume', '--last', 'and now?'], env, ws);
    expect(resumed.code).toBe(0);
    expect(imageParts(fake.requests[1]!.body.messages).map((p) => p.image_url!.url)).toEqual([sentFirst[0]!.image_url!.url]);
  });
});
