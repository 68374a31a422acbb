/**
 * /inspect end to end: the real `bin/tiller` in a pseudo-terminal. Typed at the end of a draft holding
 * a 5,000-character paste and a 3000×2000 image, it shows the request as it will be sent (the image
 * at 2048×1365) and leaves the draft as it was; Enter then sends the paste whole.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composerText, typeSlowly } from './helpers.js';
import { mediaSession, png, userContent } from './media-helpers.js';

let dir: string;
const media = mediaSession(() => dir);
const PASTE = 'z'.repeat(5000);
const DRAFT = 'look [Pasted Content 5000 chars][Image #1]';

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'tiller-e2e-inspect-'));
  await writeFile(path.join(dir, 'shot.png'), await png(3000, 2000));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('/inspect', () => {
  it('shows the real request over the screen and leaves the draft intact', async () => {
    const t = await media.start();
    await typeSlowly(t, 'look ');
    t.paste(PASTE);
    await t.waitFor('[Pasted Content 5000 chars]');
    t.paste(path.join(dir, 'shot.png'));
    await t.waitFor(/\[Image #1\] shot\.png · .* · 3000×2000/);
    await typeSlowly(t, '/ins');
    await t.waitFor('/inspect');
    t.press('enter');
    const report = await t.waitFor((screen) => screen.includes('2048×1365'), 15_000);
    expect(t.bufferType()).toBe('alternate');
    expect(report).toContain('Next request');
    expect(report).toMatch(/image {2}image\/png, 2048×1365, \d+ bytes, detail high/);
    expect(report).toContain(`text: ${'look '.length + 5000 + '[Image #1]'.length} of 1048576 characters`);
    t.write('q');
    const back = await t.waitFor((screen) => t.bufferType() === 'normal' && composerText(screen).trimEnd() === DRAFT);
    expect(back).toContain('[Image #1] shot.png');
    t.press('enter');
    const [request] = await media.server.waitForRequests(1, 15_000);
    const texts = userContent(request!)
      .filter((part) => part.type === 'input_text')
      .map((part) => part.text ?? '');
    expect(texts).toContain(`look ${PASTE}[Image #1]`);
    expect(userContent(request!).filter((part) => part.type === 'input_image')).toHaveLength(1);
  });
});
