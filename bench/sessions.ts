/**
 * Sessions: resuming a large recorded thread (the real `tiller app-server` over stdio, and the real
 * TUI in a pty), listing 1,000 sessions, and what the draft journal costs. Figures are printed,
 * never asserted.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { writeSyntheticRollout, writeSyntheticSession } from '../test/runtime/support/synthetic-rollout.js';
import { startTiller } from '../test/support/pty.js';
import { DRAFT_DOCUMENT_VERSION, encodeDraftDocument, unsentInputOf } from '../src/tui/composer/draft-snapshot.js';
import { composerReducer, initialComposerState } from '../src/tui/composer/reducer.js';
import { createChatStore } from '../src/tui/store.js';
import { median, mib, ms, type BenchRow } from './lib.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, 'bin', 'tiller');
const RUNS = 3;

/** VmHWM (peak resident set) of a live process, in bytes. */
function peakRss(pid: number): number {
  const kb = /VmHWM:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return kb ? Number(kb[1]) * 1024 : NaN;
}

export interface AppServer {
  readonly pid: number;
  /** Sends a request; resolves with its answer (the whole message: `result` or `error`). */
  call(method: string, params: object): Promise<any>;
  /** Resolves at the next notification named `method` (ask before the request that causes it). */
  notified(method: string): Promise<void>;
  close(): void;
}

/** `tiller app-server` over stdio in `cwd`, offline, once it has answered `initialize`. */
export async function startAppServer(home: string, cwd: string): Promise<AppServer> {
  const child = spawn(process.execPath, [BIN, 'app-server'], {
    cwd,
    env: { ...process.env, TILLER_HOME: home, OPENAI_API_KEY: '', OPENAI_BASE_URL: '' },
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  const lines = createInterface({ input: child.stdout });
  const answers = new Map<number, (value: any) => void>();
  const notified = new Map<string, () => void>();
  lines.on('line', (line) => {
    const message = JSON.parse(line) as { id?: number; method?: string; result?: unknown; error?: unknown };
    if (typeof message.id === 'number') answers.get(message.id)?.(message);
    else if (typeof message.method === 'string') notified.get(message.method)?.();
  });
  let nextId = 0;
  const server: AppServer = {
    pid: child.pid!,
    call: (method, params) =>
      new Promise((resolve) => {
        const id = ++nextId;
        answers.set(id, resolve);
        child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
      }),
    notified: (method) => new Promise((resolve) => notified.set(method, resolve)),
    close() {
      // A line cut off by the kill is not parsed.
      lines.close();
      child.stdin.end();
      child.kill();
    },
  };
  await server.call('initialize', { clientInfo: { name: 'bench', version: '1' } });
  return server;
}

/**
 * `tiller app-server` with one request after initialize: its answer's wall time and the server's
 * peak RSS then. `then`: a second request sent right after the answer, and the notification that
 * ends it (its time from the first request's start, the peak RSS then).
 */
async function appServerRequest(
  home: string,
  cwd: string,
  method: string,
  params: object,
  then?: (result: any) => { method: string; params: object; until: string },
): Promise<{ ms: number; peak: number; result: any; thenMs: number; thenPeak: number }> {
  const server = await startAppServer(home, cwd);
  try {
    const t0 = performance.now();
    const answer = await server.call(method, params);
    const elapsed = performance.now() - t0;
    if (answer.error) throw new Error(`${method}: ${JSON.stringify(answer.error)}`);
    const peak = peakRss(server.pid);
    if (then === undefined) return { ms: elapsed, peak, result: answer.result, thenMs: NaN, thenPeak: NaN };
    const next = then(answer.result);
    const ended = server.notified(next.until);
    const second = await server.call(next.method, next.params);
    if (second.error) throw new Error(`${next.method}: ${JSON.stringify(second.error)}`);
    await ended;
    return { ms: elapsed, peak, result: answer.result, thenMs: performance.now() - t0, thenPeak: peakRss(server.pid) };
  } finally {
    server.close();
  }
}

async function resumeLargeRollout(): Promise<BenchRow[]> {
  const home = mkdtempSync(join(tmpdir(), 'tiller-bench-sessions-'));
  const cwd = mkdtempSync(join(tmpdir(), 'tiller-bench-cwd-'));
  try {
    const rollout = writeSyntheticRollout({ home, cwd, turns: 10_000, toolOutputChars: 1900, imageEvery: 50, imageChars: 100_000 });
    // On disk before it is resumed, as a session from yesterday is: its writeback must not run during the measure.
    execFileSync('sync');
    const size = mib(rollout.bytes);
    const server: Array<{ ms: number; peak: number }> = [];
    for (let i = 0; i < RUNS; i++) server.push(await appServerRequest(home, cwd, 'thread/resume', { threadId: rollout.threadId }));
    // As the TUI asks (the turns it shows), then a turn at once: it starts once the history is read back.
    const ready: Array<{ ms: number; peak: number; thenMs: number; thenPeak: number }> = [];
    for (let i = 0; i < RUNS; i++) {
      ready.push(
        await appServerRequest(home, cwd, 'thread/resume', { threadId: rollout.threadId, tillerTurnsLimit: 100 }, () => ({
          method: 'turn/start',
          params: { threadId: rollout.threadId, input: [{ type: 'text', text: 'go on', text_elements: [] }] },
          until: 'turn/started',
        })),
      );
    }
    const tui: Array<{ ms: number; peak: number; settled: number }> = [];
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      const pty = startTiller({ cols: 120, rows: 40, cwd, args: ['resume', rollout.threadId], env: { TILLER_HOME: home } });
      try {
        // The first frame with the resumed transcript: the last answer above the composer.
        await pty.waitFor((s) => s.includes('Ask Tiller to do anything') && s.includes('answer 9999:'), 60_000);
        const shown = { ms: performance.now() - t0, peak: peakRss(pty.pid) };
        // The history is read back behind the first frame: the peak once it is in.
        await new Promise((resolve) => setTimeout(resolve, 3000));
        tui.push({ ...shown, settled: peakRss(pty.pid) });
      } finally {
        pty.kill();
      }
    }
    return [
      {
        name: `thread/resume of a ${size} rollout (10,000 turns)`,
        value: `${ms(median(server.map((r) => r.ms)))} · peak ${mib(median(server.map((r) => r.peak)))}`,
        note: `median of ${RUNS}; tiller app-server over stdio (the whole thread as JSON), tool output and an image every 50 turns`,
      },
      {
        name: `thread/resume with tillerTurnsLimit 100 / then a turn started (the history read back)`,
        value: `${ms(median(ready.map((r) => r.ms)))} / ${ms(median(ready.map((r) => r.thenMs)))} · peak ${mib(median(ready.map((r) => r.thenPeak)))}`,
        note: `median of ${RUNS}; turn/start sent as soon as the resume answered; turn/started's time from the resume's start, peak RSS then`,
      },
      {
        name: `tiller resume <id> of the same rollout: launch to the transcript on screen`,
        value: `${ms(median(tui.map((r) => r.ms)))} · peak ${mib(median(tui.map((r) => r.peak)))} (${mib(median(tui.map((r) => r.settled)))} 3 s later)`,
        note: `median of ${RUNS}; the real TUI in a pty 120×40, peak RSS of the process then and once the history is read back; goal ≤ 1 s, ≤ 250 MiB`,
      },
    ];
  } finally {
    rmSync(home, { recursive: true, force: true });
    rmSync(cwd, { recursive: true, force: true });
  }
}

async function listThousandSessions(): Promise<BenchRow[]> {
  const home = mkdtempSync(join(tmpdir(), 'tiller-bench-list-'));
  const cwd = mkdtempSync(join(tmpdir(), 'tiller-bench-cwd-'));
  try {
    for (let i = 0; i < 1000; i++) await writeSyntheticSession({ home, cwd, turns: 3 });
    const first: number[] = [];
    const search: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      first.push((await appServerRequest(home, cwd, 'thread/list', { limit: 50 })).ms);
      search.push((await appServerRequest(home, cwd, 'thread/list', { limit: 50, searchTerm: 'no such words anywhere' })).ms);
    }
    return [
      {
        name: 'thread/list over 1,000 sessions: first page of 50',
        value: ms(median(first)),
        note: `median of ${RUNS}; newest first, from the meta files`,
      },
      {
        name: 'thread/list over 1,000 sessions: a search matching none',
        value: ms(median(search)),
        note: `median of ${RUNS}; every session's preview read`,
      },
    ];
  } finally {
    rmSync(home, { recursive: true, force: true });
    rmSync(cwd, { recursive: true, force: true });
  }
}

/** What the journal adds: one snapshot of a draft with a 5,000-char paste, encoded (it runs at most 4 times a second). */
function journalCost(): BenchRow[] {
  let composer = initialComposerState({ vimEnabled: false, probeMedia: () => null, disablePasteBurst: true });
  composer = composerReducer(composer, { type: 'paste', text: 'x'.repeat(5000) }, 0).state;
  for (const ch of 'and some typed words')
    composer = composerReducer(
      composer,
      { type: 'key', name: 'char', char: ch, ctrl: false, alt: false, shift: false, meta: false, kind: 'press' },
      100,
    ).state;
  const store = createChatStore(composer, { model: 'm', offline: true });
  const times: number[] = [];
  for (let i = 0; i < 2000; i++) {
    const t0 = performance.now();
    const s = store.getState();
    encodeDraftDocument({
      version: DRAFT_DOCUMENT_VERSION,
      cwd: '/tmp',
      threadId: null,
      pid: process.pid,
      ...unsentInputOf(s.composer, s),
    });
    times.push(performance.now() - t0);
  }
  return [
    {
      name: 'draft journal: encode a draft with a 5,000-char paste',
      value: `${(median(times) * 1000).toFixed(0)} µs`,
      note: 'median of 2,000; written at most every 250 ms off the keystroke path (keystroke latency: the tui section)',
    },
  ];
}

export default async function run(): Promise<BenchRow[]> {
  return [...(await resumeLargeRollout()), ...(await listThousandSessions()), ...journalCost()];
}
