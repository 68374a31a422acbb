import { chmod, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { NO_DISPLAY, NO_IMAGE, readClipboardImage } from '../../../src/tui/media/clipboard.js';

let root: string;
let png: Buffer;
let bin: string;
let out: string;

/** A fake helper program: a shell script that logs its arguments and answers from a small script body. */
async function fakeProgram(name: string, body: string): Promise<void> {
  const file = path.join(bin, name);
  await writeFile(file, `#!/bin/sh\necho "$*" >> "${path.join(root, 'calls.log')}"\n${body}\n`);
  await chmod(file, 0o755);
}

const calls = async (): Promise<string[]> =>
  (await readFile(path.join(root, 'calls.log'), 'utf8').catch(() => '')).split('\n').filter(Boolean);

/** Only the fake bin directory on PATH, so real helpers installed on the machine never answer. */
const env = (extra: Record<string, string>): NodeJS.ProcessEnv => ({ PATH: bin, ...extra });

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'tiller-clip-'));
  png = await sharp({ create: { width: 30, height: 20, channels: 4, background: '#0af' } })
    .png()
    .toBuffer();
  await writeFile(path.join(root, 'clip.png'), png);
  await writeFile(path.join(root, 'clip.jpg'), await sharp(png).jpeg().toBuffer());
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

beforeEach(async () => {
  bin = path.join(root, `bin-${Math.random().toString(36).slice(2)}`);
  out = path.join(root, `out-${Math.random().toString(36).slice(2)}`);
  await mkdir(bin);
  await mkdir(out);
  await rm(path.join(root, 'calls.log'), { force: true });
});

const WL_PASTE_WITH_PNG = `
case "$1" in
  --list-types) printf 'text/plain\\nimage/png\\n' ;;
  *) exec /usr/bin/cat "${'${ROOT}'}/clip.png" ;;
esac`;

describe('readClipboardImage on Wayland', () => {
  it('lists the types, reads the PNG and writes it to a temporary file', async () => {
    await fakeProgram('wl-paste', WL_PASTE_WITH_PNG);
    const result = await readClipboardImage({ env: env({ WAYLAND_DISPLAY: 'wayland-0', ROOT: root }), platform: 'linux', tmpDir: out });
    if ('error' in result) throw new Error(result.error);
    expect(path.dirname(result.path)).toBe(out);
    expect(path.basename(result.path)).toMatch(/^tiller-clipboard-[0-9a-f]{8}\.png$/);
    expect(await readFile(result.path)).toEqual(png);
    expect(result.attachment).toEqual({
      kind: 'image',
      path: result.path,
      fileName: path.basename(result.path),
      bytes: png.length,
      width: 30,
      height: 20,
      mime: 'image/png',
    });
    expect(await calls()).toEqual(['--list-types', '--no-newline --type image/png']);
  });

  it('takes another image type when there is no PNG, naming the file by its format', async () => {
    await fakeProgram('wl-paste', `case "$1" in --list-types) printf 'image/jpeg\\n' ;; *) exec /usr/bin/cat "$ROOT/clip.jpg" ;; esac`);
    const result = await readClipboardImage({ env: env({ WAYLAND_DISPLAY: 'w', ROOT: root }), platform: 'linux', tmpDir: out });
    expect(result).toMatchObject({ attachment: { mime: 'image/jpeg', width: 30, height: 20 } });
    expect('path' in result && result.path.endsWith('.jpg')).toBe(true);
    expect(await calls()).toContain('--no-newline --type image/jpeg');
  });

  it('no image type on the clipboard → the no-image message and no file', async () => {
    await fakeProgram('wl-paste', `printf 'text/plain\\nUTF8_STRING\\n'`);
    expect(await readClipboardImage({ env: env({ WAYLAND_DISPLAY: 'w' }), platform: 'linux', tmpDir: out })).toEqual({
      error: NO_IMAGE,
    });
    expect(await readdir(out)).toEqual([]);
  });

  it('an empty clipboard (wl-paste exits non-zero) → the no-image message', async () => {
    await fakeProgram('wl-paste', `echo 'Nothing is copied' >&2; exit 1`);
    expect(await readClipboardImage({ env: env({ WAYLAND_DISPLAY: 'w' }), platform: 'linux', tmpDir: out })).toEqual({
      error: NO_IMAGE,
    });
  });

  it('bytes that are not an image → the no-image message', async () => {
    await fakeProgram('wl-paste', `case "$1" in --list-types) echo image/png ;; *) echo garbage ;; esac`);
    expect(await readClipboardImage({ env: env({ WAYLAND_DISPLAY: 'w' }), platform: 'linux', tmpDir: out })).toEqual({
      error: NO_IMAGE,
    });
    expect(await readdir(out)).toEqual([]);
  });

  it('another failure names the program and its first error line', async () => {
    await fakeProgram('wl-paste', `echo 'Failed to connect to a Wayland server' >&2; exit 1`);
    expect(await readClipboardImage({ env: env({ WAYLAND_DISPLAY: 'w' }), platform: 'linux', tmpDir: out })).toEqual({
      error: 'wl-paste failed: Failed to connect to a Wayland server',
    });
  });

  it('wl-paste missing → a message naming it and the package', async () => {
    expect(await readClipboardImage({ env: env({ WAYLAND_DISPLAY: 'w' }), platform: 'linux', tmpDir: out })).toEqual({
      error: 'wl-paste not found: install wl-clipboard',
    });
  });

  it('wl-paste missing but an X11 display and xclip present → xclip reads it', async () => {
    await fakeProgram('xclip', `case "$4" in TARGETS) echo image/png ;; *) exec /usr/bin/cat "$ROOT/clip.png" ;; esac`);
    const result = await readClipboardImage({
      env: env({ WAYLAND_DISPLAY: 'w', DISPLAY: ':0', ROOT: root }),
      platform: 'linux',
      tmpDir: out,
    });
    expect(result).toMatchObject({ attachment: { mime: 'image/png', width: 30, height: 20 } });
  });

  it('a helper that hangs is stopped after the timeout', async () => {
    await fakeProgram('wl-paste', 'exec /usr/bin/sleep 5');
    const result = await readClipboardImage({ env: env({ WAYLAND_DISPLAY: 'w' }), platform: 'linux', tmpDir: out, timeoutMs: 200 });
    expect(result).toEqual({ error: 'wl-paste did not answer within 200 ms.' });
  });
});

describe('readClipboardImage on X11', () => {
  it('asks xclip for TARGETS, then the PNG', async () => {
    await fakeProgram('xclip', `case "$4" in TARGETS) printf 'TARGETS\\nimage/png\\n' ;; *) exec /usr/bin/cat "$ROOT/clip.png" ;; esac`);
    const result = await readClipboardImage({ env: env({ DISPLAY: ':0', ROOT: root }), platform: 'linux', tmpDir: out });
    if ('error' in result) throw new Error(result.error);
    expect(await readFile(result.path)).toEqual(png);
    expect(await calls()).toEqual(['-selection clipboard -t TARGETS -o', '-selection clipboard -t image/png -o']);
  });

  it('no image target → the no-image message', async () => {
    await fakeProgram('xclip', `printf 'TARGETS\\nUTF8_STRING\\n'`);
    expect(await readClipboardImage({ env: env({ DISPLAY: ':0' }), platform: 'linux', tmpDir: out })).toEqual({ error: NO_IMAGE });
  });

  it('xclip missing → a message naming it and the package', async () => {
    expect(await readClipboardImage({ env: env({ DISPLAY: ':0' }), platform: 'linux', tmpDir: out })).toEqual({
      error: 'xclip not found: install xclip',
    });
  });
});

describe('readClipboardImage elsewhere', () => {
  it('an unwritable temporary directory gives its error instead of throwing', async () => {
    await fakeProgram('wl-paste', WL_PASTE_WITH_PNG);
    const result = await readClipboardImage({
      env: env({ WAYLAND_DISPLAY: 'w', ROOT: root }),
      platform: 'linux',
      tmpDir: path.join(out, 'missing-dir'),
    });
    expect(result).toEqual({ error: expect.stringContaining('ENOENT') });
  });

  it('no Wayland or X11 display → the no-clipboard message', async () => {
    expect(await readClipboardImage({ env: env({}), platform: 'linux', tmpDir: out })).toEqual({ error: NO_DISPLAY });
  });

  it('macOS: pngpaste writes the PNG to stdout', async () => {
    await fakeProgram('pngpaste', `exec /usr/bin/cat "$ROOT/clip.png"`);
    const result = await readClipboardImage({ env: env({ ROOT: root }), platform: 'darwin', tmpDir: out });
    expect(result).toMatchObject({ attachment: { mime: 'image/png', width: 30, height: 20 } });
    expect(await calls()).toEqual(['-']);
  });

  it('macOS without pngpaste: osascript writes the clipboard PNG to a file, which is then removed', async () => {
    // The fake osascript finds the target path in its first script line and copies the PNG there.
    await fakeProgram(
      'osascript',
      `target=$(printf '%s' "$2" | /usr/bin/sed -n 's/.*POSIX file "\\(.*\\)").*/\\1/p'); /usr/bin/cp "$ROOT/clip.png" "$target"`,
    );
    const result = await readClipboardImage({ env: env({ ROOT: root }), platform: 'darwin', tmpDir: out });
    if ('error' in result) throw new Error(result.error);
    expect(await readFile(result.path)).toEqual(png);
    expect((await readdir(out)).filter((f) => f.includes('osascript'))).toEqual([]);
    expect((await calls())[0]).toContain('«class PNGf»');
  });

  it('macOS: osascript failing to convert the clipboard → the no-image message', async () => {
    await fakeProgram('osascript', `echo "execution error: Can’t convert the clipboard to «class PNGf». (-1700)" >&2; exit 1`);
    expect(await readClipboardImage({ env: env({}), platform: 'darwin', tmpDir: out })).toEqual({ error: NO_IMAGE });
  });
});
