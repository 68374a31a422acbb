import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { summarizeDataUrl } from '../../src/protocol/data-url.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const PNG_1x1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const dir = mkdtempSync(join(tmpdir(), 'tiller-inspect-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const pngPath = join(dir, 'shot.png');
writeFileSync(pngPath, Buffer.from(PNG_1x1, 'base64'));

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the shipped `bin/tiller inspect` (rebuilt by the vitest global setup). */
function inspect(args: string[], stdin?: string): Promise<Run> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, ['bin/tiller', 'inspect', ...args], { cwd: root }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
    child.stdin?.end(stdin ?? '');
  });
}

const input = [
  { type: 'text', text: 'look: [Image #1]', text_elements: [{ byte_range: { start: 6, end: 16 }, placeholder: '[Image #1]' }] },
  { type: 'local_image', path: pngPath },
  { type: 'image', image_url: 'https://example.com/x.png', detail: 'low' },
  { type: 'audio', audio_url: 'data:audio/wav;base64,YXVkaW8=' },
  { type: 'local_audio', path: join(dir, 'gone.wav') },
  { type: 'mention', name: 'docs', path: 'mcp://docs' },
];

const expected = [
  {
    type: 'message',
    role: 'user',
    content: [
      { type: 'input_text', text: 'look: [Image #1]' },
      { type: 'input_text', text: '<image name=[Image #1]>' },
      { type: 'input_image', image_url: `data:image/png;base64,${PNG_1x1}`, detail: 'high' },
      { type: 'input_text', text: '</image>' },
      { type: 'input_image', image_url: 'https://example.com/x.png', detail: 'low' },
      { type: 'input_audio', audio_url: 'data:audio/wav;base64,YXVkaW8=' },
    ],
  },
  { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'Tiller could not read the local audio.' }] },
];

describe('tiller inspect', () => {
  it('prints the Responses input for UserInput[] on stdin, as pretty JSON', async () => {
    const run = await inspect([], JSON.stringify(input));
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toBe(`${JSON.stringify(expected, null, 2)}\n`);
  });

  it('reads a FILE argument', async () => {
    const path = join(dir, 'input.json');
    writeFileSync(path, JSON.stringify(input));
    const run = await inspect([path]);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual(expected);
  });

  it('abbreviates data URLs with --summary', async () => {
    const run = await inspect(['--summary', '-'], JSON.stringify(input));
    expect(run.code).toBe(0);
    const content = (JSON.parse(run.stdout) as typeof expected)[0]!.content;
    expect(content[2]).toEqual({
      type: 'input_image',
      image_url: `data:image/png;base64,… (${Buffer.from(PNG_1x1, 'base64').length} bytes)`,
      detail: 'high',
    });
    expect(content[5]).toEqual({ type: 'input_audio', audio_url: 'data:audio/wav;base64,… (5 bytes)' });
    expect(content[4]).toMatchObject({ image_url: 'https://example.com/x.png' });
  });

  it('exits 2 with one line naming the bad field on a schema error', async () => {
    const bad = [input[0], { type: 'text', text: 'abc', text_elements: [{ byte_range: { start: 0, end: 'x' } }] }];
    const run = await inspect([], JSON.stringify(bad));
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe('tiller inspect: [1].text_elements[0].byte_range.end: expected number, received string\n');
  });

  it('exits 2 on an unknown type and on a range splitting a character', async () => {
    const unknown = await inspect([], '[{"type":"video"}]');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^tiller inspect: \[0\]\.type: unknown type "video"/);
    const split = await inspect([], JSON.stringify([{ type: 'text', text: '中', text_elements: [{ byte_range: { start: 0, end: 1 } }] }]));
    expect(split.code).toBe(2);
    expect(split.stderr).toBe('tiller inspect: [0].text_elements[0].byte_range: byte range 0..1 is not on a UTF-8 character boundary\n');
  });

  it('exits 2 on bad JSON with one line', async () => {
    const run = await inspect([], '[{"type": "text", "text": "private words"');
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^tiller inspect: input: invalid JSON[^\n]*\n$/);
    expect(run.stderr).not.toContain('private');
  });

  it('exits 2 naming the path on input nested deeper than the limit (5,000 levels: no stack overflow)', async () => {
    const deep = `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`;
    const run = await inspect([], `[{"type":"text","text":"x","text_elements":[]},{"type":"mention","name":"m","path":${deep}}]`);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe('tiller inspect: [1].path.a.a.a.a…: nested deeper than 128 levels\n');
  });

  it('exits 1 when FILE cannot be read, and 2 on an unknown option', async () => {
    const missing = await inspect([join(dir, 'nope.json')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('ENOENT');
    const option = await inspect(['--bogus']);
    expect(option.code).toBe(2);
  });
});

describe('tiller inspect shows each conversion', () => {
  it('resizes a large local PNG, turns a GIF into PNG, and gives every path-free notice', async () => {
    const big = join(dir, 'big.png');
    writeFileSync(
      big,
      await sharp({ create: { width: 4000, height: 3000, channels: 3, background: '#08f' } })
        .png()
        .toBuffer(),
    );
    const gif = join(dir, 'small.gif');
    writeFileSync(
      gif,
      await sharp({ create: { width: 20, height: 10, channels: 3, background: '#f80' } })
        .gif()
        .toBuffer(),
    );
    const broken = join(dir, 'broken.png');
    writeFileSync(broken, Buffer.concat([Buffer.from(PNG_1x1, 'base64').subarray(0, 8), Buffer.from('junk')]));
    const text = join(dir, 'notes.png');
    writeFileSync(text, 'not an image');
    const flac = join(dir, 'voice.flac');
    writeFileSync(flac, 'audio');
    const items = [
      { type: 'local_image', path: big },
      { type: 'local_image', path: gif, detail: 'original' },
      { type: 'local_image', path: join(dir, 'private', 'gone.png') },
      { type: 'local_image', path: broken },
      { type: 'local_image', path: text },
      { type: 'local_audio', path: flac },
      { type: 'image', image_url: 'https://example.com/remote.png' },
      { type: 'skill', name: 'deploy', path: '/skills/deploy/SKILL.md' },
    ];
    const run = await inspect([], JSON.stringify(items));
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const [user, developer, ...rest] = JSON.parse(run.stdout) as Array<{ role: string; content: Array<Record<string, string>> }>;
    expect(rest).toEqual([]);
    const content = user!.content;
    expect(content.map((c) => c.text ?? c.type)).toEqual([
      '<image name=[Image #1]>',
      'input_image',
      '</image>',
      '<image name=[Image #2]>',
      'input_image',
      '</image>',
      'input_image',
    ]);
    const decoded = async (url: string) => sharp(Buffer.from(url.slice(url.indexOf(',') + 1), 'base64')).metadata();
    expect(content[1]!.image_url!.startsWith('data:image/png;base64,')).toBe(true);
    expect(await decoded(content[1]!.image_url!)).toMatchObject({ format: 'png', width: 2048, height: 1536 });
    expect(content[1]!.detail).toBe('high');
    expect(content[4]!.image_url!.startsWith('data:image/png;base64,')).toBe(true);
    expect(await decoded(content[4]!.image_url!)).toMatchObject({ format: 'png', width: 20, height: 10 });
    expect(content[4]!.detail).toBe('original');
    expect(content[6]).toEqual({ type: 'input_image', image_url: 'https://example.com/remote.png', detail: 'high' });
    expect(developer).toEqual({
      type: 'message',
      role: 'developer',
      content: [
        { type: 'input_text', text: 'Tiller could not read the local image: no such file.' },
        { type: 'input_text', text: 'Tiller cannot attach the local image because it is not a valid image.' },
        { type: 'input_text', text: 'Tiller cannot attach the local image because its format is unsupported.' },
        {
          type: 'input_text',
          text: 'Tiller cannot attach the local audio because its format is unsupported; use wav, mp3, m4a, webm, or ogg.',
        },
      ],
    });
    expect(run.stdout).not.toContain(dir);
  });
});

describe('tiller inspect output', () => {
  it('ends quietly when the reader closes the pipe early', async () => {
    const path = join(dir, 'big.json');
    writeFileSync(path, JSON.stringify([{ type: 'image', image_url: `data:image/png;base64,${'A'.repeat(4_000_000)}` }]));
    const child = spawn(process.execPath, ['bin/tiller', 'inspect', path], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.once('data', () => child.stdout.destroy());
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });
});

describe('summarizeDataUrl', () => {
  it('keeps the MIME and counts decoded bytes', () => {
    expect(summarizeDataUrl('data:image/png;base64,AAAA')).toBe('data:image/png;base64,… (3 bytes)');
    expect(summarizeDataUrl('data:text/plain,a%20b')).toBe('data:text/plain,… (3 bytes)');
    expect(summarizeDataUrl('https://example.com/x.png')).toBe('https://example.com/x.png');
  });
});
