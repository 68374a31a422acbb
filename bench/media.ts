/**
 * Media figures for `npm run bench`: paste of a 12-megapixel PNG path to the `[Image #1]` chip, Enter to a
 * ready request with four such images, and the peak RSS of a process preparing them.
 * The RSS figure comes from a child process (this file run with --child) so the images generated for the
 * bench and the rest of the harness do not count.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { UserInput } from '../src/protocol/user-input.js';
import { mib, median, ms, timeRuns, type BenchRow } from './lib.js';

const WIDTH = 4000;
const HEIGHT = 3000;
const IMAGES = 4;
const RUNS = 5;

async function makeImages(dir: string): Promise<string[]> {
  const sharp = (await import('sharp')).default;
  const paths: string[] = [];
  for (let i = 0; i < IMAGES; i++) {
    const file = path.join(dir, `photo-${i + 1}.png`);
    // Gaussian noise barely compresses (~37 MB per file): the worst case to read and decode, and each
    // image differs, so none is served from the image cache. Level 1 only makes generating them faster.
    const noise = { type: 'gaussian' as const, mean: 128, sigma: 40 };
    await sharp({ create: { width: WIDTH, height: HEIGHT, channels: 3, background: '#808080', noise } })
      .png({ compressionLevel: 1 })
      .toFile(file);
    paths.push(file);
  }
  return paths;
}

function requestInput(paths: string[]): UserInput[] {
  const text = paths.map((_, i) => `[Image #${i + 1}]`).join(' ');
  return [{ type: 'text', text, text_elements: [] }, ...paths.map((p): UserInput => ({ type: 'local_image', path: p }))];
}

/** Enter → the Responses input with every image read, resized to fit 2048 and encoded. */
async function prepareRequest(paths: string[]): Promise<void> {
  const { fromUserInput } = await import('../src/protocol/response-items.js');
  await fromUserInput(requestInput(paths), { localImagePreparation: 'process' });
}

async function child(paths: string[]): Promise<void> {
  const start = performance.now();
  await prepareRequest(paths);
  const elapsed = performance.now() - start;
  process.stdout.write(JSON.stringify({ elapsedMs: elapsed, maxRssBytes: process.resourceUsage().maxRSS * 1024 }));
}

export default async function run(): Promise<BenchRow[]> {
  const dir = await mkdtemp(path.join(tmpdir(), 'tiller-bench-media-'));
  try {
    const paths = await makeImages(dir);
    const first = paths[0]!;
    const rows: BenchRow[] = [];

    const { createMediaProbe } = await import('../src/tui/media/probe.js');
    const { composerReducer, initialComposerState } = await import('../src/tui/composer/reducer.js');
    const probeMedia = createMediaProbe({ cwd: dir, home: tmpdir() });
    const pasteTimes = await timeRuns(RUNS, () => {
      const state = initialComposerState({ vimEnabled: false, probeMedia });
      const out = composerReducer(state, { type: 'paste', text: first }, 0);
      if (out.state.attachments.length !== 1) throw new Error('the paste did not attach the PNG');
    });
    rows.push({
      name: 'paste 12 MP PNG path → chip',
      value: ms(median(pasteTimes)),
      note: `median of ${RUNS}; paste event through the composer reducer (probe: stat + header read)`,
    });

    const { clearImageCache } = await import('../src/protocol/local-media.js');
    const enterTimes: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      clearImageCache();
      enterTimes.push(...(await timeRuns(1, () => prepareRequest(paths))));
    }
    rows.push({
      name: `Enter → request, ${IMAGES} × 12 MP PNG`,
      value: ms(median(enterTimes)),
      note: `median of ${RUNS}, image cache cleared each run; fromUserInput (read, resize to 2048, encode)`,
    });

    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', fileURLToPath(import.meta.url), '--child', ...paths],
      { maxBuffer: 1024 * 1024 },
    );
    const measured = JSON.parse(stdout) as { elapsedMs: number; maxRssBytes: number };
    rows.push({
      name: `peak RSS preparing ${IMAGES} × 12 MP PNG`,
      value: mib(measured.maxRssBytes),
      note: `fresh process, resourceUsage().maxRSS; cold run took ${ms(measured.elapsedMs)}`,
    });
    return rows;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv[2] === '--child') {
  await child(process.argv.slice(3));
}
