/**
 * The chat screen as a person meets it: the real bin in a pseudo-terminal (test/support/pty.ts),
 * against the fake Responses server where a model is needed. Figures are printed, never asserted.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startTiller } from '../test/support/pty.js';
import { median, mib, ms, percentile, type BenchRow } from './lib.js';
import { goalRows } from './peers/goals.js';
import { comparisonRows, isPeer, measureClients, setUpPeers, TRANSCRIPT_TURNS } from './peers/compare.js';
import { KEYSTROKES, launched, launchToFirstFrame, RUNS, type Runs, sleep, stop, TILLER, timeUntilOutput } from './pty-bench.js';

const BIN_DIR = fileURLToPath(new URL('../node_modules/.bin/', import.meta.url));

/**
 * A TILLER_HOME whose config.toml has three stdio MCP servers: the two reference servers and a
 * program that never answers `initialize` (it exits when its stdin closes).
 */
function homeWithMcpServers(): string {
  const home = mkdtempSync(join(tmpdir(), 'tiller-bench-mcp-'));
  const files = join(home, 'files');
  mkdirSync(files);
  const toml = (value: string | string[]): string => JSON.stringify(value);
  const silent = "process.stdin.resume(); process.stdin.on('end', () => process.exit(0));";
  writeFileSync(
    join(home, 'config.toml'),
    [
      '[mcp_servers.everything]',
      `command = ${toml(join(BIN_DIR, 'mcp-server-everything'))}`,
      '',
      '[mcp_servers.files]',
      `command = ${toml(join(BIN_DIR, 'mcp-server-filesystem'))}`,
      `args = ${toml([files])}`,
      '',
      '[mcp_servers.silent]',
      `command = ${toml(process.execPath)}`,
      `args = ${toml(['-e', silent])}`,
      '',
    ].join('\n'),
  );
  return home;
}

/** Launch to first frame with no MCP server and with three, the runs interleaved so both see the same machine. */
async function launchWithMcpServers(): Promise<{ none: number[]; three: number[] }> {
  const homes = { none: mkdtempSync(join(tmpdir(), 'tiller-bench-nomcp-')), three: homeWithMcpServers() };
  const out = { none: [] as number[], three: [] as number[] };
  for (let i = 0; i < RUNS; i++) {
    for (const kind of ['none', 'three'] as const) {
      const t0 = performance.now();
      const pty = startTiller({ cols: 120, rows: 40, env: { TILLER_HOME: homes[kind] } });
      await pty.waitFor(TILLER.ready, 30_000);
      out[kind].push(performance.now() - t0);
      // Let the servers start behind the first frame before the process goes (they end with their stdin).
      await sleep(kind === 'three' ? 300 : 0);
      await stop(pty);
    }
  }
  return out;
}

/** From a resize to the transcript printed again at the new width, with `turns` finished turns. */
async function redrawAfterResize(turns: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const pty = await launched({ env: { TILLER_BENCH_PREFILL: String(turns) } });
    try {
      await sleep(300);
      out.push(await timeUntilOutput(pty, `Answer number ${turns}:`, () => pty.resize(i % 2 === 0 ? 100 : 140, 40)));
    } finally {
      await stop(pty);
    }
  }
  return out;
}

/** Tiller's own figure from the shared measures: without it the section has nothing to print. */
function tillerRuns(runs: Runs): number[] {
  if (runs instanceof Error) throw runs;
  return runs;
}

export default async function run(): Promise<BenchRow[]> {
  const peers = await setUpPeers();
  try {
    return await rowsWithPeers(peers);
  } finally {
    for (const peer of peers.filter(isPeer)) await peer.shutdown?.();
  }
}

async function rowsWithPeers(peers: Awaited<ReturnType<typeof setUpPeers>>): Promise<BenchRow[]> {
  const [tiller, ...others] = await measureClients([TILLER, ...peers.filter(isPeer)]);
  const rows: BenchRow[] = [];
  rows.push({
    name: 'launch to first composer frame',
    value: ms(median(tillerRuns(tiller!.launch))),
    note: `median of ${RUNS}, pty 120×40, interleaved with the peers`,
  });
  rows.push({
    name: `launch to first composer frame, ${TRANSCRIPT_TURNS.toLocaleString('en')} finished turns`,
    value: ms(median(tillerRuns(tiller!.resumeLaunch))),
    note: `median of ${RUNS}, interleaved; TILLER_BENCH_PREFILL, until the last answer and the composer are on screen`,
  });
  // Tiller's composer is up before its transcript is: the rest prints over the next frames.
  const [composerFirst] = await launchToFirstFrame([{ ...TILLER, options: { env: { TILLER_BENCH_PREFILL: String(TRANSCRIPT_TURNS) } } }]);
  rows.push({
    name: `launch to the composer, ${TRANSCRIPT_TURNS.toLocaleString('en')} finished turns printing behind it`,
    value: ms(median(tillerRuns(composerFirst!))),
    note: `median of ${RUNS}; TILLER_BENCH_PREFILL, until the composer is on screen (the transcript prints 400 rows a frame, in order)`,
  });
  const mcp = await launchWithMcpServers();
  rows.push({
    name: 'launch to first composer frame, 3 MCP servers / none',
    value: `${ms(median(mcp.three))} / ${ms(median(mcp.none))}`,
    note: `median of ${RUNS} each, interleaved; stdio: server-everything, server-filesystem, one that never answers`,
  });
  for (const [label, runs] of [
    ['empty transcript', tiller!.keys],
    [`${TRANSCRIPT_TURNS} finished turns`, tiller!.resumeKeys],
  ] as const) {
    const lat = tillerRuns(runs);
    rows.push({
      name: `keystroke to frame p50 / p99 (${label})`,
      value: `${ms(percentile(lat, 50))} / ${ms(percentile(lat, 99))}`,
      note: `${KEYSTROKES} keys; a lone first char is drawn at once (the paste-burst detector holds it, the screen does not)`,
    });
  }
  rows.push({
    name: '1 MiB bracketed paste to placeholder on screen',
    value: ms(median(tillerRuns(tiller!.paste))),
    note: `median of ${RUNS}, interleaved with the peers`,
  });
  rows.push({
    name: 'CPU from launch to 5 s after the composer',
    value: ms(median(tillerRuns(tiller!.launchCpu))),
    note: `median of ${RUNS}, interleaved with the peers; /proc utime+stime of the process tree`,
  });
  rows.push({
    name: 'Enter to first delta on screen',
    value: ms(median(tillerRuns(tiller!.firstDelta))),
    note: `median of ${RUNS}, interleaved; the fake server answers at once, so this is Tiller's request and first frame`,
  });
  rows.push({
    name: 'CPU to stream and render a 10,000-delta answer',
    value: ms(median(tillerRuns(tiller!.longAnswer))),
    note: `median of ${RUNS}, interleaved; whole process (SDK, runtime, store, Ink), fake server, from 2 s after the first frame`,
  });
  const redraw = await redrawAfterResize(1000);
  rows.push({
    name: 'resize to the transcript redrawn, 1,000 finished turns',
    value: ms(median(redraw)),
    note: `median of ${RUNS}; the screen and scrollback are cleared and every turn is laid out again at the new width`,
  });
  if (tiller!.idle instanceof Error) throw tiller!.idle;
  const still = tiller!.idle;
  rows.push({
    name: 'CPU in the 12 s after the first frame',
    value: ms(still.settling),
    note: "the runtime loading behind the first frame, V8's one memory-reducer GC",
  });
  rows.push({ name: 'CPU used in 10 s idle', value: ms(still.cpu), note: 'from 12 s after launch; /proc utime+stime, 10 ms ticks' });
  rows.push({
    name: 'idle RSS',
    value: mib(still.rss),
    note: `VmRSS 22 s after launch, summed over its process tree (${still.processes.length} process${still.processes.length === 1 ? '' : 'es'})`,
  });
  rows.push(...comparisonRows(tiller!, peers, others));
  rows.push(...goalRows(tiller!, peers, others));
  return rows;
}
