import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import {
  LOCAL_AUDIO_UNREADABLE_NOTICE,
  LOCAL_AUDIO_UNSUPPORTED_NOTICE,
  LOCAL_IMAGE_INVALID_NOTICE,
  LOCAL_IMAGE_UNREADABLE_NOTICE,
  LOCAL_IMAGE_UNSUPPORTED_NOTICE,
  fromUserInput,
  localImageOpenTag,
  prepareDeferredImages,
  type ResponseItem,
} from '../../src/protocol/response-items.js';
import type { UserInput } from '../../src/protocol/user-input.js';

const PNG_1x1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const dir = mkdtempSync(join(tmpdir(), 'tiller-responses-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, bytes: Uint8Array | string): string => {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
};
const pngPath = file('one.png', Buffer.from(PNG_1x1, 'base64'));
const missing = join(dir, 'secret-dir', 'missing.png');

const text = (t: string): UserInput => ({ type: 'text', text: t, text_elements: [] });
const convert = (items: UserInput[]) => fromUserInput(items, { localImagePreparation: 'process' });

function userContent(items: ResponseItem[]) {
  const first = items[0];
  if (first?.type !== 'message' || first.role !== 'user') throw new Error('expected a user message first');
  return first.content;
}

describe('fromUserInput: remote media', () => {
  it('sends an image without detail as exactly one input_image with detail high, no tags', async () => {
    expect(await convert([{ type: 'image', image_url: 'https://example.com/a.png' }])).toEqual([
      { type: 'message', role: 'user', content: [{ type: 'input_image', image_url: 'https://example.com/a.png', detail: 'high' }] },
    ]);
  });

  it('keeps a requested image detail', async () => {
    const content = userContent(await convert([{ type: 'image', image_url: 'u', detail: 'low' }]));
    expect(content).toEqual([{ type: 'input_image', image_url: 'u', detail: 'low' }]);
  });

  it('sends audio without tags', async () => {
    const out = await convert([{ type: 'audio', audio_url: 'data:audio/wav;base64,abc' }]);
    expect(JSON.stringify(out[0])).toBe(
      '{"type":"message","role":"user","content":[{"type":"input_audio","audio_url":"data:audio/wav;base64,abc"}]}',
    );
    expect(out).toHaveLength(1);
  });

  it('drops text elements and gives skills and mentions no content', async () => {
    const out = await convert([
      { type: 'text', text: 'see [Image #1]', text_elements: [{ byte_range: { start: 4, end: 14 } }] },
      { type: 'skill', name: 's', path: '/s/SKILL.md' },
      { type: 'mention', name: 'm', path: 'mcp://m' },
    ]);
    expect(out).toEqual([{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'see [Image #1]' }] }]);
  });

  it('emits an empty user message for empty input', async () => {
    expect(await convert([])).toEqual([{ type: 'message', role: 'user', content: [] }]);
  });
});

describe('fromUserInput: local media', () => {
  it('wraps a local image in path-free tags with a data URL, keeping the requested detail', async () => {
    const content = userContent(await convert([{ type: 'local_image', path: pngPath, detail: 'original' }]));
    expect(content).toEqual([
      { type: 'input_text', text: '<image name=[Image #1]>' },
      { type: 'input_image', image_url: `data:image/png;base64,${PNG_1x1}`, detail: 'original' },
      { type: 'input_text', text: '</image>' },
    ]);
    expect(JSON.stringify(content)).not.toContain(pngPath);
    expect(localImageOpenTag(1)).toBe('<image name=[Image #1]>');
  });

  it('defaults a local image detail to high', async () => {
    const content = userContent(await convert([{ type: 'local_image', path: pngPath }]));
    expect(content[1]).toMatchObject({ type: 'input_image', detail: 'high' });
  });

  it('labels local audio and sends its data URL', async () => {
    const content = userContent(await convert([{ type: 'local_audio', path: file('voice.MP3', 'audio') }]));
    expect(content).toEqual([
      { type: 'input_text', text: '<audio name=[Audio #1]>' },
      { type: 'input_audio', audio_url: 'data:audio/mpeg;base64,YXVkaW8=' },
      { type: 'input_text', text: '</audio>' },
    ]);
  });

  it('moves the path-free notice for unreadable local audio into a developer message', async () => {
    const path = join(dir, 'private', 'gone.wav');
    const out = await convert([{ type: 'local_audio', path }]);
    expect(out).toEqual([
      { type: 'message', role: 'user', content: [] },
      { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'Tiller could not read the local audio.' }] },
    ]);
    expect(JSON.stringify(out)).not.toContain('private');
  });

  it('gives the unsupported notice for a local audio format we cannot send', async () => {
    const out = await convert([{ type: 'local_audio', path: file('x.flac', 'audio') }]);
    expect(out[1]).toEqual({ type: 'message', role: 'developer', content: [{ type: 'input_text', text: LOCAL_AUDIO_UNSUPPORTED_NOTICE }] });
    expect(LOCAL_AUDIO_UNSUPPORTED_NOTICE).toBe(
      'Tiller cannot attach the local audio because its format is unsupported; use wav, mp3, m4a, webm, or ogg.',
    );
  });

  it('gives path-free notices for unreadable, invalid and unsupported local images', async () => {
    const broken = file('broken.png', Buffer.concat([Buffer.from(PNG_1x1, 'base64').subarray(0, 8), Buffer.from('junk')]));
    const textFile = file('notes.png', 'hello there');
    const out = await convert([
      { type: 'local_image', path: missing },
      { type: 'local_image', path: broken },
      { type: 'local_image', path: textFile },
    ]);
    expect(out[1]).toEqual({
      type: 'message',
      role: 'developer',
      content: [
        { type: 'input_text', text: 'Tiller could not read the local image: no such file.' },
        { type: 'input_text', text: 'Tiller cannot attach the local image because it is not a valid image.' },
        { type: 'input_text', text: 'Tiller cannot attach the local image because its format is unsupported.' },
      ],
    });
    expect(LOCAL_IMAGE_UNREADABLE_NOTICE).toBe('Tiller could not read the local image.');
    expect(JSON.stringify(out)).not.toContain(dir);
  });

  it('says why a local image is refused: over the byte limit, over the pixel limit, a header with no image behind it', async () => {
    const out = await fromUserInput([{ type: 'local_image', path: pngPath }], { localImagePreparation: 'process', maxImageBytes: 10 });
    expect(out[1]).toMatchObject({
      role: 'developer',
      content: [{ text: 'Tiller cannot attach the local image because it is too large: 70 bytes, the limit is 10 bytes.' }],
    });
    // A PNG header claiming 30000×30000: alone (68 bytes), and with enough bytes after it to be that image.
    const ihdr = Buffer.alloc(25);
    ihdr.writeUInt32BE(13, 0);
    ihdr.write('IHDR', 4, 'latin1');
    ihdr.writeUInt32BE(30_000, 8);
    ihdr.writeUInt32BE(30_000, 12);
    ihdr.set([8, 2, 0, 0, 0], 16);
    const header = Buffer.concat([Buffer.from(PNG_1x1, 'base64').subarray(0, 8), ihdr, Buffer.alloc(35)]);
    expect(header).toHaveLength(68);
    for (const preparation of ['process', 'defer'] as const) {
      const headerOnly = await prepareDeferredImages(
        await fromUserInput([{ type: 'local_image', path: file('header.png', header) }], { localImagePreparation: preparation }),
      );
      expect(JSON.stringify(headerOnly)).toContain(LOCAL_IMAGE_INVALID_NOTICE);
      const huge = await prepareDeferredImages(
        await fromUserInput([{ type: 'local_image', path: file('huge.png', Buffer.concat([header, Buffer.alloc(1 << 20)])) }], {
          localImagePreparation: preparation,
        }),
      );
      expect(JSON.stringify(huge)).toContain(
        'Tiller cannot attach the local image because it is too large: 30000×30000 pixels, the limit is 33,554,432 pixels.',
      );
      expect(JSON.stringify(huge)).not.toContain(dir);
    }
    const audio = await fromUserInput([{ type: 'local_audio', path: file('long.wav', 'x'.repeat(20)) }], {
      localImagePreparation: 'process',
      maxAudioBytes: 10,
    });
    expect(audio[1]).toMatchObject({ role: 'developer', content: [{ text: LOCAL_AUDIO_UNREADABLE_NOTICE }] });
  });

  it('generated media notices follow one direct user message', async () => {
    const out = await convert([
      text('before'),
      { type: 'local_image', path: missing },
      text('after'),
      { type: 'local_audio', path: join(dir, 'no.wav') },
    ]);
    expect(out).toEqual([
      {
        type: 'message',
        role: 'user',
        content: [
          { type: 'input_text', text: 'before' },
          { type: 'input_text', text: 'after' },
        ],
      },
      {
        type: 'message',
        role: 'developer',
        content: [
          { type: 'input_text', text: 'Tiller could not read the local image: no such file.' },
          { type: 'input_text', text: LOCAL_AUDIO_UNREADABLE_NOTICE },
        ],
      },
    ]);
  });

  it('lets mixed remote and local images share one label sequence', async () => {
    const content = userContent(
      await convert([
        { type: 'image', image_url: 'https://e/1.png' },
        { type: 'local_image', path: pngPath },
      ]),
    );
    expect(content[0]).toEqual({ type: 'input_image', image_url: 'https://e/1.png', detail: 'high' });
    expect(content[1]).toEqual({ type: 'input_text', text: '<image name=[Image #2]>' });
    expect(content[2]).toMatchObject({ type: 'input_image' });
    expect(content[3]).toEqual({ type: 'input_text', text: '</image>' });
  });

  it('counts images and audio separately; a failed item still takes its number', async () => {
    const wav = file('a.wav', 'audio');
    const content = userContent(
      await convert([
        { type: 'audio', audio_url: 'data:audio/wav;base64,abc' },
        { type: 'local_image', path: missing },
        { type: 'local_audio', path: wav },
        { type: 'local_image', path: pngPath },
      ]),
    );
    const labels = content.flatMap((c) => (c.type === 'input_text' && c.text.includes('name=') ? [c.text] : []));
    expect(labels).toEqual(['<audio name=[Audio #2]>', '<image name=[Image #2]>']);
  });
});

describe('fromUserInput: deferred local images', () => {
  it('reads the bytes now as an octet-stream data URL and prepares them later', async () => {
    const big = await sharp({ create: { width: 3000, height: 1500, channels: 3, background: '#08f' } })
      .png()
      .toBuffer();
    const path = file('big.png', big);
    const deferred = await fromUserInput([{ type: 'local_image', path, detail: 'low' }], { localImagePreparation: 'defer' });
    const content = userContent(deferred);
    expect(content[0]).toEqual({ type: 'input_text', text: '<image name=[Image #1]>' });
    expect(content[1]).toEqual({
      type: 'input_image',
      image_url: `data:application/octet-stream;base64,${big.toString('base64')}`,
      detail: 'low',
    });

    const ready = userContent(await prepareDeferredImages(deferred));
    expect(ready).toHaveLength(3);
    const url = (ready[1] as { image_url: string }).image_url;
    expect(url.startsWith('data:image/png;base64,')).toBe(true);
    const meta = await sharp(Buffer.from(url.slice('data:image/png;base64,'.length), 'base64')).metadata();
    expect([meta.width, meta.height]).toEqual([2048, 1024]);
  });

  it('still gives the unreadable notice at once, and replaces a deferred image that fails later by its notice', async () => {
    const unreadable = await fromUserInput([{ type: 'local_image', path: missing }], { localImagePreparation: 'defer' });
    expect(unreadable[1]).toMatchObject({ role: 'developer', content: [{ text: 'Tiller could not read the local image: no such file.' }] });

    // No image by its first bytes: the unsupported notice at once, the rest never read.
    const junk = file('junk.png', 'no image here');
    const refused = await fromUserInput([text('a'), { type: 'local_image', path: junk }, text('b')], { localImagePreparation: 'defer' });
    expect(refused[1]).toMatchObject({ role: 'developer', content: [{ text: LOCAL_IMAGE_UNSUPPORTED_NOTICE }] });

    // A PNG signature over a broken body is only found out when it is decoded.
    const broken = file(
      'broken.png',
      Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('not the rest of a png')]),
    );
    const deferred = await fromUserInput([text('a'), { type: 'local_image', path: broken }, text('b')], { localImagePreparation: 'defer' });
    expect(userContent(deferred)).toHaveLength(5);
    expect(userContent(await prepareDeferredImages(deferred))).toEqual([
      { type: 'input_text', text: 'a' },
      { type: 'input_text', text: LOCAL_IMAGE_INVALID_NOTICE },
      { type: 'input_text', text: 'b' },
    ]);
  });

  it('leaves items without deferred images as they are', async () => {
    const items = await convert([text('x'), { type: 'image', image_url: 'https://e/x.png' }]);
    expect(await prepareDeferredImages(items)).toEqual(items);
  });
});
