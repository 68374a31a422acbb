/**
 * Media cases media.test.ts leaves out, through the real bin against the fake Responses server:
 * the other path forms (relative, `~/`, shell-escaped spaces), a path typed as a fast burst without
 * bracketed paste, a directory pasted as text, an audio path, and the clipboard through xclip on X11.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASTE_ENTER_SUPPRESS_WINDOW } from '../../src/tui/composer/paste-burst.js';
import type { RecordedRequest } from '../support/fake-responses-server.js';
import { composerText, typeSlowly } from './helpers.js';
import { decodeImage, developerTexts, mediaSession, pathWith, png, userContent, writeScript } from './media-helpers.js';

let dir: string;
let home: string;
const media = mediaSession(
  () => dir,
  () => ({ HOME: home }),
);

/** A 16-bit mono WAV with a few silent samples: a real, playable file. */
function wav(): Buffer {
  const samples = Buffer.alloc(200);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + samples.length, 4);
  header.write('WAVEfmt ', 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(8000, 24);
  header.writeUInt32LE(16000, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(samples.length, 40);
  return Buffer.concat([header, samples]);
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'tiller-media-paths-'));
  home = path.join(dir, 'home');
  await mkdir(path.join(dir, 'pics', 'sub dir'), { recursive: true });
  await mkdir(home);
  await writeFile(path.join(dir, 'pics', 'rel.png'), await png(30, 20));
  await writeFile(path.join(dir, 'pics', 'sub dir', 'spaced name.png'), await png(20, 30));
  await writeFile(path.join(home, 'in-home.png'), await png(40, 10));
  await writeFile(path.join(dir, 'voice.wav'), wav());
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function imageSizes(request: RecordedRequest): Promise<Array<{ width: number; height: number }>> {
  const images = userContent(request).filter((part) => part.type === 'input_image');
  return Promise.all(
    images.map(async (part) => {
      const { width, height } = await decodeImage(part.image_url!);
      return { width, height };
    }),
  );
}

describe('more ways to paste a path', { timeout: 60_000 }, () => {
  it('a relative path, a `~/` path and a shell-escaped path with spaces each attach, in order', async () => {
    const t = await media.start();
    t.paste('pics/rel.png');
    await t.waitFor('[Image #1] rel.png · ');
    t.paste('~/in-home.png');
    await t.waitFor('[Image #2] in-home.png · ');
    t.paste(`${path.join(dir, 'pics', 'sub\\ dir', 'spaced\\ name.png')}`);
    await t.waitFor('[Image #3] spaced name.png · ');
    expect(composerText(t.screen())).toBe('[Image #1] [Image #2] [Image #3]');
    t.press('enter');
    const [request] = await media.server.waitForRequests(1, 15_000);
    expect(await imageSizes(request!)).toEqual([
      { width: 30, height: 20 },
      { width: 40, height: 10 },
      { width: 20, height: 30 },
    ]);
  });

  it('a path pasted without bracketed paste (one burst of keys) attaches like a bracketed paste', async () => {
    const t = await media.start();
    // Tiller loads its runtime just after the first frame; bytes arriving across that pause would
    // be read as two bursts, so the "paste" comes once start-up is over, as a person's would.
    await t.idle();
    // A terminal without bracketed paste delivers the pasted bytes together, as typed keys.
    t.write(path.join(dir, 'pics', 'rel.png'));
    await t.waitFor('[Image #1] rel.png · ');
    // An Enter within 120 ms of a burst is part of the paste (a newline); a person's comes later.
    await new Promise((resolve) => setTimeout(resolve, PASTE_ENTER_SUPPRESS_WINDOW));
    t.press('enter');
    const [request] = await media.server.waitForRequests(1, 15_000);
    expect(await imageSizes(request!)).toEqual([{ width: 30, height: 20 }]);
  });

  it('a directory is pasted as text', async () => {
    const t = await media.start();
    const pics = path.join(dir, 'pics');
    t.paste(pics);
    await t.waitFor((screen) => composerText(screen) === pics);
    expect(t.screen()).not.toContain('[Image #');
    t.press('enter');
    const [request] = await media.server.waitForRequests(1, 15_000);
    expect(userContent(request!).map((part) => part.type)).toEqual(['input_text']);
    expect(userContent(request!)[0]!.text).toBe(pics);
  });

  it('an audio path becomes [Audio #1] and is sent as input_audio', async () => {
    const t = await media.start();
    t.paste(path.join(dir, 'voice.wav'));
    await t.waitFor(/\[Audio #1\] voice\.wav · 244 B$/m);
    t.press('enter');
    const [request] = await media.server.waitForRequests(1, 15_000);
    const audio = userContent(request!).filter((part) => part.type === 'input_audio');
    expect(audio).toHaveLength(1);
    expect(audio[0]!.audio_url).toBe(`data:audio/wav;base64,${wav().toString('base64')}`);
  });
});

describe('clipboard images through xclip', { timeout: 60_000 }, () => {
  it('Ctrl+V on an X11 display without Wayland asks xclip for the targets, then the PNG', async () => {
    const bin = await mkdtemp(path.join(dir, 'bin-'));
    const clip = path.join(dir, 'x11-clip.png');
    await writeFile(clip, await png(48, 24));
    const log = path.join(dir, 'xclip.log');
    const xclip = path.join(bin, 'xclip');
    await writeScript(
      xclip,
      `echo "$*" >> "${log}"\ncase "$*" in *TARGETS*) printf 'TARGETS\\nimage/png\\nUTF8_STRING\\n' ;; *image/png*) exec /usr/bin/cat "${clip}" ;; *) exit 1 ;; esac`,
    );
    const t = await media.start({ env: { PATH: pathWith(bin), DISPLAY: ':0', WAYLAND_DISPLAY: undefined } });
    t.press('ctrl-v');
    await t.waitFor(/\[Image #1\] tiller-clipboard-[0-9a-f]+\.png · [\d.]+ [KM]?B · 48×24/);
    t.press('enter');
    const [request] = await media.server.waitForRequests(1, 15_000);
    expect(await imageSizes(request!)).toEqual([{ width: 48, height: 24 }]);
    expect((await readFile(log, 'utf8')).trim().split('\n')).toEqual([
      '-selection clipboard -t TARGETS -o',
      '-selection clipboard -t image/png -o',
    ]);
  });

  it('Ctrl+V on X11 without xclip names the program and its package', async () => {
    const empty = await mkdtemp(path.join(dir, 'nobin-'));
    const t = await media.start({ env: { PATH: empty, DISPLAY: ':0', WAYLAND_DISPLAY: undefined } });
    t.press('ctrl-v');
    await t.waitFor('xclip not found: install xclip');
    expect(t.screen()).not.toContain('[Image #');
  });
});

describe('a file changed into garbage between attach and send', { timeout: 60_000 }, () => {
  it('the path-free invalid-image notice goes to the model, a warning to the screen, and the turn runs', async () => {
    const file = path.join(dir, 'spoiled.png');
    const good = await png(60, 40);
    await writeFile(file, good);
    const t = await media.start();
    t.paste(file);
    await t.waitFor('[Image #1] spoiled.png');
    // Still a PNG header, but the image data is cut off: it cannot be decoded.
    await writeFile(file, good.subarray(0, 40));
    await typeSlowly(t, 'x');
    t.press('enter');
    const [request] = await media.server.waitForRequests(1, 15_000);
    expect(developerTexts(request!)).toContain('Tiller cannot attach the local image because it is not a valid image.');
    expect(userContent(request!).some((part) => part.type === 'input_image')).toBe(false);
    expect(JSON.stringify(request!.body)).not.toContain(file);
    await t.waitFor('⚠ Tiller cannot attach the local image because it is not a valid image.');
    await t.waitFor('Seen.');
  });
});
