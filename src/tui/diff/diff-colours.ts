/**
 * Syntax colour for diff rows without holding the screen's thread: lines are highlighted in a
 * worker (highlight-worker.ts, dist/highlight-worker.mjs in the bundle) and kept here by language
 * and text. A line asked for the first time comes back null (drawn plain) and is sent to the
 * worker with the others of that frame; `pending()` says colours are on their way, so the printer
 * holds a patch cell for them (the scrollback is never rewritten), and `onColours` redraws once they
 * came. Where the worker's file is missing (tests run from the sources) the lines are coloured in
 * this thread through markdown.ts's highlighter, as before.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Worker } from 'node:worker_threads';
import type { ChalkInstance } from 'chalk';
import { codeTheme, type HastNode, renderHast } from '../highlight-theme.js';
import { highlightLine } from '../markdown.js';
import type { HighlightAnswer, HighlightRequest } from './highlight-worker.js';

/** Lines kept coloured; past this the oldest go (a long session's diffs are not all on screen again). */
const MAX_CACHED = 20_000;

const WORKER_URL = new URL('./highlight-worker.mjs', import.meta.url);

const trees = new Map<string, unknown[] | null>();
const queued = new Map<string, Set<string>>();
const listeners = new Set<() => void>();
let worker: Worker | null | 'none' = null;
let starting: Promise<void> | null = null;
let inFlight = 0;
let nextId = 1;
const sent = new Map<number, { language: string; lines: string[] }>();
/** Lines sent or queued and not answered yet. */
const asked = new Set<string>();
let flushScheduled = false;

const keyOf = (language: string, text: string): string => `${language}\u0000${text}`;

function workerAvailable(): boolean {
  if (worker === 'none') return false;
  if (worker !== null || starting !== null) return true;
  if (WORKER_URL.protocol !== 'file:' || !existsSync(fileURLToPath(WORKER_URL))) {
    worker = 'none';
    return false;
  }
  return true;
}

/** Without a worker (it failed): what was waiting is drawn plain, and the screen is told. */
function giveUp(): void {
  worker = 'none';
  for (const request of sent.values()) for (const line of request.lines) trees.set(keyOf(request.language, line), null);
  for (const [language, lines] of queued) for (const line of lines) trees.set(keyOf(language, line), null);
  sent.clear();
  queued.clear();
  asked.clear();
  inFlight = 0;
  for (const listener of listeners) listener();
}

function start(): Promise<void> {
  starting ??= import('node:worker_threads').then(({ Worker }) => {
    const thread = new Worker(WORKER_URL);
    // The screen's thread may exit while it works: it never keeps Tiller running.
    thread.unref();
    thread.on('message', (answer: HighlightAnswer) => {
      const request = sent.get(answer.id);
      if (request === undefined) return;
      sent.delete(answer.id);
      inFlight -= 1;
      request.lines.forEach((line, i) => {
        const key = keyOf(request.language, line);
        asked.delete(key);
        trees.set(key, answer.trees[i] ?? null);
      });
      while (trees.size > MAX_CACHED) trees.delete(trees.keys().next().value!);
      for (const listener of listeners) listener();
    });
    thread.on('error', giveUp);
    thread.on('exit', () => {
      if (inFlight > 0 || queued.size > 0) giveUp();
    });
    worker = thread;
  }, giveUp);
  return starting;
}

function flush(): void {
  flushScheduled = false;
  if (worker === 'none') return giveUp();
  if (worker === null) {
    void start().then(flush);
    return;
  }
  for (const [language, lines] of queued) {
    const id = nextId++;
    const request: HighlightRequest = { id, language, lines: [...lines] };
    sent.set(id, { language, lines: request.lines });
    inFlight += 1;
    worker.postMessage(request);
  }
  queued.clear();
}

function ask(language: string, text: string): void {
  asked.add(keyOf(language, text));
  let lines = queued.get(language);
  if (lines === undefined) queued.set(language, (lines = new Set()));
  lines.add(text);
  if (!flushScheduled) {
    flushScheduled = true;
    // The frame's other lines join this one in the same message.
    setImmediate(flush);
  }
}

/** `text` in `language`'s colours; null while they are on their way or where there are none. */
export function colouredLine(text: string, language: string, c: ChalkInstance): string | null {
  if (!workerAvailable()) return highlightLine(text, language, c);
  const key = keyOf(language, text);
  const tree = trees.get(key);
  if (tree === undefined) {
    if (!asked.has(key)) ask(language, text);
    return null;
  }
  if (tree === null) return null;
  const theme = codeTheme(c);
  return tree.map((node) => renderHast(node as HastNode, theme)).join('');
}

/** Colours were asked for and have not come yet. */
export function diffColoursPending(): boolean {
  return inFlight > 0 || queued.size > 0 || (starting !== null && worker === null);
}

/** Called whenever colours came (or will not come); returns the unsubscribe. */
export function onDiffColours(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
