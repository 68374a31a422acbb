/**
 * What the pty benches (tui.ts, scale.ts) share: the real bin in a pseudo-terminal (test/support/pty.ts),
 * the keystroke → frame measure, and reading a process's memory from /proc.
 */
import { readFileSync } from 'node:fs';
import { startTiller, type StartOptions, type TillerPty } from '../test/support/pty.js';
import type { PeerClient } from './peer.js';

export const KEYSTROKES = 120;
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

/** Resolves with the ms from now until the output contains `needle` (searching only new output). */
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
      if (seen.includes(needle)) {
        clearTimeout(timer);
        off();
        resolve(performance.now() - t0);
      }
    });
    start();
  });
}

export const TILLER: PeerClient = { label: 'Tiller', ready: 'Ask Tiller to do anything', options: {} };

export async function launched(options: StartOptions = {}, client: PeerClient = TILLER): Promise<TillerPty> {
  const pty = startTiller({ cols: 120, rows: 40, ...client.options, ...options });
  await pty.waitFor(client.ready, 30_000);
  return pty;
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
