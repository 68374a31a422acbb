/**
 * The chat screen and the app server at sizes a long day reaches: a 1 MiB restored draft, 10,000
 * turns, a 5 MB answer, a command printing 20 MB on one line, a 300,000-char paste, 1,000 real turns,
 * 5,000 text-element ranges. The real bin in a pty 120×40 against the fake Responses server (as
 * tui.ts), the real `tiller app-server` over stdio (as sessions.ts). Figures are printed, never asserted.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cwdDraftPrefix } from '../src/tui/chat/sessions/draft-journal.js';
import { DRAFT_DOCUMENT_VERSION, encodeDraftDocument, unsentInputOf } from '../src/tui/composer/draft-snapshot.js';
import { composerReducer, initialComposerState } from '../src/tui/composer/reducer.js';
import { PASTE_BURST_CHAR_INTERVAL } from '../src/tui/composer/paste-burst.js';
import { FakeResponsesServer } from '../test/support/fake-responses-server.js';
import type { StartOptions, TillerPty } from '../test/support/pty.js';
import { median, mib, ms, percentile, type BenchRow } from './lib.js';
import { KEYSTROKES, keystrokeLatencies, launched, rssBytes, sleep, stop, timeKeystrokes, timeUntilOutput } from './pty-bench.js';
import { startAppServer } from './sessions.js';

const RUNS = 3;
/** Keys timed on the 1 MiB draft: each takes about a second there, so fewer than elsewhere. */
const DRAFT_KEYSTROKES = 25;
/** Keys timed while the command prints. */
const COMMAND_KEYSTROKES = 40;
const BIG_OUTPUT = 20_000_000;
const BIG_COMMAND = `head -c ${BIG_OUTPUT} /dev/zero | tr '\\0' x`;
/** The same 20 MB on one line, printed over 8 s: the one above ends before 40 keys are typed. */
const SLOW_BIG_COMMAND = `for i in $(seq 80); do head -c ${BIG_OUTPUT / 80} /dev/zero | tr '\\0' x; sleep 0.1; done`;
const PASTE_CHARS = 300_000;
/** Long turns (a 5 MB stream, 20 MB of output) get minutes, not the default 30 s. */
const LONG_MS = 300_000;
const FULL_ACCESS = ['-a', 'never', '-s', 'danger-full-access'];

const WORDS = [
  'the',
  'draft',
  'keeps',
  'every',
  'word',
  'typed',
  'and',
  'not',
  'yet',
  'sent',
  'across',
  'a',
  'crash',
  'of',
  'the',
  'terminal',
  'session',
  'so',
  'nothing',
  'is',
  'lost',
];

/** Lower-case words in lines of about 100 chars, `bytes` long. */
function wordText(bytes: number): string {
  const lines: string[] = [];
  let size = 0;
  for (let k = 0; size < bytes; ) {
    let line = WORDS[k++ % WORDS.length]!;
    while (line.length < 100) line += ` ${WORDS[(k++ * 7) % WORDS.length]}`;
    lines.push(line);
    size += line.length + 1;
  }
  return lines.join('\n').slice(0, bytes);
}

async function withServer<T>(fn: (server: FakeResponsesServer, env: StartOptions['env']) => Promise<T>): Promise<T> {
  const server = await FakeResponsesServer.start();
  try {
    return await fn(server, { OPENAI_BASE_URL: server.baseUrl, OPENAI_API_KEY: 'dummy' });
  } finally {
    await server.close();
  }
}

/** Tiller's runtime loads behind its first frame: a measure starts once it is in, as a person's first prompt does. */
async function settled(options: StartOptions): Promise<TillerPty> {
  const pty = await launched(options);
  await sleep(2_000);
  return pty;
}

/**
 * Types one character and waits until a frame shows it, then as long as a person would at least: an
 * Enter within the paste-burst window after a character is a pasted newline, not a key of its own.
 */
async function typed(pty: TillerPty, ch: string): Promise<number> {
  const shown = await timeUntilOutput(pty, ch, () => pty.write(ch));
  await sleep(PASTE_BURST_CHAR_INTERVAL * 3);
  return shown;
}

/** The turn's answer is on screen and the turn is over (no spinner): the composer sends again. */
function turnEnded(pty: TillerPty, answer: string, timeoutMs = 30_000): Promise<string> {
  return pty.waitFor((s) => s.includes(answer) && !s.includes('esc to interrupt'), timeoutMs);
}

/**
 * A 1 MiB draft left by a Tiller that is gone, as the journal writes it (drafts/cwd-<hash>-<pid>.json),
 * restored at launch; keys typed at its end. The draft ends with a short line, so the typed keys fit
 * on it.
 */
async function keystrokesOnRestoredDraft(): Promise<number[]> {
  const home = mkdtempSync(join(tmpdir(), 'tiller-bench-draft-'));
  // Tiller compares the journal's cwd with process.cwd(), which has symlinks resolved.
  const cwd = realpathSync(mkdtempSync(join(tmpdir(), 'tiller-bench-cwd-')));
  try {
    const text = `${wordText(1024 * 1024 - 8)}\nthe end`;
    const composer = composerReducer(
      initialComposerState({ vimEnabled: false, probeMedia: () => null, disablePasteBurst: true }),
      { type: 'externalEditResult', text },
      0,
    ).state;
    // A pid that has exited: its owner is gone, so the launch takes the draft over.
    const pid = spawnSync('true').pid;
    const unsent = unsentInputOf(composer, { pendingSteers: [], rejectedSteers: [], queued: [] });
    mkdirSync(join(home, 'drafts'));
    writeFileSync(
      join(home, 'drafts', `${cwdDraftPrefix(cwd)}${pid}.json`),
      encodeDraftDocument({ version: DRAFT_DOCUMENT_VERSION, cwd, threadId: null, pid, ...unsent }),
    );
    const pty = await settled({ cwd, env: { TILLER_HOME: home } });
    try {
      await pty.waitFor((s) => s.includes('Restored your unsent draft') && s.includes('\n  the end'), 60_000);
      return await timeKeystrokes(pty, DRAFT_KEYSTROKES);
    } finally {
      await stop(pty);
    }
  } finally {
    rmSync(home, { recursive: true, force: true });
    rmSync(cwd, { recursive: true, force: true });
  }
}

/** A 5 MB answer streamed as 50,000 deltas of about 100 chars, a paragraph every 10; keys once the turn is over. */
async function keystrokesAfterLongAnswer(): Promise<{ bytes: number; streamMs: number; lat: number[] }> {
  const words = wordText(94);
  const deltas = Array.from({ length: 50_000 }, (_, k) => `${k} ${words}${k % 10 === 9 ? '\n\n' : ' '}`);
  deltas.push('the long answer ends here');
  return withServer(async (server, env) => {
    server.enqueue({ deltas });
    const pty = await settled({ env });
    try {
      await typed(pty, 'g');
      const t0 = performance.now();
      pty.press('enter');
      await turnEnded(pty, 'the long answer ends here', LONG_MS);
      const streamMs = performance.now() - t0;
      await sleep(500);
      return { bytes: deltas.join('').length, streamMs, lat: await timeKeystrokes(pty) };
    } finally {
      await stop(pty);
    }
  });
}

/** Keys typed right after Enter, as the turn starts, before they are timed while the command prints. */
const START_KEYSTROKES = 3;

/**
 * Keys from right after Enter (the request, the model's shell call, the spawn), then, once the
 * command's output is on screen, while it prints.
 */
async function keystrokesDuringCommand(): Promise<{ start: number[]; lat: number[]; endedFirst: boolean }> {
  return withServer(async (server, env) => {
    server.enqueue(
      { functionCall: { name: 'shell', arguments: { command: SLOW_BIG_COMMAND }, callId: 'call_scale_keys' } },
      { text: 'the command is done' },
    );
    const pty = await settled({ args: FULL_ACCESS, env });
    try {
      await typed(pty, 'g');
      pty.press('enter');
      const start = await timeKeystrokes(pty, START_KEYSTROKES, true);
      pty.press('ctrl-u');
      await pty.waitFor((screen) => screen.includes('│ xxxxxxxxxxxxxxxx'), LONG_MS);
      const lat = await timeKeystrokes(pty, COMMAND_KEYSTROKES, true);
      // The follow-up request carries the output: sent already, the command ended before the last key.
      return { start, lat, endedFirst: server.requests.length > 1 };
    } finally {
      await stop(pty);
    }
  });
}

/** Enter → the request at the server / the answer on screen, for a prompt `prepare` put in the composer. */
async function submitTimes(
  options: StartOptions,
  script: (server: FakeResponsesServer, run: number) => { answer: string; requests: number },
  prepare: (pty: TillerPty) => Promise<unknown>,
): Promise<{ request: number[]; answer: number[] }> {
  const out = { request: [] as number[], answer: [] as number[] };
  for (let i = 0; i < RUNS; i++) {
    await withServer(async (server, env) => {
      const { answer, requests } = script(server, i);
      const pty = await settled({ ...options, env });
      try {
        await prepare(pty);
        const t0 = performance.now();
        const shown = timeUntilOutput(pty, answer, () => pty.press('enter'), LONG_MS);
        await server.waitForRequests(requests, LONG_MS);
        out.request.push(performance.now() - t0);
        out.answer.push(await shown);
      } finally {
        await stop(pty);
      }
    });
  }
  return out;
}

function submitPaste(): Promise<{ request: number[]; answer: number[] }> {
  const text = wordText(PASTE_CHARS).replaceAll('\n', ' ');
  return submitTimes(
    {},
    (server, run) => {
      server.enqueue({ text: `paste answer ${run}` });
      return { answer: `paste answer ${run}`, requests: 1 };
    },
    async (pty) => {
      pty.paste(text);
      await pty.waitFor(`[Pasted Content ${PASTE_CHARS} chars]`, 60_000);
    },
  );
}

function commandEndToEnd(): Promise<{ request: number[]; answer: number[] }> {
  return submitTimes(
    { args: FULL_ACCESS },
    (server, run) => {
      server.enqueue(
        { functionCall: { name: 'shell', arguments: { command: BIG_COMMAND }, callId: `call_scale_${run}` } },
        { text: `command answer ${run}` },
      );
      return { answer: `command answer ${run}`, requests: 2 };
    },
    (pty) => typed(pty, 'g'),
  );
}

/** One-character prompts sent one after another, each once the turn before it is over. */
async function realTurns(pty: TillerPty, server: FakeResponsesServer, from: number, to: number): Promise<void> {
  for (let n = from; n <= to; n++) {
    await typed(pty, 'q');
    pty.press('enter');
    await server.waitForRequests(n, 30_000);
    await turnEnded(pty, `answer ${n}.`);
  }
}

/** RSS once V8's memory-reducing GC has run after a burst of work (about 8 s after it). */
const RSS_SETTLE_MS = 12_000;

interface RssAt {
  /** 1 s after the last answer: what is kept plus the garbage no GC has collected yet. */
  soon: number;
  /** RSS_SETTLE_MS after it: what is kept. */
  settled: number;
}

async function rssAfterTurns(pty: TillerPty): Promise<RssAt> {
  await sleep(1000);
  const soon = rssBytes(pty.pid);
  await sleep(RSS_SETTLE_MS - 1000);
  return { soon, settled: rssBytes(pty.pid) };
}

/** RSS after the 10th and the 1,000th real turn, and with 10,000 prefilled turns and one real one. */
async function rssByTurns(): Promise<{ ten: RssAt; thousand: RssAt; prefilled: number; thousandMs: number }> {
  return withServer(async (server, env) => {
    // Numbered answers, so each turn's end is its own to wait for.
    server.respondWith(() => ({ text: `answer ${server.requests.length}.` }));
    const pty = await launched({ env });
    let ten: RssAt;
    let thousand: RssAt;
    let thousandMs: number;
    try {
      await realTurns(pty, server, 1, 10);
      ten = await rssAfterTurns(pty);
      const t0 = performance.now();
      await realTurns(pty, server, 11, 1000);
      thousandMs = performance.now() - t0;
      thousand = await rssAfterTurns(pty);
    } finally {
      await stop(pty);
    }
    // The one real turn loads the runtime, as the session above had it loaded.
    const before = server.requests.length;
    const filled = await launched({ env: { ...env, TILLER_BENCH_PREFILL: '10000' } });
    try {
      await realTurns(filled, server, before + 1, before + 1);
      await sleep(1000);
      return { ten, thousand, prefilled: rssBytes(filled.pid), thousandMs };
    } finally {
      await stop(filled);
    }
  });
}

/** turn/start with a 1 MiB text and 5,000 empty ranges at its end; a turn/interrupt written right behind it. */
async function turnStartWithRanges(): Promise<{ start: number[]; interrupt: number[] }> {
  const home = mkdtempSync(join(tmpdir(), 'tiller-bench-ranges-'));
  const cwd = mkdtempSync(join(tmpdir(), 'tiller-bench-cwd-'));
  const text = wordText(1024 * 1024);
  const end = Buffer.byteLength(text);
  const textElements = Array.from({ length: 5000 }, () => ({ byteRange: { start: end, end }, placeholder: null }));
  const out = { start: [] as number[], interrupt: [] as number[] };
  try {
    for (let i = 0; i < RUNS; i++) {
      const server = await startAppServer(home, cwd);
      try {
        const started = await server.call('thread/start', { cwd });
        if (started.error) throw new Error(`thread/start: ${JSON.stringify(started.error)}`);
        const threadId: string = started.result.thread.id;
        const timed = async (method: string, params: object): Promise<number> => {
          const t0 = performance.now();
          const answer = await server.call(method, params);
          if (answer.error) throw new Error(`${method}: ${JSON.stringify(answer.error)}`);
          return performance.now() - t0;
        };
        // The turn id is not known yet: the empty one interrupts whatever runs (Codex's startup interrupt).
        const [start, interrupt] = await Promise.all([
          timed('turn/start', { threadId, input: [{ type: 'text', text, text_elements: textElements }] }),
          timed('turn/interrupt', { threadId, turnId: '' }),
        ]);
        out.start.push(start);
        out.interrupt.push(interrupt);
      } finally {
        server.close();
      }
    }
    return out;
  } finally {
    rmSync(home, { recursive: true, force: true });
    rmSync(cwd, { recursive: true, force: true });
  }
}

const p50p99 = (lat: number[]): string => `${ms(percentile(lat, 50))} / ${ms(percentile(lat, 99))}`;

export default async function run(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const draft = await keystrokesOnRestoredDraft();
  rows.push({
    name: 'keystroke to frame p50 / p99, 1 MiB restored draft',
    value: p50p99(draft),
    note: `${DRAFT_KEYSTROKES} keys typed at its end, pty 120×40; 1,048,576 chars of words in lines of ~100, written to the journal before launch and restored by it`,
  });
  const prefilled = await keystrokeLatencies(10_000);
  rows.push({
    name: 'keystroke to frame p50 / p99, 10,000 finished turns',
    value: p50p99(prefilled),
    note: `${KEYSTROKES} keys, pty 120×40; TILLER_BENCH_PREFILL, as the tui section's 1,000`,
  });
  const long = await keystrokesAfterLongAnswer();
  rows.push({
    name: 'keystroke to frame p50 / p99, a 5 MB answer on screen',
    value: p50p99(long.lat),
    note: `${KEYSTROKES} keys once the turn is over, pty 120×40; ${(long.bytes / 1e6).toFixed(1)} MB in 50,000 deltas from the fake server, streamed and rendered in ${ms(long.streamMs)}`,
  });
  const during = await keystrokesDuringCommand();
  rows.push({
    name: 'keystroke to frame p50 / p99, while a command prints 20 MB on one line',
    value: p50p99(during.lat),
    note: `${COMMAND_KEYSTROKES} keys once its output is on screen, pty 120×40; \`${SLOW_BIG_COMMAND}\` (the plain \`head -c\` one ends in ~3 s, before 40 keys)${during.endedFirst ? ', it ended before the last key' : ', still running at the last key'}`,
  });
  rows.push({
    name: `keystroke to frame, the first ${START_KEYSTROKES} keys right after that Enter`,
    value: during.start.map(ms).join(' / '),
    note: 'typed as the turn starts, in order: the request goes out, the shell call comes back, the command is spawned and its first output drawn; the first turn of the session',
  });
  const paste = await submitPaste();
  rows.push({
    name: `submit of a ${PASTE_CHARS.toLocaleString('en-US')}-char one-line paste: request sent / answer on screen`,
    value: `${ms(median(paste.request))} / ${ms(median(paste.answer))}`,
    note: `median of ${RUNS}; bracketed paste to its placeholder, then Enter → the fake server has the request / the answer's text is drawn`,
  });
  const command = await commandEndToEnd();
  rows.push({
    name: 'a 20 MB one-line command output: follow-up request / answer on screen',
    value: `${ms(median(command.request))} / ${ms(median(command.answer))}`,
    note: `median of ${RUNS}; from Enter: the model's shell call runs \`${BIG_COMMAND}\`, its output goes back in the next request`,
  });
  const rss = await rssByTurns();
  const ratio = (at: keyof RssAt): string =>
    `${mib(rss.ten[at])} / ${mib(rss.thousand[at])} (× ${(rss.thousand[at] / rss.ten[at]).toFixed(2)})`;
  rows.push({
    name: 'RSS: 10 / 1,000 real turns, settled · 1 s after the last answer · 10,000 prefilled turns',
    value: `${ratio('settled')} · ${ratio('soon')} · ${mib(rss.prefilled)}`,
    note: `VmRSS, one run; settled: ${RSS_SETTLE_MS / 1000} s after the last answer, once V8's memory-reducing GC has run (what is kept); 1 s after it the GC has not collected the last turns' garbage yet; V8's young generation is held at 8 MiB (src/young-generation.ts); one-char prompts against the fake server in one session (the 990 more took ${ms(rss.thousandMs)}); the prefilled one (TILLER_BENCH_PREFILL) 1 s after one real turn, so its runtime is loaded too`,
  });
  const ranges = await turnStartWithRanges();
  rows.push({
    name: 'app-server turn/start, 1 MiB text with 5,000 text-element ranges / turn/interrupt right behind it',
    value: `${ms(median(ranges.start))} / ${ms(median(ranges.interrupt))}`,
    note: `median of ${RUNS}; tiller app-server over stdio, each from its request to its answer; empty ranges at the text's end; the interrupt (empty turn id) is queued behind the turn's start and answered once that turn has ended`,
  });
  return rows;
}
