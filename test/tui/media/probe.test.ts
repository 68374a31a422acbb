import { mkdir, mkdtemp, open, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMediaProbe, isWsl } from '../../../src/tui/media/probe.js';

let dir: string;
let probe: ReturnType<typeof createMediaProbe>;

const image = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 40 } } });

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'tiller-probe-'));
  probe = createMediaProbe({ cwd: dir, home: path.join(dir, 'home') });
  await mkdir(path.join(dir, 'home'));
  await mkdir(path.join(dir, 'folder.png'));
  await writeFile(path.join(dir, 'shot.png'), await image(40, 30).png().toBuffer());
  await writeFile(path.join(dir, 'my shot.png'), await image(8, 6).png().toBuffer());
  await writeFile(path.join(dir, 'home', 'photo.jpg'), await image(64, 48).jpeg().toBuffer());
  await writeFile(path.join(dir, 'anim.gif'), await image(5, 7).gif().toBuffer());
  await writeFile(path.join(dir, 'pic.webp'), await image(33, 17).webp().toBuffer());
  await writeFile(path.join(dir, 'voice.mp3'), 'not really mpeg, audio is accepted by extension');
  await writeFile(path.join(dir, 'LOUD.WAV'), 'RIFF');
  await writeFile(path.join(dir, 'notes.txt'), 'hello');
  await writeFile(path.join(dir, 'fake.png'), 'this is not a png');
  await writeFile(path.join(dir, 'sound.flac'), 'fLaC');
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('createMediaProbe', () => {
  it('recognises a PNG by its header and reports its size', () => {
    const file = path.join(dir, 'shot.png');
    expect(probe(file)).toEqual({
      kind: 'image',
      path: file,
      fileName: 'shot.png',
      bytes: expect.any(Number),
      width: 40,
      height: 30,
      mime: 'image/png',
    });
  });

  it('recognises JPEG, GIF and WebP', () => {
    expect(probe('~/photo.jpg')).toMatchObject({ kind: 'image', mime: 'image/jpeg', width: 64, height: 48, fileName: 'photo.jpg' });
    expect(probe('anim.gif')).toMatchObject({ kind: 'image', mime: 'image/gif', width: 5, height: 7 });
    expect(probe('pic.webp')).toMatchObject({ kind: 'image', mime: 'image/webp', width: 33, height: 17 });
  });

  it('reports the file size in bytes', async () => {
    const { size } = await stat(path.join(dir, 'shot.png'));
    expect(size).toBeGreaterThan(0);
    expect(probe('shot.png')?.bytes).toBe(size);
  });

  it('accepts quoted paths with spaces, shell-escaped spaces and file:// URLs', () => {
    const file = path.join(dir, 'my shot.png');
    expect(probe(`"${file}"`)?.path).toBe(file);
    expect(probe(file.replace(/ /g, '\\ '))?.path).toBe(file);
    expect(probe(pathToFileURL(file).href)?.path).toBe(file);
  });

  it('accepts audio by extension, case-insensitively, without pixel size', () => {
    expect(probe('voice.mp3')).toMatchObject({ kind: 'audio', mime: 'audio/mpeg', width: null, height: null, fileName: 'voice.mp3' });
    expect(probe('LOUD.WAV')).toMatchObject({ kind: 'audio', mime: 'audio/wav' });
  });

  it('gives null for text files, unsupported audio, and files whose header is not an image', () => {
    expect(probe('notes.txt')).toBeNull();
    expect(probe('sound.flac')).toBeNull();
    expect(probe('fake.png')).toBeNull();
  });

  it('gives null for directories, missing files and text that is not one path', () => {
    expect(probe('folder.png')).toBeNull();
    expect(probe('missing.png')).toBeNull();
    expect(probe('shot.png and more words')).toBeNull();
    expect(probe('')).toBeNull();
  });

  it('reads only the header of a huge file (a sparse 3 GiB PNG could not be read whole)', async () => {
    const file = path.join(dir, 'huge.png');
    // The header of a 4000×3000 PNG (IHDR width and height at bytes 16 and 20), then 3 GiB of holes.
    const header = Buffer.from((await image(1, 1).png().toBuffer()).subarray(0, 33));
    header.writeUInt32BE(4000, 16);
    header.writeUInt32BE(3000, 20);
    await writeFile(file, header);
    const handle = await open(file, 'r+');
    await handle.truncate(3 * 1024 * 1024 * 1024);
    await handle.close();
    expect(probe(file)).toMatchObject({ kind: 'image', width: 4000, height: 3000, bytes: 3 * 1024 * 1024 * 1024 });
  });

  it('finds a JPEG frame header behind more than 64 KiB of metadata', async () => {
    const jpeg = await image(20, 10).jpeg().toBuffer();
    // Two 60 KB comment segments (FF FE, length incl. itself) right after the start-of-image marker.
    const comment = Buffer.alloc(60_000 + 4, 0x20);
    comment.writeUInt16BE(0xfffe, 0);
    comment.writeUInt16BE(60_000 + 2, 2);
    const file = path.join(dir, 'big-exif.jpg');
    await writeFile(file, Buffer.concat([jpeg.subarray(0, 2), comment, comment, jpeg.subarray(2)]));
    expect(probe(file)).toMatchObject({ kind: 'image', mime: 'image/jpeg', width: 20, height: 10 });
  });
});

describe('isWsl', () => {
  it('recognises WSL by the variables it sets', () => {
    expect(isWsl({ WSL_DISTRO_NAME: 'Ubuntu' })).toBe(true);
    expect(isWsl({ WSL_INTEROP: '/run/WSL/1_interop' })).toBe(true);
    expect(isWsl({})).toBe(false);
  });
});
