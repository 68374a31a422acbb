/** Protocol-layer figures: CLI start-up and local image preparation (resize to fit 2048 px). */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { BenchRow } from './lib.js';
import { median, mib, ms, timeRuns } from './lib.js';
import { clearImageCache, prepareLocalImage } from '../src/protocol/local-media.js';

const run = promisify(execFile);
const root = fileURLToPath(new URL('..', import.meta.url));
const RUNS = 5;

/** A gradient with a fine pattern: compresses like a screenshot, not like noise or a flat fill. */
function syntheticPixels(width: number, height: number): Buffer {
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      pixels[i] = (x * 255) / width;
      pixels[i + 1] = (y * 255) / height;
      pixels[i + 2] = (x ^ y) & 0xff;
    }
  }
  return pixels;
}

export default async function protocolBench(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];

  const startup = await timeRuns(RUNS, () => run(process.execPath, ['bin/tiller', '--version'], { cwd: root }));
  rows.push({ name: 'tiller --version start-up', value: ms(median(startup)), note: `median of ${RUNS}, spawn node bin/tiller` });

  const sharp = (await import('sharp')).default;
  const dir = await mkdtemp(join(tmpdir(), 'tiller-bench-'));
  try {
    const [width, height] = [4000, 3000];
    const source = sharp(syntheticPixels(width, height), { raw: { width, height, channels: 3 } });
    const files: Array<[string, string, Buffer]> = [
      ['PNG', join(dir, 'big.png'), await source.clone().png().toBuffer()],
      ['JPEG', join(dir, 'big.jpg'), await source.clone().jpeg({ quality: 90 }).toBuffer()],
    ];
    // Warm-up: load sharp and its codecs once so the first timed run is not an outlier.
    await sharp(files[1]![2]).metadata();
    for (const [label, path, bytes] of files) {
      await writeFile(path, bytes);
      let out = 0;
      const times = await timeRuns(RUNS, async () => {
        clearImageCache(); // measure the work, not the cache
        out = (await prepareLocalImage(path, 'high')).dataUrl.length;
      });
      rows.push({
        name: `prepare ${width}×${height} ${label} → data URL`,
        value: ms(median(times)),
        note: `median of ${RUNS}; in ${mib(bytes.length)}, data URL ${mib(out)}, resized to 2048×1536`,
      });
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return rows;
}
