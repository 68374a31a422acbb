/**
 * What the pty benches (tui.ts, scale.ts, peers/compare.ts) share: a client in a pseudo-terminal
 * (test/support/pty.ts), the keystroke → frame measure, and reading a process tree's CPU and memory
 * from /proc.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { FakeResponsesServer } from '../test/support/fake-responses-server.js';
import { type ScreenMatcher, startTiller, type StartOptions, type TillerPty } from '../test/support/pty.js';
import type { PeerClient } from './peer.js';

export const KEYSTROKES = 120;
export const RUNS = 5;
export const sleep = (millis: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, millis));

/** Kills and waits for the exit, so a peer cannot write into its temporary home after the run removed it. */
export async function stop(pty: TillerPty): Promise<void> {
  pty.kill();
  await pty.waitForExit(5_000).catch(() => undefined);
}

export function rssBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = /VmRSS:\s+(\d+)\s+kB/.exec(status);
  return kb ? Number(kb[1]) * 1024 : NaN;
}

/** The fields of /proc/<pid>/stat after the command name (which is in parentheses and may hold spaces). */
const statFields = (pid: number | string): string[] => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
};

/** utime + stime of a process in ms, with that of the children it has reaped (clock ticks are 100 per second). */
export function cpuMs(pid: number): number {
  const fields = statFields(pid);
  return (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) * 10;
}

/** A client's processes: its own, every one below it, and the helpers it left outside its tree (Codex's daemon). */
export function clientPids(pty: TillerPty, client: PeerClient): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const ppid = Number(statFields(entry)[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // It ended while we looked.
    }
  }
  const pids = new Set([pty.pid, ...(client.helperPids?.() ?? [])]);
  const queue = [...pids];
  for (let pid = queue.pop(); pid !== undefined; pid = queue.pop()) {
    for (const child of children.get(pid) ?? []) {
      if (pids.has(child)) continue;
      pids.add(child);
      queue.push(child);
    }
  }
  return [...pids];
}

const safeCpu = (pid: number): number | null => {
  try {
    return cpuMs(pid);
  } catch {
    return null;
  }
};

/** `f` summed over the client's processes (one that exits meanwhile counts 0). */
export function treeSum(pty: TillerPty, client: PeerClient, f: (pid: number) => number): number {
  return clientPids(pty, client).reduce((total, pid) => {
    try {
      return total + f(pid);
    } catch {
      return total;
    }
  }, 0);
}

// Escape sequences (CSI with private parameters, OSC, DCS, charset and two-byte ones): their final
// letters are not text, and an idle peer's animation or cursor frames must not pass for an echo.
const ESCAPES = /\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[P^_X][^\x1b]*\x1b\\|[ -/]*[0-~])/g;

/** Resolves with the ms from now until the output's text contains `needle` (searching only new output). */
export function timeUntilOutput(pty: TillerPty, needle: string, start: () => void, timeoutMs = 30_000): Promise<number> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const t0 = performance.now();
    const timer = setTimeout(() => {
      off();
      reject(new Error(`no '${needle.slice(0, 40)}' within ${timeoutMs} ms`));
    }, timeoutMs);
    const off = pty.onOutput((data) => {
      // Keep a short tail so a needle split across chunks is still found.
      seen = (seen + data).slice(-(needle.length + 4096));
      if (seen.replace(ESCAPES, '').includes(needle)) {
        clearTimeout(timer);
        off();
        resolve(performance.now() - t0);
      }
    });
    start();
  });
}

export const TILLER: PeerClient = {
  label: 'Tiller',
  ready: 'Ask Tiller to do anything',
  options: {},
  withTranscript: async (turns) => ({ ...TILLER, options: { env: { TILLER_BENCH_PREFILL: String(turns) } } }),
};

export const shows = (matcher: ScreenMatcher, screen: string): boolean =>
  typeof matcher === 'string' ? screen.includes(matcher) : matcher instanceof RegExp ? matcher.test(screen) : matcher(screen);

/** The client opening a session of `turns` finished turns: ready once its composer and the last answer are on screen. */
export async function resumed(client: PeerClient, turns: number): Promise<PeerClient> {
  if (client.withTranscript === undefined) throw new Error(`${client.label} cannot open a recorded session`);
  const opened = await client.withTranscript(turns);
  return { ...opened, ready: (screen) => shows(client.ready, screen) && screen.includes(`Answer number ${turns}:`) };
}

export async function launched(options: StartOptions = {}, client: PeerClient = TILLER): Promise<TillerPty> {
  const env = { ...client.options.env, ...options.env };
  const pty = startTiller({ cols: 120, rows: 40, ...client.options, ...options, env });
  try {
    await pty.waitFor(client.ready, 60_000);
  } catch (error) {
    // A peer that never shows its composer must not stay running behind the next measure.
    await stop(pty);
    throw error;
  }
  return pty;
}

/** A client's figures from one measure, or what stopped it (a peer's screen that never came, say). */
export type Runs = number[] | Error;

/** `measure` `RUNS` times per client, the clients taking turns so all see the same machine; a client that fails is skipped after. */
async function interleaved(clients: PeerClient[], measure: (client: PeerClient) => Promise<number>): Promise<Runs[]> {
  const out = clients.map((): Runs => []);
  for (let i = 0; i < RUNS; i++) {
    for (const [k, client] of clients.entries()) {
      const runs = out[k]!;
      if (runs instanceof Error) continue;
      try {
        runs.push(await measure(client));
      } catch (error) {
        out[k] = error instanceof Error ? error : new Error(String(error));
      }
    }
  }
  return out;
}

/** Launch to the first composer frame, `RUNS` times per client, interleaved. */
export function launchToFirstFrame(clients: PeerClient[]): Promise<Runs[]> {
  return interleaved(clients, async (client) => {
    const t0 = performance.now();
    const pty = await launched({}, client);
    const took = performance.now() - t0;
    await stop(pty);
    return took;
  });
}

/** A 1 MiB bracketed paste to the client's placeholder on screen, `RUNS` times per client, interleaved. */
export function pasteToPlaceholder(clients: PeerClient[]): Promise<Runs[]> {
  const text = 'x'.repeat(1024 * 1024);
  return interleaved(clients, async (client) => {
    const pty = await launched({}, client);
    try {
      await sleep(500);
      return await timeUntilOutput(pty, client.pastePlaceholder ?? '[Pasted Content 1048576 chars]', () => pty.paste(text));
    } finally {
      await stop(pty);
    }
  });
}

/** CPU of the process tree from launch until 5 s after its composer is on screen, interleaved. */
export function cpuLaunchToSettled(clients: PeerClient[]): Promise<Runs[]> {
  return interleaved(clients, async (client) => {
    // A helper left running by an earlier launch (Codex's daemon) counts only what it uses from now.
    const helpersBefore = (client.helperPids?.() ?? []).reduce((total, pid) => total + (safeCpu(pid) ?? 0), 0);
    const pty = await launched({}, client);
    try {
      await sleep(5_000);
      return treeSum(pty, client, cpuMs) - helpersBefore;
    } finally {
      await stop(pty);
    }
  });
}

/**
 * Each key waits for the frame that shows it; a pause between keys keeps them out of paste bursts. On
 * a still screen the key's letter marks that frame. Under a spinner or a command's output every frame
 * redraws Tiller's whole live area (escape sequences hold letters too), so there (`busy`) a key's frame
 * is the one with the line it makes: an untimed `q`, then the keys typed so far.
 */
export async function timeKeystrokes(pty: TillerPty, count = KEYSTROKES, busy = false): Promise<number[]> {
  const out: number[] = [];
  let line = '';
  for (let i = 0; i < count; i++) {
    if (busy && line === '') {
      pty.write('q');
      // The composer row alone, not the line before the last Ctrl+U still on screen.
      await pty.waitFor((screen) => screen.split('\n').includes('› q'));
      line = 'q';
    }
    const ch = String.fromCharCode(97 + (i % 26));
    line += ch;
    out.push(await timeUntilOutput(pty, busy ? line : ch, () => pty.write(ch)));
    await sleep(25);
    if (i % 40 === 39) {
      // Clear the line so the composer stays one row.
      pty.press('ctrl-u');
      line = '';
      await sleep(50);
    }
  }
  return out;
}

export async function keystrokeLatencies(prefill: number, client: PeerClient = TILLER): Promise<number[]> {
  const pty = await launched(prefill > 0 ? { env: { TILLER_BENCH_PREFILL: String(prefill) } } : {}, client);
  await sleep(500);
  try {
    return await timeKeystrokes(pty);
  } finally {
    await stop(pty);
  }
}

export interface Idle {
  /** CPU of the process tree in the 12 s after the first frame. */
  settling: number;
  /** CPU of the process tree in the 10 s after that. */
  cpu: number;
  /** VmRSS summed over the process tree at the end, and each process's (by its command name). */
  rss: number;
  processes: Array<{ name: string; rss: number }>;
}

/**
 * Idle once start-up has settled: V8 runs one memory-reducing GC about 8 s after start (about 80 ms
 * here, shown as its own figure), so the 10 s window opens 12 s after the first frame.
 */
export async function idle(client: PeerClient = TILLER): Promise<Idle> {
  const pty = await launched({}, client);
  try {
    const launchedAt = treeSum(pty, client, cpuMs);
    await sleep(12_000);
    const before = treeSum(pty, client, cpuMs);
    await sleep(10_000);
    const cpu = treeSum(pty, client, cpuMs) - before;
    const processes = clientPids(pty, client).flatMap((pid) => {
      try {
        return [{ name: readFileSync(`/proc/${pid}/comm`, 'utf8').trim(), rss: rssBytes(pid) }];
      } catch {
        return []; // It exited meanwhile.
      }
    });
    return { settling: before - launchedAt, cpu, rss: processes.reduce((total, p) => total + p.rss, 0), processes };
  } finally {
    await stop(pty);
  }
}

/**
 * One answer per run from each client's own fake server (Tiller gets the Responses one), `RUNS` times
 * per client, interleaved: the client settles, the answer is scripted, `g` is typed, and `measure`
 * presses Enter and returns its figure.
 */
async function answerRuns(
  clients: PeerClient[],
  deltas: string[],
  measure: (pty: TillerPty, client: PeerClient) => Promise<number>,
): Promise<Runs[]> {
  const responses = await FakeResponsesServer.start();
  try {
    return await interleaved(clients, async (client) => {
      const env = client.modelServer ? {} : { OPENAI_BASE_URL: responses.baseUrl, OPENAI_API_KEY: 'dummy' };
      const pty = await launched({ env }, client);
      try {
        // Every client settles first (Tiller's runtime loads behind its first frame, Codex starts its daemon).
        await sleep(2_000);
        // Scripted only now, so no request a client makes at start-up can take it.
        (client.modelServer ?? responses).enqueue({ deltas });
        pty.write('g');
        await sleep(50);
        return await measure(pty, client);
      } finally {
        await stop(pty);
      }
    });
  } finally {
    await responses.close();
  }
}

/** CPU of the whole process tree to stream and render one answer of 10,000 word deltas. */
export function cpuForLongAnswer(clients: PeerClient[]): Promise<Runs[]> {
  const deltas = Array.from({ length: 10_000 }, (_, n) => (n % 12 === 11 ? `w${n}\n\n` : `w${n} `));
  return answerRuns(clients, deltas, async (pty, client) => {
    const before = treeSum(pty, client, cpuMs);
    pty.press('enter');
    await pty.waitFor((s) => s.includes('w9999') && !shows(client.busy ?? 'esc to interrupt', s), 180_000);
    return treeSum(pty, client, cpuMs) - before;
  });
}

/** The answer's first word, not a word any client shows by itself. */
export const FIRST_DELTA = 'Quokka-first-delta';

/** Enter to the answer's first delta on screen (the rest of the answer follows it at once). */
export function firstDeltaOnScreen(clients: PeerClient[]): Promise<Runs[]> {
  const deltas = [`${FIRST_DELTA} `, ...Array.from({ length: 50 }, (_, n) => `w${n} `)];
  return answerRuns(clients, deltas, async (pty) => timeUntilOutput(pty, FIRST_DELTA, () => pty.press('enter')));
}
