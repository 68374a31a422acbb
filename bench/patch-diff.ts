/**
 * The patch cell of a 5,000-line diff (issue 28): the rows it costs to draw in the transcript (a
 * screenful, the rest behind Ctrl+T) and whole (the pager), both in this thread as the sources run
 * (no worker file beside them), and keystroke echo in the real bin while that patch arrives and is
 * drawn, where syntax colour comes from the highlighter's worker thread (src/tui/diff/diff-colours.ts)
 * so lowlight never runs on the thread that echoes keys. Figures are printed, never asserted.
 */
import { mkdirSync, mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Chalk } from 'chalk';
import { patchLines } from '../src/tui/components/patch-lines.js';
import { loadHighlighter } from '../src/tui/markdown.js';
import type { PatchCellFile } from '../src/tui/store-types.js';
import { FakeResponsesServer } from '../test/support/fake-responses-server.js';
import { type BenchRow, median, ms, percentile, timeRuns } from './lib.js';
import { launched, sleep, stop, timeKeystrokes } from './pty-bench.js';

const LINES = 5_000;
const KEYS = 60;

const code = (i: number): string => `export const value${i} = compute(${i}, "label ${i}") + offset; // line ${i}`;

function bigFile(): PatchCellFile {
  const diff = `${Array.from({ length: LINES }, (_, i) => code(i)).join('\n')}\n`;
  return { path: 'src/generated.ts', kind: 'add', movePath: null, diff, added: LINES, removed: 0 };
}

async function renderTimes(): Promise<{ collapsed: number[]; whole: number[] }> {
  await loadHighlighter();
  const c = new Chalk({ level: 3 });
  const cell = { kind: 'patch' as const, id: 1, status: 'completed' as const, files: [bigFile()] };
  return {
    collapsed: await timeRuns(5, () => patchLines(cell, 120, c)),
    whole: await timeRuns(3, () => patchLines(cell, 120, c, true)),
  };
}

/** Keys typed from the moment the patch turn starts: each one's echo, while the 5,000-line cell is drawn. */
async function echoDuringPatch(): Promise<number[]> {
  const server = await FakeResponsesServer.start();
  const ws = realpathSync(mkdtempSync(join(tmpdir(), 'tiller-bench-diff-')));
  mkdirSync(join(ws, '.git'));
  const patch = `*** Begin Patch\n*** Add File: generated.ts\n${Array.from({ length: LINES }, (_, i) => `+${code(i)}`).join('\n')}\n*** End Patch`;
  const pty = await launched({
    cwd: ws,
    args: ['-m', 'gpt-5.5', '--full-auto'],
    env: { OPENAI_BASE_URL: server.baseUrl, OPENAI_API_KEY: 'dummy' },
  });
  const send = async (prompt: string): Promise<void> => {
    // Typed as a person types and past the paste-burst window, so Enter sends rather than breaks the line.
    for (const ch of prompt) {
      pty.write(ch);
      await sleep(80);
    }
    await sleep(300);
    pty.press('enter');
  };
  try {
    // A first turn loads the runtime and the model client: their start-up is another bench's (tui.ts), not the diff's.
    server.enqueue({ text: 'Warmed up.' });
    await send('hi');
    await pty.waitFor((s) => s.includes('Warmed up.') && !s.includes('esc to interrupt'), 30_000);
    server.enqueue({ customToolCalls: [{ name: 'apply_patch', input: patch }] }, { text: 'Patched.' });
    await send('go');
    await sleep(20);
    return await timeKeystrokes(pty, KEYS, true);
  } finally {
    await stop(pty);
    await server.close();
  }
}

export default async function run(): Promise<BenchRow[]> {
  const render = await renderTimes();
  const echo = await echoDuringPatch();
  return [
    {
      name: `patch cell of a ${LINES.toLocaleString('en')}-line diff, transcript (a screenful)`,
      value: ms(median(render.collapsed)),
      note: 'median of 5; line numbers, syntax colour, 120 columns; the rest waits for Ctrl+T',
    },
    {
      name: `patch cell of a ${LINES.toLocaleString('en')}-line diff, whole (Ctrl+T pager)`,
      value: ms(median(render.whole)),
      note: 'median of 3; every line coloured and wrapped',
    },
    {
      name: `keystroke to frame p50 / p99 while a ${LINES.toLocaleString('en')}-line patch arrives`,
      value: `${ms(percentile(echo, 50))} / ${ms(percentile(echo, 99))}`,
      note: `${KEYS} keys typed from Enter on, through the patch turn (after a warm-up turn), its checkpoints and its cell; real bin in a pty, --full-auto; goal 16 ms`,
    },
  ];
}
