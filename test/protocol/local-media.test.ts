import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, truncateSync, writeFileSync, mkdirSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { promises as fsp } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import {
  DEFAULT_IMAGE_CACHE_LIMITS,
  LocalMediaError,
  MAX_IMAGE_INPUT_PIXELS,
  MAX_PROMPT_AUDIO_INPUT_BYTES,
  MAX_PROMPT_IMAGE_INPUT_BYTES,
  clearImageCache,
  fitWithin,
  imageCacheSize,
  nodeLocalMediaIo,
  prepareImageBytes,
  prepareLocalImage,
  readBoundedLocalMedia,
  setImageCacheLimits,
  snapshotLocalUserInput,
  type LocalMediaIo,
} from '../../src/protocol/local-media.js';
import type { ImageDetail, UserInput } from '../../src/protocol/user-input.js';

/** A valid 1×1 PNG. */
export const ONE_PIXEL_PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

const execFileAsync = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'tiller-media-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeEach(() => clearImageCache());

function file(name: string, bytes: Uint8Array | string): string {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
}

/** An io that records every open, to prove a refused file was never opened. */
function spyIo(): LocalMediaIo & { opened: string[] } {
  const opened: string[] = [];
  return {
    opened,
    stat: nodeLocalMediaIo.stat,
    open: (path) => {
      opened.push(path);
      return nodeLocalMediaIo.open(path);
    },
  };
}

// Noise keeps encoders honest on small images; large ones use a flat colour so tests stay fast.
const noisy = (width: number, height: number) =>
  width * height > 1_000_000
    ? sharp({ create: { width, height, channels: 3, background: { r: 200, g: 100, b: 50 } } })
    : sharp({ create: { width, height, channels: 3, background: '#000', noise: { type: 'gaussian', mean: 128, sigma: 40 } } });

describe('snapshotLocalUserInput: images', () => {
  it('turns a 1×1 PNG into the exact data URL, keeping each requested detail', async () => {
    const path = file('one.png', Buffer.from(ONE_PIXEL_PNG_BASE64, 'base64'));
    const details: Array<ImageDetail | undefined> = [undefined, 'auto', 'low', 'high', 'original'];
    for (const detail of details) {
      const input: UserInput = detail === undefined ? { type: 'local_image', path } : { type: 'local_image', path, detail };
      const result = await snapshotLocalUserInput(input);
      const expected: UserInput = { type: 'image', image_url: `data:image/png;base64,${ONE_PIXEL_PNG_BASE64}` };
      if (detail !== undefined) expected.detail = detail;
      expect(result).toEqual({ ok: true, input: expected });
    }
  });

  it('leaves the input unchanged for an invalid PNG (kind Other)', async () => {
    const path = file('broken.png', Buffer.concat([Buffer.from(ONE_PIXEL_PNG_BASE64, 'base64').subarray(0, 8), Buffer.from('garbage')]));
    const input: UserInput = { type: 'local_image', path, detail: 'low' };
    const before = structuredClone(input);
    const result = await snapshotLocalUserInput(input);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error.kind).toBe('Other');
    expect(!result.ok && result.error.failure).toBe('invalid');
    expect(input).toEqual(before);
  });

  it('calls bytes of no known format unsupported', async () => {
    const result = await snapshotLocalUserInput({ type: 'local_image', path: file('notes.png', 'just some text') });
    expect(!result.ok && result.error.failure).toBe('unsupported');
  });

  it('calls a PNG with a truncated body invalid, though its header is fine', async () => {
    const png = await noisy(64, 64).png().toBuffer();
    const result = await snapshotLocalUserInput({ type: 'local_image', path: file('cut.png', png.subarray(0, png.length / 2)) });
    expect(!result.ok && result.error.failure).toBe('invalid');
  });

  it('refuses a missing file with NotFound and no notice of its path', async () => {
    const path = join(dir, 'missing.png');
    const result = await snapshotLocalUserInput({ type: 'local_image', path });
    expect(!result.ok && result.error.kind).toBe('NotFound');
    expect(!result.ok && result.error.failure).toBe('unreadable');
    expect(!result.ok && result.error.reason).toBe('no such file');
  });
});

describe('snapshotLocalUserInput: audio', () => {
  it('maps each supported extension to its MIME, case-insensitively', async () => {
    const cases: Array<[string, string]> = [
      ['a.wav', 'audio/wav'],
      ['a.mp3', 'audio/mpeg'],
      ['b.MP3', 'audio/mpeg'],
      ['a.m4a', 'audio/mp4'],
      ['a.webm', 'audio/webm'],
      ['a.ogg', 'audio/ogg'],
    ];
    for (const [name, mime] of cases) {
      const result = await snapshotLocalUserInput({ type: 'local_audio', path: file(name, 'audio') });
      expect(result).toEqual({ ok: true, input: { type: 'audio', audio_url: `data:${mime};base64,YXVkaW8=` } });
    }
  });

  it('refuses .flac with InvalidData before opening it, input unchanged', async () => {
    const io = spyIo();
    const input: UserInput = { type: 'local_audio', path: file('a.flac', 'audio') };
    const before = structuredClone(input);
    const result = await snapshotLocalUserInput(input, { io });
    expect(!result.ok && result.error.kind).toBe('InvalidData');
    expect(!result.ok && result.error.message).toBe('unsupported audio format');
    expect(input).toEqual(before);
    expect(io.opened).toEqual([]);
  });

  it('passes other variants through untouched', async () => {
    const inputs: UserInput[] = [
      { type: 'text', text: 'x', text_elements: [] },
      { type: 'image', image_url: 'https://e/x.png' },
      { type: 'mention', name: 'm', path: 'mcp://m' },
    ];
    for (const input of inputs) expect(await snapshotLocalUserInput(input)).toEqual({ ok: true, input });
  });
});

describe('bounded reads', () => {
  it('refuses a directory with InvalidInput without opening it', async () => {
    const sub = join(dir, 'folder.png');
    mkdirSync(sub);
    const io = spyIo();
    const image = await snapshotLocalUserInput({ type: 'local_image', path: sub }, { io });
    expect(!image.ok && image.error.kind).toBe('InvalidInput');
    expect(!image.ok && image.error.message).toBe('image input path is not a regular file');
    const audioDir = join(dir, 'folder.wav');
    mkdirSync(audioDir);
    const audio = await snapshotLocalUserInput({ type: 'local_audio', path: audioDir }, { io });
    expect(!audio.ok && audio.error.message).toBe('audio input path is not a regular file');
    expect(io.opened).toEqual([]);
  });

  it('refuses a sparse audio file of limit+1 bytes without opening it', async () => {
    const path = file('huge.wav', '');
    truncateSync(path, MAX_PROMPT_AUDIO_INPUT_BYTES + 1);
    const io = spyIo();
    const result = await snapshotLocalUserInput({ type: 'local_audio', path }, { io });
    expect(!result.ok && result.error.kind).toBe('InvalidData');
    expect(!result.ok && result.error.message).toBe(`audio input exceeds ${MAX_PROMPT_AUDIO_INPUT_BYTES} bytes`);
    expect(io.opened).toEqual([]);
  });

  it('refuses a sparse image file of limit+1 bytes without opening it', async () => {
    const path = file('huge.png', '');
    truncateSync(path, MAX_PROMPT_IMAGE_INPUT_BYTES + 1);
    const io = spyIo();
    const result = await snapshotLocalUserInput({ type: 'local_image', path }, { io });
    expect(!result.ok && result.error.message).toBe('image input exceeds 1073741824 bytes');
    expect(io.opened).toEqual([]);
  });

  it('refuses a 1 GiB file that is no image by its first bytes, reading nothing more', async () => {
    const path = file('disk.png', '');
    truncateSync(path, MAX_PROMPT_IMAGE_INPUT_BYTES);
    let bytesRead = 0;
    const counting: LocalMediaIo = {
      stat: nodeLocalMediaIo.stat,
      open: async (opened) => {
        const handle = await nodeLocalMediaIo.open(opened);
        const read = handle.read.bind(handle) as (...args: unknown[]) => Promise<{ bytesRead: number }>;
        (handle as unknown as { read: (...args: unknown[]) => Promise<{ bytesRead: number }> }).read = async (...args) => {
          const result = await read(...args);
          bytesRead += result.bytesRead;
          return result;
        };
        return handle;
      },
    };
    await expect(readBoundedLocalMedia(path, 'image', { io: counting })).rejects.toMatchObject({
      failure: 'unsupported',
      message: 'unsupported image format',
    });
    expect(bytesRead).toBe(32);
    // Audio has no such check: its format comes from the name.
    expect((await readBoundedLocalMedia(file('tone.wav', 'RIFFdata'), 'audio')).toString()).toBe('RIFFdata');
  });

  it('accepts exactly the limit and refuses one more byte (injected limit)', async () => {
    const path = file('ten.wav', '0123456789');
    expect((await readBoundedLocalMedia(path, 'audio', { maxBytes: 10 })).toString()).toBe('0123456789');
    await expect(readBoundedLocalMedia(path, 'audio', { maxBytes: 9 })).rejects.toMatchObject({
      kind: 'InvalidData',
      message: 'audio input exceeds 9 bytes',
    });
  });

  it('stops at limit+1 bytes when the file grew after the size check', async () => {
    const path = file('grown.wav', 'x'.repeat(100_000));
    const lying: LocalMediaIo = { stat: async () => ({ isFile: () => true, size: 5 }), open: nodeLocalMediaIo.open };
    const error = await readBoundedLocalMedia(path, 'audio', { maxBytes: 10, io: lying }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LocalMediaError);
    expect((error as LocalMediaError).message).toBe('audio input exceeds 10 bytes');
    // and reads to the end when it grew but stays within the limit
    const small = file('grown-ok.wav', 'abcdefgh');
    expect((await readBoundedLocalMedia(small, 'audio', { maxBytes: 10, io: lying })).toString()).toBe('abcdefgh');
  });

  it('reads a file larger than one chunk completely', async () => {
    const big = Buffer.alloc(300_000, 7);
    const path = file('big.ogg', big);
    expect((await readBoundedLocalMedia(path, 'audio')).equals(big)).toBe(true);
    expect(await fsp.stat(path).then((s) => s.size)).toBe(300_000);
  });
});

describe('image decoding is bounded', () => {
  /** A PNG whose header says width×height; its body is not there (it must not be decoded). */
  function pngHeader(width: number, height: number): Buffer {
    const ihdr = Buffer.alloc(25);
    ihdr.writeUInt32BE(13, 0);
    ihdr.write('IHDR', 4, 'latin1');
    ihdr.writeUInt32BE(width, 8);
    ihdr.writeUInt32BE(height, 12);
    ihdr.set([8, 2, 0, 0, 0], 16);
    return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), ihdr]);
  }

  it('refuses more pixels than the limit from the header, before decoding, saying how many', async () => {
    expect(MAX_IMAGE_INPUT_PIXELS).toBe(33_554_432);
    // Bytes enough after the header to hold that many pixels (one per 65,536 pixels).
    const body = Buffer.alloc(8192);
    for (const mode of ['original', 'resizeToFit'] as const) {
      await expect(prepareImageBytes(Buffer.concat([pngHeader(16000, 16000), body]), mode)).rejects.toMatchObject({
        failure: 'tooLarge',
        message: 'image input is 16000×16000 pixels, more than 33554432',
        reason: '16000×16000 pixels, the limit is 33,554,432 pixels',
      });
      // The header alone cannot be that image: not a valid one.
      await expect(prepareImageBytes(pngHeader(16000, 16000), mode)).rejects.toMatchObject({ failure: 'invalid' });
    }
    const result = await snapshotLocalUserInput({
      type: 'local_image',
      path: file('wide.png', Buffer.concat([pngHeader(33_555, 1000), body])),
      detail: 'original',
    });
    expect(!result.ok && result.error.message).toBe('image input is 33555×1000 pixels, more than 33554432');
  });

  it('refuses too many pixels in a format whose header is not read here (TIFF), from its metadata', async () => {
    const tiff = await sharp({ create: { width: 8192, height: 4097, channels: 3, background: '#000' } })
      .tiff({ compression: 'lzw' })
      .toBuffer();
    await expect(prepareImageBytes(tiff, 'resizeToFit')).rejects.toMatchObject({
      message: 'image input is 8192×4097 pixels, more than 33554432',
    });
  });

  it('an image just under the limit, in each mode and in the formats decoded whole (GIF, WebP), peaks under 300 MiB', async () => {
    // 5792² is the largest square under the limit.
    const base = () => sharp({ create: { width: 5792, height: 5792, channels: 3, background: { r: 10, g: 200, b: 90 } } });
    const images = {
      gif: file('under.gif', await base().gif().toBuffer()),
      webp: file('under.webp', await base().webp({ quality: 50, effort: 0 }).toBuffer()),
    };
    // Prepared in a process of its own, so its peak is the preparation's (and Node's own, about 50 MiB).
    const script = join(dir, 'peak.mts');
    writeFileSync(
      script,
      [
        `import { readFileSync } from 'node:fs';`,
        `import { prepareImageBytes } from ${JSON.stringify(pathToFileURL(join(process.cwd(), 'src/protocol/local-media.ts')).href)};`,
        `const prepared = await prepareImageBytes(readFileSync(process.argv[2]), process.argv[3]);`,
        `console.log(JSON.stringify({ width: prepared.width, peak: process.resourceUsage().maxRSS * 1024 }));`,
      ].join('\n'),
    );
    for (const [format, mode, width] of [
      ['gif', 'resizeToFit', 2048],
      ['gif', 'original', 5792],
      ['webp', 'resizeToFit', 2048],
      ['webp', 'original', 5792],
    ] as const) {
      const { stdout } = await execFileAsync(process.execPath, ['--import', 'tsx', script, images[format], mode], { cwd: process.cwd() });
      const { width: got, peak } = JSON.parse(stdout) as { width: number; peak: number };
      expect(got).toBe(width);
      expect(peak).toBeLessThan(300 * 1024 * 1024);
    }
  }, 60_000);
});

describe('image preparation', () => {
  it('fits within 2048×2048 keeping the aspect ratio', () => {
    expect(fitWithin(4000, 3000)).toEqual({ width: 2048, height: 1536 });
    expect(fitWithin(3000, 4000)).toEqual({ width: 1536, height: 2048 });
    expect(fitWithin(2048, 2048)).toEqual({ width: 2048, height: 2048 });
    expect(fitWithin(10000, 3)).toEqual({ width: 2048, height: 1 });
  });

  it('resizes a 4000×3000 PNG to 2048×1536 PNG', async () => {
    const png = await noisy(4000, 3000).png({ compressionLevel: 1 }).toBuffer();
    const out = await prepareImageBytes(png, 'resizeToFit');
    expect(out).toMatchObject({ mime: 'image/png', width: 2048, height: 1536 });
    expect(await sharp(out.data).metadata()).toMatchObject({ format: 'png', width: 2048, height: 1536 });
  });

  it('resizes a large JPEG as JPEG and a large WebP as lossless WebP', async () => {
    const jpeg = await noisy(3000, 1000).jpeg().toBuffer();
    const j = await prepareImageBytes(jpeg, 'resizeToFit');
    expect(j).toMatchObject({ mime: 'image/jpeg', width: 2048, height: 683 });
    const webp = await noisy(2100, 100).webp().toBuffer();
    const w = await prepareImageBytes(webp, 'resizeToFit');
    expect(w).toMatchObject({ mime: 'image/webp', width: 2048, height: 98 });
    expect(w.data.includes(Buffer.from('VP8L'))).toBe(true); // lossless bitstream
  });

  it('re-encodes a resized JPEG at quality 85 (its quantisation tables are those of a q85 encode)', async () => {
    const jpeg = await noisy(3000, 1000).jpeg({ quality: 50 }).toBuffer();
    const out = await prepareImageBytes(jpeg, 'resizeToFit');
    expect(out.mime).toBe('image/jpeg');
    const tablesAt = async (quality: number) =>
      quantisationTables(
        await sharp({ create: { width: 8, height: 8, channels: 3, background: '#123' } })
          .jpeg({ quality })
          .toBuffer(),
      );
    expect(quantisationTables(out.data)).toEqual(await tablesAt(85));
    expect(quantisationTables(out.data)).not.toEqual(await tablesAt(84));
    expect(quantisationTables(out.data)).not.toEqual(await tablesAt(86));
  });

  it('passes PNG, JPEG and WebP that need no resize through byte for byte', async () => {
    for (const bytes of [
      await noisy(300, 200).png().toBuffer(),
      await noisy(2048, 10).jpeg().toBuffer(),
      await noisy(50, 60).webp().toBuffer(),
    ]) {
      const out = await prepareImageBytes(bytes, 'resizeToFit');
      expect(out.data.equals(bytes)).toBe(true);
    }
  });

  it('never resizes with detail original', async () => {
    const png = await noisy(2500, 100).png().toBuffer();
    const out = await prepareImageBytes(png, 'original');
    expect(out).toMatchObject({ mime: 'image/png', width: 2500, height: 100 });
    expect(out.data.equals(png)).toBe(true);
  });

  it('re-encodes GIF (and other formats) to PNG', async () => {
    const gif = await noisy(20, 10).gif().toBuffer();
    const out = await prepareImageBytes(gif, 'resizeToFit');
    expect(out).toMatchObject({ mime: 'image/png', width: 20, height: 10 });
    const tiff = await noisy(30, 40).tiff().toBuffer();
    expect(await prepareImageBytes(tiff, 'original')).toMatchObject({ mime: 'image/png', width: 30, height: 40 });
  });

  it('caches up to 32 results keyed by content and mode', async () => {
    const png = await noisy(8, 8).png().toBuffer();
    const a = await prepareImageBytes(png, 'resizeToFit');
    expect(await prepareImageBytes(png, 'resizeToFit')).toBe(a);
    await prepareImageBytes(png, 'original');
    expect(imageCacheSize().entries).toBe(2);
    for (let i = 0; i < 40; i++)
      await prepareImageBytes(
        await sharp({ create: { width: 1, height: 1 + i, channels: 3, background: '#000' } })
          .png()
          .toBuffer(),
        'original',
      );
    expect(imageCacheSize().entries).toBe(32);
  });

  it('also bounds the cached bytes, evicting the oldest and skipping oversized images', async () => {
    const images = await Promise.all(
      [1, 2, 3, 4, 5, 6].map((h) =>
        noisy(40, 40 + h)
          .png()
          .toBuffer(),
      ),
    );
    const size = Math.max(...images.map((b) => b.length));
    try {
      setImageCacheLimits({ entries: 32, bytes: size * 4 });
      const first = await prepareImageBytes(images[0]!, 'original');
      for (const image of images.slice(1)) await prepareImageBytes(image, 'original');
      expect(imageCacheSize().entries).toBeLessThan(6);
      expect(imageCacheSize().bytes).toBeLessThanOrEqual(size * 4);
      expect(await prepareImageBytes(images[0]!, 'original')).not.toBe(first); // the oldest was evicted
      setImageCacheLimits({ entries: 32, bytes: size * 2 });
      await prepareImageBytes(images[0]!, 'original');
      expect(imageCacheSize()).toEqual({ entries: 0, bytes: 0 });
    } finally {
      setImageCacheLimits(DEFAULT_IMAGE_CACHE_LIMITS);
    }
  });

  it('prepares a local image for the TUI with size and data URL', async () => {
    const path = file('wide.jpg', await noisy(4096, 1024).jpeg().toBuffer());
    const prepared = await prepareLocalImage(path, 'high');
    expect(prepared).toMatchObject({ mime: 'image/jpeg', width: 2048, height: 512 });
    expect(prepared.dataUrl.startsWith('data:image/jpeg;base64,')).toBe(true);
    expect(Buffer.from(prepared.dataUrl.slice('data:image/jpeg;base64,'.length), 'base64').length).toBe(prepared.bytes);
  });
});

/** The DQT segments of a JPEG (hex), in file order: they are fixed by the encoder's quality setting. */
function quantisationTables(jpeg: Buffer): string[] {
  const tables: string[] = [];
  let i = 2;
  while (i + 4 <= jpeg.length) {
    if (jpeg[i] !== 0xff) throw new Error(`not a marker at ${i}`);
    const marker = jpeg[i + 1]!;
    const length = jpeg.readUInt16BE(i + 2);
    if (marker === 0xdb) tables.push(jpeg.subarray(i + 4, i + 2 + length).toString('hex'));
    if (marker === 0xda) break; // start of scan: all tables come before it
    i += 2 + length;
  }
  return tables;
}
