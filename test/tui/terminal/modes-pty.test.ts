/**
 * The exit guards in a real pseudo-terminal: a small program enables the modes, then exits in one of
 * the guarded ways; the headless xterm shows whether bracketed paste was switched off again.
 */
import { fileURLToPath } from 'node:url';
import xterm from '@xterm/headless';
import * as nodePty from '@lydell/node-pty';
import { afterEach, describe, expect, it } from 'vitest';

const MODES = fileURLToPath(new URL('../../../src/tui/terminal/modes.ts', import.meta.url));

const PROGRAM = `
import { enableTerminalModes, installExitGuards } from ${JSON.stringify(MODES)};
const restore = enableTerminalModes(process.stdout, { stdin: process.stdin });
installExitGuards(restore);
process.stdin.setRawMode(true);
process.stdin.on('data', (d) => {
  const s = d.toString();
  if (s === 'q') process.exit(0);
  if (s === 't') throw new Error('kaboom');
  if (s === 'r') Promise.reject(new Error('rejected-here'));
});
process.stdout.write('READY\\n');
`;

interface Run {
  term: xterm.Terminal;
  pty: nodePty.IPty;
  output: () => string;
  exited: Promise<number>;
}

let current: Run | null = null;

function start(): Run {
  const term = new xterm.Terminal({ cols: 80, rows: 10, allowProposedApi: true });
  const pty = nodePty.spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', PROGRAM], {
    name: 'xterm-256color',
    cols: 80,
    rows: 10,
    cwd: process.cwd(),
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
  });
  let out = '';
  pty.onData((d) => {
    out += d;
    term.write(d);
  });
  const exited = new Promise<number>((resolve) => pty.onExit(({ exitCode }) => resolve(exitCode)));
  current = { term, pty, output: () => out, exited };
  return current;
}

async function until(pred: () => boolean, what: string, run: Run): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!pred()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; output: ${JSON.stringify(run.output())}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Lets xterm finish parsing everything written so far. */
function drain(term: xterm.Terminal): Promise<void> {
  return new Promise((resolve) => term.write('', resolve));
}

async function ready(): Promise<Run> {
  const run = start();
  await until(() => run.output().includes('READY'), 'READY', run);
  await drain(run.term);
  expect(run.term.modes.bracketedPasteMode).toBe(true);
  expect(run.term.modes.sendFocusMode).toBe(true);
  return run;
}

afterEach(() => {
  try {
    current?.pty.kill();
  } catch {
    // already gone
  }
  current = null;
});

describe('terminal modes in a real pty', () => {
  it('are restored on a normal exit', async () => {
    const run = await ready();
    run.pty.write('q');
    expect(await run.exited).toBe(0);
    await drain(run.term);
    expect(run.term.modes.bracketedPasteMode).toBe(false);
    expect(run.term.modes.sendFocusMode).toBe(false);
    expect(run.output()).toContain('\x1b[<u');
  });

  it.each([
    ['SIGTERM', 143],
    ['SIGHUP', 129],
    ['SIGINT', 130],
  ])('are restored on %s with exit code %i', async (signal, code) => {
    const run = await ready();
    run.pty.kill(signal);
    expect(await run.exited).toBe(code);
    await drain(run.term);
    expect(run.term.modes.bracketedPasteMode).toBe(false);
    expect(run.term.modes.sendFocusMode).toBe(false);
  });

  it('are restored on an uncaught exception, which is printed, exit code 1', async () => {
    const run = await ready();
    run.pty.write('t');
    expect(await run.exited).toBe(1);
    await drain(run.term);
    expect(run.term.modes.bracketedPasteMode).toBe(false);
    expect(run.output()).toContain('kaboom');
  });

  it('are restored on an unhandled rejection, exit code 1', async () => {
    const run = await ready();
    run.pty.write('r');
    expect(await run.exited).toBe(1);
    await drain(run.term);
    expect(run.term.modes.bracketedPasteMode).toBe(false);
    expect(run.output()).toContain('rejected-here');
  });
});
