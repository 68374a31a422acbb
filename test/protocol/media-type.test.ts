import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { audioMimeForPath, imageFormatOf, mayBeImage, sniffImage } from '../../src/protocol/media-type.js';

const raw = (width: number, height: number, channels: 3 | 4 = 3) =>
  sharp({ create: { width, height, channels, background: { r: 10, g: 20, b: 30, alpha: 0.5 } } });

describe('sniffImage', () => {
  it('reads PNG size from IHDR', async () => {
    const png = await raw(300, 200).png().toBuffer();
    expect(sniffImage(png)).toEqual({ format: 'png', mime: 'image/png', width: 300, height: 200 });
  });

  it('scans JPEG segments to the SOF marker, past EXIF', async () => {
    const jpeg = await raw(640, 480)
      .jpeg()
      .withMetadata({ exif: { IFD0: { Copyright: 'x'.repeat(2000) } } })
      .toBuffer();
    expect(jpeg[3]).toBe(0xe1); // APP1 (EXIF) before the frame header
    expect(sniffImage(jpeg)).toEqual({ format: 'jpeg', mime: 'image/jpeg', width: 640, height: 480 });
    const progressive = await raw(33, 17).jpeg({ progressive: true }).toBuffer();
    expect(sniffImage(progressive)).toMatchObject({ width: 33, height: 17 });
  });

  it('reads GIF logical screen size', async () => {
    const gif = await raw(12, 34).gif().toBuffer();
    expect(sniffImage(gif)).toEqual({ format: 'gif', mime: 'image/gif', width: 12, height: 34 });
  });

  it('reads WebP lossy (VP8), lossless (VP8L) and extended (VP8X) headers', async () => {
    const lossy = await raw(101, 57).webp({ quality: 80 }).toBuffer();
    expect(lossy.subarray(12, 16).toString()).toBe('VP8 ');
    expect(sniffImage(lossy)).toEqual({ format: 'webp', mime: 'image/webp', width: 101, height: 57 });
    const lossless = await raw(4000, 3).webp({ lossless: true }).toBuffer();
    expect(lossless.subarray(12, 16).toString()).toBe('VP8L');
    expect(sniffImage(lossless)).toMatchObject({ width: 4000, height: 3 });
    const extended = await raw(77, 66, 4).webp({ quality: 80 }).toBuffer();
    expect(extended.subarray(12, 16).toString()).toBe('VP8X');
    expect(sniffImage(extended)).toMatchObject({ width: 77, height: 66 });
  });

  it('returns null for other bytes and truncated headers', async () => {
    expect(sniffImage(Buffer.from('not an image'))).toBeNull();
    expect(sniffImage(new Uint8Array())).toBeNull();
    const png = await raw(5, 5).png().toBuffer();
    expect(sniffImage(png.subarray(0, 20))).toBeNull();
    expect(sniffImage(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00]))).toBeNull();
    expect(imageFormatOf(png.subarray(0, 8))).toBe('png');
    expect(imageFormatOf(Buffer.from('GIF89a'))).toBe('gif');
    expect(imageFormatOf(Buffer.from('BM'))).toBeNull();
  });
});

describe('audioMimeForPath', () => {
  it('maps the five supported extensions, case-insensitively', () => {
    expect(audioMimeForPath('/a/b.wav')).toBe('audio/wav');
    expect(audioMimeForPath('song.mp3')).toBe('audio/mpeg');
    expect(audioMimeForPath('SONG.MP3')).toBe('audio/mpeg');
    expect(audioMimeForPath('memo.m4a')).toBe('audio/mp4');
    expect(audioMimeForPath('x.WebM')).toBe('audio/webm');
    expect(audioMimeForPath('x.ogg')).toBe('audio/ogg');
  });

  it('refuses other extensions, no extension and dotfiles', () => {
    expect(audioMimeForPath('x.flac')).toBeNull();
    expect(audioMimeForPath('/dir.mp3/file')).toBeNull();
    expect(audioMimeForPath('.mp3')).toBeNull();
    expect(audioMimeForPath('x.mp3.txt')).toBeNull();
  });
});

describe('mayBeImage: the first bytes decide whether the rest is read', () => {
  it('is true for every format sharp decodes here, from real encodes', async () => {
    const base = () => sharp({ create: { width: 4, height: 4, channels: 3, background: '#369' } });
    for (const bytes of [
      await base().png().toBuffer(),
      await base().jpeg().toBuffer(),
      await base().gif().toBuffer(),
      await base().webp().toBuffer(),
      await base().tiff().toBuffer(),
      await base().avif().toBuffer(),
      await base().heif({ compression: 'av1' }).toBuffer(),
      Buffer.from('\uFEFF  <svg xmlns="http://www.w3.org/2000/svg"/>'),
      Buffer.from('<?xml version="1.0"?><svg/>'),
    ]) {
      expect(mayBeImage(bytes.subarray(0, 32))).toBe(true);
    }
  });

  it('is false for what is certainly no image', () => {
    for (const text of ['just some notes', '{"json": true}', '', '\0\0\0\0\0\0\0\0', '%PDF-1.7', '\x7fELF\x02\x01\x01', 'PK\x03\x04zip']) {
      expect(mayBeImage(Buffer.from(text, 'latin1'))).toBe(false);
    }
  });
});
