/**
 * Images by paste, end to end: the real `bin/tiller` in a pseudo-terminal against the fake
 * Responses server. Paths are pasted with bracketed paste, as a terminal delivers drag-and-drop.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { typeSlowly } from './helpers.js';
import { decodeImage, developerTexts, mediaSession, pathWith, png, userContent, writeScript } from './media-helpers.js';

let dir: string;
const media = mediaSession(() => dir);

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'tiller-e2e-media-'));
  await writeFile(path.join(dir, 'wide.png'), await png(3000, 1500, '#3366cc'));
  await writeFile(path.join(dir, 'landscape.png'), await png(300, 200, '#cc3333'));
  await writeFile(path.join(dir, 'portrait.png'), await png(200, 300, '#33cc33'));
  await writeFile(path.join(dir, 'my shot.png'), await png(120, 80, '#999999'));
  await writeFile(path.join(dir, 'notes.txt'), 'just text');
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('attaching images by paste', () => {
  it('a pasted PNG path becomes [Image #1]; Enter sends it resized to fit 2048 with its aspect ratio', async () => {
    const t = await media.start();
    t.paste(path.join(dir, 'wide.png'));
    await t.waitFor(/\[Image #1\] wide\.png · [\d.]+ [KM]?B · 3000×1500/);
    await typeSlowly(t, 'what is this?');
    t.press('enter');
    const [request] = await media.server.waitForRequests(1, 15_000);
    const content = userContent(request!);
    const images = content.filter((part) => part.type === 'input_image');
    expect(images).toHaveLength(1);
    expect(images[0]!.detail).toBe('high');
    const decoded = await decodeImage(images[0]!.image_url!);
    expect(decoded.width).toBeLessThanOrEqual(2048);
    expect(decoded.height).toBeLessThanOrEqual(2048);
    expect(decoded.width / decoded.height).toBeCloseTo(3000 / 1500, 2);
    expect(decoded).toMatchObject({ width: 2048, height: 1024, format: 'png' });
    const texts = content.filter((part) => part.type === 'input_text').map((part) => part.text);
    expect(texts).toContain('<image name=[Image #1]>');
    expect(texts).toContain('</image>');
    expect(texts.some((text) => text?.includes('[Image #1]') && text.includes('what is this?'))).toBe(true);
    await t.waitFor('Seen.');
  });

  it('deleting the first of two images renumbers the second in place and in the request', async () => {
    const t = await media.start();
    t.paste(path.join(dir, 'landscape.png'));
    await t.waitFor('[Image #1]');
    t.paste(path.join(dir, 'portrait.png'));
    await t.waitFor('[Image #2]');
    // Home, then Right steps over the whole first placeholder; Backspace deletes it.
    t.press('home');
    t.press('right');
    t.press('backspace');
    await t.waitFor((screen) => !screen.includes('[Image #2]') && screen.includes('[Image #1] portrait.png'));
    t.press('enter');
    const [request] = await media.server.waitForRequests(1, 15_000);
    const content = userContent(request!);
    const images = content.filter((part) => part.type === 'input_image');
    expect(images).toHaveLength(1);
    expect(await decodeImage(images[0]!.image_url!)).toMatchObject({ width: 200, height: 300 });
    const texts = content.filter((part) => part.type === 'input_text').map((part) => part.text ?? '');
    expect(texts).toContain('<image name=[Image #1]>');
    expect(texts.join('\n')).not.toContain('[Image #2]');
  });

  it('a quoted path with spaces and a file:// URL both attach', async () => {
    const t = await media.start();
    t.paste(`"${path.join(dir, 'my shot.png')}"`);
    await t.waitFor('[Image #1] my shot.png');
    t.paste(pathToFileURL(path.join(dir, 'landscape.png')).href);
    await t.waitFor('[Image #2] landscape.png');
    t.press('enter');
    const [request] = await media.server.waitForRequests(1, 15_000);
    const images = userContent(request!).filter((part) => part.type === 'input_image');
    expect(await Promise.all(images.map((part) => decodeImage(part.image_url!)))).toMatchObject([
      { width: 120, height: 80 },
      { width: 300, height: 200 },
    ]);
  });

  it('a path to a text file is pasted as text', async () => {
    const t = await media.start();
    const file = path.join(dir, 'notes.txt');
    t.paste(file);
    await t.waitFor('notes.txt');
    expect(t.screen()).not.toContain('[Image #');
    t.press('enter');
    const [request] = await media.server.waitForRequests(1, 15_000);
    const content = userContent(request!);
    expect(content.some((part) => part.type === 'input_image')).toBe(false);
    expect(content.map((part) => part.text).join('\n')).toContain(file);
  });

  it('a file deleted before Enter: the path-free notice goes to the model and a warning to the screen', async () => {
    const file = path.join(dir, 'doomed.png');
    await writeFile(file, await png(50, 40, '#000000'));
    const t = await media.start();
    t.paste(file);
    await t.waitFor('[Image #1] doomed.png');
    await typeSlowly(t, 'still there?');
    await rm(file);
    t.press('enter');
    const [request] = await media.server.waitForRequests(1, 15_000);
    expect(userContent(request!).some((part) => part.type === 'input_image')).toBe(false);
    expect(developerTexts(request!)).toContain('Tiller could not read the local image: no such file.');
    expect(JSON.stringify(request!.body)).not.toContain(file);
    await t.waitFor(/could not read the local image/i);
    await t.waitFor('Seen.');
  });
});

describe('a model without image input', () => {
  it('refuses to send images: a warning, the draft kept, no request', async () => {
    const home = await mkdtemp(path.join(dir, 'home-'));
    await writeFile(path.join(home, 'config.toml'), 'model_supports_images = false\n');
    const t = await media.start({ env: { TILLER_HOME: home } });
    t.paste(path.join(dir, 'landscape.png'));
    await t.waitFor('[Image #1] landscape.png');
    await typeSlowly(t, 'look');
    t.press('enter');
    // The warning and the restored draft are two renders: wait for both.
    const screen = await t.waitFor((s) => s.includes('does not support image input') && s.includes('[Image #1] look'));
    expect(screen).toContain('⚠ The current model does not support image input');
    expect(media.server.requests).toHaveLength(0);
  });
});

describe('pasting an image from the clipboard', () => {
  let bin: string;

  beforeEach(async () => {
    bin = await mkdtemp(path.join(dir, 'bin-'));
  });

  it('Ctrl+V and Alt+V with wl-paste on a Wayland display attach the clipboard PNG', async () => {
    const clip = path.join(dir, 'clip.png');
    await writeFile(clip, await png(64, 32, '#ff8800'));
    const wlPaste = path.join(bin, 'wl-paste');
    await writeScript(wlPaste, `case "$1" in --list-types) printf 'image/png\\ntext/plain\\n' ;; *) exec /usr/bin/cat "${clip}" ;; esac`);
    const t = await media.start({ env: { PATH: pathWith(bin), WAYLAND_DISPLAY: 'wayland-0' } });
    t.press('ctrl-v');
    await t.waitFor(/\[Image #1\] tiller-clipboard-[0-9a-f]+\.png · [\d.]+ [KM]?B · 64×32/);
    // Alt+V does the same (ESC prefix, as terminals send Alt).
    t.write('\x1bv');
    await t.waitFor(/\[Image #2\] tiller-clipboard-[0-9a-f]+\.png/);
    t.press('enter');
    const [request] = await media.server.waitForRequests(1, 15_000);
    const images = userContent(request!).filter((part) => part.type === 'input_image');
    expect(images).toHaveLength(2);
    for (const image of images) expect(await decodeImage(image.image_url!)).toMatchObject({ width: 64, height: 32 });
  });

  it('Ctrl+V without wl-paste installed names the program and its package; the draft is untouched', async () => {
    const t = await media.start({ env: { PATH: bin, WAYLAND_DISPLAY: 'wayland-0', DISPLAY: undefined } });
    await typeSlowly(t, 'keep me');
    t.press('ctrl-v');
    await t.waitFor('wl-paste not found: install wl-clipboard');
    expect(t.screen()).toContain('keep me');
    expect(t.screen()).not.toContain('[Image #');
    expect(media.server.requests).toHaveLength(0);
  });
});
