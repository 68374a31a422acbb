/**
 * Whatever the window does while an answer streams, the conversation is in the terminal (scrollback
 * and screen) exactly once, in order, at the width it was last laid out for, and the live area is
 * drawn cleanly below it. The real App renders through Ink into a headless xterm with scrollback; a
 * resize changes the terminal and tells Ink, as a pty's SIGWINCH would. fast-check prints the seed of
 * a failing case.
 */
import xterm from '@xterm/headless';
import fc from 'fast-check';
import type { Instance } from 'ink';
import { EventEmitter } from 'node:events';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { initialComposerState } from '../../src/tui/composer/reducer.js';
import { inkStdout } from '../../src/tui/terminal/ink-stdout.js';
import { importWithLiveRendering } from '../../src/tui/live-render.js';
import { createChatStore, EMPTY_LIVE, withCells, type ChatStore } from '../../src/tui/store.js';

class ResizableStdout extends EventEmitter {
  readonly isTTY = true;
  constructor(
    readonly term: xterm.Terminal,
    public columns: number,
    public rows: number,
  ) {
    super();
  }
  write(data: string): boolean {
    this.term.write(data);
    return true;
  }
  /** Resolves once the screen has taken the new size (it waits for a burst of resizes to settle). */
  async resize(columns: number, rows: number): Promise<void> {
    this.resizeNow(columns, rows);
    await new Promise((resolve) => setTimeout(resolve, RESIZE_SETTLE_MS + 2));
  }
  /** The terminal takes the new size and says so; the screen has not settled on it yet. */
  resizeNow(columns: number, rows: number): void {
    this.term.resize(columns, rows);
    this.columns = columns;
    this.rows = rows;
    this.emit('resize');
  }
}

// Loaded as the product loads them (hooks.js imports Ink): in CI (CI=true) Ink would draw only the last frame.
let render: typeof import('ink').render;
let App: typeof import('../../src/tui/app.js').App;
let RESIZE_SETTLE_MS: number;
beforeAll(async () => {
  ({ render } = await importWithLiveRendering(() => import('ink')));
  ({ App } = await importWithLiveRendering(() => import('../../src/tui/app.js')));
  ({ RESIZE_SETTLE_MS } = await importWithLiveRendering(() => import('../../src/tui/components/hooks.js')));
});

let instance: Instance | null = null;
let term: xterm.Terminal | null = null;
afterEach(() => {
  instance?.unmount();
  instance = null;
  term?.dispose();
  term = null;
});

const flush = async (): Promise<void> => {
  await new Promise((resolve) => setTimeout(resolve, 3));
  await new Promise<void>((resolve) => term!.write('', resolve));
};

/** Scrollback and screen as logical lines: rows the terminal wrapped are joined again. */
function logicalText(t: xterm.Terminal): string {
  const buffer = t.buffer.active;
  const lines: string[] = [];
  for (let y = 0; y < buffer.length; y++) {
    const line = buffer.getLine(y);
    if (!line) continue;
    const text = line.translateToString(true);
    if (line.isWrapped && lines.length > 0) lines[lines.length - 1] += text;
    else lines.push(text);
  }
  return lines.join('\n');
}

/** Each block of the answer carries a marker (`Q17Z`) that survives any wrap, so it can be counted. */
const marker = (i: number): string => `Q${i}Z`;
const BLOCKS: Array<(i: number) => string> = [
  (i) => `${marker(i)} plain words that wrap across the narrow widths of the window again and again.`,
  (i) => `- ${marker(i)} first item with \`code\`\n- second item, **bold**`,
  (i) => `\`\`\`\n${marker(i)} = run(1)\n\`\`\``,
  (i) => `| ${marker(i)} | b |\n| --- | --- |\n| 1 | 2 |`,
  (i) => `${marker(i)} 中文段落，宽字符换行测试，中文段落。`,
  (i) => `## ${marker(i)} heading`,
];

const sizeArb = fc.record({ cols: fc.integer({ min: 30, max: 200 }), rows: fc.integer({ min: 8, max: 60 }) });
const caseArb = fc.record({
  start: sizeArb,
  blocks: fc.array(fc.integer({ min: 0, max: BLOCKS.length - 1 }), { minLength: 2, maxLength: 9 }),
  // Where the stream is cut into deltas (fractions of its length), and a resize after each delta or not.
  steps: fc.array(fc.record({ at: fc.double({ min: 0, max: 1, noNaN: true }), resize: fc.option(sizeArb, { nil: undefined }) }), {
    minLength: 1,
    maxLength: 6,
  }),
  resizeAfter: fc.option(sizeArb, { nil: undefined }),
});

function newStore(): ChatStore {
  return createChatStore(initialComposerState({ vimEnabled: false, probeMedia: () => null, disablePasteBurst: true }), {
    model: 'tiller-offline',
    offline: true,
  });
}

describe('the transcript under resizes', () => {
  it('every block of a streamed answer is in scrollback + screen exactly once, in order, after any resizes', {
    timeout: 240_000,
  }, async () => {
    await fc.assert(
      fc.asyncProperty(caseArb, async ({ start, blocks, steps, resizeAfter }) => {
        term = new xterm.Terminal({ cols: start.cols, rows: start.rows, allowProposedApi: true, convertEol: true, scrollback: 100_000 });
        const stdout = new ResizableStdout(term, start.cols, start.rows);
        const store = newStore();
        store.setState((s) =>
          withCells(s, [{ kind: 'user', text: 'question before the answer', textElements: [], attachmentLabels: [], turnId: null }]),
        );
        instance = render(<App store={store} now={() => 0} platform="linux" />, {
          stdout: inkStdout(stdout) as unknown as NodeJS.WriteStream,
          patchConsole: false,
          exitOnCtrlC: false,
          maxFps: 0,
        });
        await flush();
        const answer = blocks.map((kind, i) => BLOCKS[kind]!(i)).join('\n\n');
        store.setState({ activeTurn: { id: 't1', startedAt: 0 } });
        const cuts = [...steps].sort((a, b) => a.at - b.at);
        for (const step of cuts) {
          store.setState({
            live: { ...EMPTY_LIVE, agentText: answer.slice(0, Math.max(1, Math.floor(step.at * answer.length))), agentItemId: 'm1' },
          });
          await flush();
          if (step.resize) {
            await stdout.resize(step.resize.cols, step.resize.rows);
            await flush();
          }
        }
        store.setState((s) => ({ ...withCells(s, [{ kind: 'agent', markdown: answer }]), live: EMPTY_LIVE, activeTurn: null }));
        await flush();
        if (resizeAfter) {
          await stdout.resize(resizeAfter.cols, resizeAfter.rows);
          await flush();
        }
        const text = logicalText(term);
        const at = blocks.map((_, i) => {
          const found = text.split(marker(i)).length - 1;
          expect(found, `${marker(i)} in:\n${text}`).toBe(1);
          return text.indexOf(marker(i));
        });
        expect(at).toEqual([...at].sort((a, b) => a - b));
        expect(text.split('question before the answer').length - 1).toBe(1);
        // The live area below it, once: one composer row, one footer.
        expect(text.split('Ask Tiller to do anything').length - 1).toBe(1);
        expect(text.split('? for shortcuts').length - 1).toBe(1);
        instance.unmount();
        instance = null;
        term.dispose();
        term = null;
      }),
      { numRuns: 200 },
    );
  });

  it('a burst of deltas released while a resize settles (the redraw) loses and repeats no block', { timeout: 240_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(caseArb, async ({ start, blocks, steps }) => {
        term = new xterm.Terminal({ cols: start.cols, rows: start.rows, allowProposedApi: true, convertEol: true, scrollback: 100_000 });
        const stdout = new ResizableStdout(term, start.cols, start.rows);
        const store = newStore();
        instance = render(<App store={store} now={() => 0} platform="linux" />, {
          stdout: inkStdout(stdout) as unknown as NodeJS.WriteStream,
          patchConsole: false,
          exitOnCtrlC: false,
          maxFps: 0,
        });
        await flush();
        const answer = blocks.map((kind, i) => BLOCKS[kind]!(i)).join('\n\n');
        store.setState({ activeTurn: { id: 't1', startedAt: 0 } });
        const cuts = [...steps].sort((a, b) => a.at - b.at);
        for (const [k, step] of cuts.entries()) {
          const size = step.resize ?? { cols: k % 2 === 0 ? 40 : 120, rows: k % 2 === 0 ? 10 : 40 };
          // The terminal re-flows at once; the burst (a frame of deltas each few ms) lands before the screen settles.
          stdout.resizeNow(size.cols, size.rows);
          const end = Math.max(1, Math.floor(step.at * answer.length));
          for (let part = 1; part <= 4; part++) {
            store.setState({ live: { ...EMPTY_LIVE, agentText: answer.slice(0, Math.ceil((end * part) / 4)), agentItemId: 'm1' } });
            await flush();
          }
          await new Promise((resolve) => setTimeout(resolve, RESIZE_SETTLE_MS + 2));
          await flush();
        }
        store.setState((s) => ({ ...withCells(s, [{ kind: 'agent', markdown: answer }]), live: EMPTY_LIVE, activeTurn: null }));
        await flush();
        const text = logicalText(term);
        const at = blocks.map((_, i) => {
          expect(text.split(marker(i)).length - 1, `${marker(i)} in:\n${text}`).toBe(1);
          return text.indexOf(marker(i));
        });
        expect(at).toEqual([...at].sort((a, b) => a - b));
        expect(text.split('Ask Tiller to do anything').length - 1).toBe(1);
        expect(text.split('? for shortcuts').length - 1).toBe(1);
        instance.unmount();
        instance = null;
        term.dispose();
        term = null;
      }),
      {
        numRuns: 50,
        // CI's find: on an 8-row screen the live area (a wrapped status line, an empty popup cut to
        // its `…` row) outgrew the terminal, and its top row stayed in the scrollback.
        examples: [
          [
            {
              start: { cols: 30, rows: 8 },
              blocks: [0, 0],
              steps: [
                { at: 0.018292682926829267, resize: { cols: 30, rows: 8 } },
                { at: 0, resize: undefined },
              ],
              resizeAfter: undefined,
            },
          ],
        ],
      },
    );
  });
});
