/**
 * Issue 30's performance goals, each checked against the figures of one interleaved run: Tiller's
 * own (keystroke echo, first delta, idle CPU) or Tiller's over a peer's from the same run.
 */
import { type BenchRow, median, ms, percentile } from '../lib.js';
import type { MissingPeer, PeerClient } from '../peer.js';
import type { Runs } from '../pty-bench.js';
import { CLAUDE_CODE_LABEL } from './claude-code.js';
import { CODEX_LABEL } from './codex.js';
import { type Figures, isPeer, TRANSCRIPT_TURNS } from './compare.js';

interface Goal {
  name: string;
  /** Tiller's figures and the limits they must stay within, or why there are none. */
  check(tiller: Figures, peer: (label: string) => Figures | null): { values: number[]; limits: number[]; shown: string } | string;
  /** How the limit is set. */
  rule: string;
}

const runsOrReason = (runs: Runs | undefined): number[] | string =>
  runs === undefined ? 'peer not measured' : runs instanceof Error ? runs.message.split('\n')[0]! : runs;

/** p50 ≤ 2 ms and p99 ≤ 5 ms of a keystroke measure. */
function echo(pick: (f: Figures) => Runs): Goal['check'] {
  return (tiller) => {
    const runs = runsOrReason(pick(tiller));
    if (typeof runs === 'string') return runs;
    const values = [percentile(runs, 50), percentile(runs, 99)];
    return { values, limits: [2, 5], shown: values.map(ms).join(' / ') };
  };
}

/** Tiller's median at most `factor` times the peer's median, from the same run. */
function relative(label: string, factor: number, pick: (f: Figures) => Runs): Goal['check'] {
  return (tiller, peer) => {
    const own = runsOrReason(pick(tiller));
    const figures = peer(label);
    const other = runsOrReason(figures === null ? undefined : pick(figures));
    if (typeof own === 'string') return own;
    if (typeof other === 'string') return `${label}: ${other}`;
    const [mine, theirs] = [median(own), median(other)];
    return { values: [mine], limits: [theirs * factor], shown: `${ms(mine)} (${label} ${ms(theirs)}, ${(mine / theirs).toFixed(2)}×)` };
  };
}

function absolute(limit: number, pick: (f: Figures) => Runs | number | Error): Goal['check'] {
  return (tiller) => {
    const picked = pick(tiller);
    const runs = typeof picked === 'number' ? [picked] : runsOrReason(picked);
    if (typeof runs === 'string') return runs;
    const value = median(runs);
    return { values: [value], limits: [limit], shown: ms(value) };
  };
}

const GOALS: Goal[] = [
  { name: 'keystroke to frame p50 / p99, empty transcript', rule: '≤ 2 ms / ≤ 5 ms', check: echo((f) => f.keys) },
  {
    name: `keystroke to frame p50 / p99, ${TRANSCRIPT_TURNS.toLocaleString('en')} turns`,
    rule: '≤ 2 ms / ≤ 5 ms',
    check: echo((f) => f.resumeKeys),
  },
  { name: 'Enter to first delta on screen', rule: '< 25 ms', check: absolute(25, (f) => f.firstDelta) },
  {
    name: 'CPU to stream and render a 10,000-delta answer',
    rule: `< 0.35× ${CLAUDE_CODE_LABEL}`,
    check: relative(CLAUDE_CODE_LABEL, 0.35, (f) => f.longAnswer),
  },
  { name: '1 MiB bracketed paste to placeholder', rule: `≤ 0.5× ${CODEX_LABEL}`, check: relative(CODEX_LABEL, 0.5, (f) => f.paste) },
  { name: 'launch to first composer frame', rule: `≤ 0.4× ${CODEX_LABEL}`, check: relative(CODEX_LABEL, 0.4, (f) => f.launch) },
  {
    name: 'CPU from launch to 5 s after the composer',
    rule: `≤ 0.4× ${CODEX_LABEL}`,
    check: relative(CODEX_LABEL, 0.4, (f) => f.launchCpu),
  },
  {
    name: 'CPU used in 10 s idle',
    rule: '≈ 0 (≤ 10 ms, one clock tick)',
    check: absolute(10, (f) => (f.idle instanceof Error ? f.idle : f.idle.cpu)),
  },
];

/** One row per goal: Tiller's figure (and the peer's), the goal, and whether this run met it. */
export function goalRows(tiller: Figures, peers: Array<PeerClient | MissingPeer>, figures: Figures[]): BenchRow[] {
  const present = peers.filter(isPeer);
  const peer = (label: string): Figures | null => {
    const k = present.findIndex((p) => p.label === label);
    return k < 0 ? null : figures[k]!;
  };
  return GOALS.map((goal) => {
    const result = goal.check(tiller, peer);
    if (typeof result === 'string') return { name: `goal: ${goal.name}`, value: '-', note: `goal ${goal.rule}; ${result}` };
    const met = result.values.every((value, i) => value <= result.limits[i]!);
    return { name: `goal: ${goal.name}`, value: result.shown, note: `goal ${goal.rule}: ${met ? 'met' : 'MISSED'}` };
  });
}
