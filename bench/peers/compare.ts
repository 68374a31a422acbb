/**
 * Tiller against its peers in one run: every peer set up first (installed on first use; one that
 * cannot be gets '-' rows), then the same measures for every client, the launches and the long
 * answers interleaved. bench/tui.ts prints Tiller's own rows from the same figures.
 */
import { type BenchRow, median, mib, ms, percentile } from '../lib.js';
import type { MissingPeer, PeerClient } from '../peer.js';
import {
  cpuForLongAnswer,
  cpuLaunchToSettled,
  firstDeltaOnScreen,
  type Idle,
  idle,
  KEYSTROKES,
  keystrokeLatencies,
  launchToFirstFrame,
  pasteToPlaceholder,
  resumed,
  RUNS,
  type Runs,
} from '../pty-bench.js';
import { CLAUDE_CODE_LABEL, claudeCodePeer } from './claude-code.js';
import { CODEX_LABEL, codexPeer } from './codex.js';
import { OPENCODE_LABEL, openCodePeer } from './opencode.js';

export const TRANSCRIPT_TURNS = 1000;

export interface Figures {
  launch: Runs;
  /** Launch into a recorded session of TRANSCRIPT_TURNS turns, written in the client's own format. */
  resumeLaunch: Runs;
  keys: Runs;
  /** Keystrokes with that session on screen. */
  resumeKeys: Runs;
  idle: Idle | Error;
  longAnswer: Runs;
  firstDelta: Runs;
  paste: Runs;
  /** CPU of the process tree from launch until 5 s after the composer is up. */
  launchCpu: Runs;
}

const failure = (error: unknown): Error => (error instanceof Error ? error : new Error(String(error)));
export const isPeer = (peer: PeerClient | MissingPeer): peer is PeerClient => 'options' in peer;

/** The peers in a fixed order, each set up or with the reason it could not be. */
export async function setUpPeers(): Promise<Array<PeerClient | MissingPeer>> {
  const out: Array<PeerClient | MissingPeer> = [];
  // BENCH_PEERS="Codex,Claude" keeps only the peers whose label contains one of the names.
  const wanted = process.env.BENCH_PEERS?.split(',').map((name) => name.trim().toLowerCase());
  for (const [label, setUp] of [
    [CODEX_LABEL, codexPeer],
    [CLAUDE_CODE_LABEL, claudeCodePeer],
    [OPENCODE_LABEL, openCodePeer],
  ] as const) {
    if (wanted !== undefined && !wanted.some((name) => label.toLowerCase().includes(name))) continue;
    out.push(await setUp().catch((error: unknown) => ({ label, reason: failure(error).message.split('\n')[0]! })));
  }
  return out;
}

/** Every measure for every client, in the order given. */
export async function measureClients(clients: PeerClient[]): Promise<Figures[]> {
  const launch = await launchToFirstFrame(clients);
  const launchCpu = await cpuLaunchToSettled(clients);
  const paste = await pasteToPlaceholder(clients);
  const opened: Array<PeerClient | Error> = [];
  for (const client of clients) opened.push(await resumed(client, TRANSCRIPT_TURNS).catch(failure));
  const openedOk = opened.filter((client): client is PeerClient => !(client instanceof Error));
  const openedLaunch = await launchToFirstFrame(openedOk);
  const resumeLaunch = opened.map((client) => (client instanceof Error ? client : openedLaunch[openedOk.indexOf(client)]!));
  const keys: Runs[] = [];
  const resumeKeys: Runs[] = [];
  const idles: Array<Idle | Error> = [];
  for (const [k, client] of clients.entries()) {
    keys.push(await keystrokeLatencies(0, client).catch(failure));
    const session = opened[k]!;
    resumeKeys.push(session instanceof Error ? session : await keystrokeLatencies(0, session).catch(failure));
    idles.push(await idle(client).catch(failure));
  }
  const longAnswer = await cpuForLongAnswer(clients);
  const firstDelta = await firstDeltaOnScreen(clients);
  return clients.map((_, k) => ({
    launch: launch[k]!,
    resumeLaunch: resumeLaunch[k]!,
    keys: keys[k]!,
    resumeKeys: resumeKeys[k]!,
    idle: idles[k]!,
    longAnswer: longAnswer[k]!,
    firstDelta: firstDelta[k]!,
    paste: paste[k]!,
    launchCpu: launchCpu[k]!,
  }));
}

interface Measure {
  name: string;
  /** The figures shown (a median, or p50 and p99), or why there are none. */
  figures(f: Figures): number[] | Error;
  format(values: number[]): string;
  note: string;
  /** More for the note, from the peer's own figures. */
  detail?(f: Figures): string;
}

const medianOf = (runs: Runs): number[] | Error => (runs instanceof Error ? runs : [median(runs)]);
const tails = (runs: Runs): number[] | Error => (runs instanceof Error ? runs : [percentile(runs, 50), percentile(runs, 99)]);
const idleFigure = (f: Figures, pick: (idle: Idle) => number): number[] | Error => (f.idle instanceof Error ? f.idle : [pick(f.idle)]);
const msPair = (values: number[]): string => values.map(ms).join(' / ');

const MEASURES: Measure[] = [
  { name: 'launch to first composer frame', figures: (f) => medianOf(f.launch), format: msPair, note: `median of ${RUNS}, interleaved` },
  {
    name: `launch into a ${TRANSCRIPT_TURNS.toLocaleString('en')}-turn session`,
    figures: (f) => medianOf(f.resumeLaunch),
    format: msPair,
    note: `median of ${RUNS}, interleaved; its own session format, until the last answer and the composer are on screen`,
  },
  {
    name: 'CPU from launch to 5 s after the composer',
    figures: (f) => medianOf(f.launchCpu),
    format: msPair,
    note: `median of ${RUNS}, interleaved; whole process tree`,
  },
  {
    name: '1 MiB bracketed paste to placeholder on screen',
    figures: (f) => medianOf(f.paste),
    format: msPair,
    note: `median of ${RUNS}, interleaved`,
  },
  {
    name: 'keystroke to frame p50 / p99 (empty transcript)',
    figures: (f) => tails(f.keys),
    format: msPair,
    note: `${KEYSTROKES} keys`,
  },
  {
    name: `keystroke to frame p50 / p99 (${TRANSCRIPT_TURNS.toLocaleString('en')}-turn session)`,
    figures: (f) => tails(f.resumeKeys),
    format: msPair,
    note: `${KEYSTROKES} keys`,
  },
  {
    name: 'Enter to first delta on screen',
    figures: (f) => medianOf(f.firstDelta),
    format: msPair,
    note: `median of ${RUNS}, interleaved; its own fake server, which answers at once`,
  },
  {
    name: 'CPU to stream and render a 10,000-delta answer',
    figures: (f) => medianOf(f.longAnswer),
    format: msPair,
    note: `median of ${RUNS}, interleaved; whole process tree, its own fake server, the same deltas`,
  },
  {
    name: 'CPU in the 12 s after the first frame',
    figures: (f) => idleFigure(f, (i) => i.settling),
    format: msPair,
    note: 'whole process tree',
  },
  {
    name: 'CPU used in 10 s idle',
    figures: (f) => idleFigure(f, (i) => i.cpu),
    format: msPair,
    note: 'whole process tree, from 12 s after launch',
  },
  {
    name: 'idle RSS, whole process tree',
    figures: (f) => idleFigure(f, (i) => i.rss),
    format: (values) => values.map(mib).join(' / '),
    note: 'VmRSS 22 s after launch',
    detail: (f) => (f.idle instanceof Error ? '' : `: ${f.idle.processes.map((p) => `${p.name} ${mib(p.rss)}`).join(' + ')}`),
  },
];

/** Tiller's figure over the peer's, per value shown ("Tiller 0.41×": Tiller needs 0.41 times what the peer does). */
function ratio(tiller: number[] | Error, peer: number[]): string {
  if (tiller instanceof Error) return 'no Tiller figure to compare';
  if (peer.some((value) => value === 0)) return 'no ratio to a zero';
  return `Tiller ${peer.map((value, i) => `${(tiller[i]! / value).toFixed(2)}×`).join(' / ')}`;
}

/** One row per measure and peer, grouped by measure, the ratio to Tiller in the note. */
export function comparisonRows(tiller: Figures, peers: Array<PeerClient | MissingPeer>, figures: Figures[]): BenchRow[] {
  const rows: BenchRow[] = [];
  for (const peer of peers) {
    if (!isPeer(peer)) rows.push({ name: `${peer.label}: every measure`, value: '-', note: peer.reason });
  }
  const present = peers.filter(isPeer);
  for (const measure of MEASURES) {
    for (const [k, peer] of present.entries()) {
      const f = figures[k]!;
      const values = measure.figures(f);
      const name = `${peer.label}: ${measure.name}`;
      if (values instanceof Error) {
        rows.push({ name, value: '-', note: values.message.split('\n')[0]! });
        continue;
      }
      const note = `${measure.note}${measure.detail?.(f) ?? ''}; ${ratio(measure.figures(tiller), values)}`;
      rows.push({ name, value: measure.format(values), note });
    }
  }
  return rows;
}
