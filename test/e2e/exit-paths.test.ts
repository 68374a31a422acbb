/**
 * The terminal restored on the exit paths lifecycle.test.ts does not cover, through the real bin:
 * /quit, Ctrl+D, SIGHUP, and an uncaught exception or unhandled rejection raised inside the running
 * program (a preloaded script throws when it gets SIGUSR2, so the bundle's own guards must catch it).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTiller, type TillerPty } from '../support/pty.js';
import { typeSlowly } from './helpers.js';

let pty: TillerPty | null = null;
let dir: string;
let preload: string;

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'tiller-exit-fault-'));
  preload = path.join(dir, 'fault.cjs');
  writeFileSync(
    preload,
    `process.on('SIGUSR2', () => {
  if (process.env.FAULT_KIND === 'reject') Promise.reject(new Error('planted-rejection'));
  else setImmediate(() => { throw new Error('planted-exception'); });
});
`,
  );
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

afterEach(() => {
  pty?.kill();
  pty = null;
});

/** Every mode Tiller switches on is switched off again in what it wrote last. */
function expectRestored(t: TillerPty): void {
  expect(t.modes().bracketedPasteMode).toBe(false);
  const raw = t.raw();
  const lastOn = raw.lastIndexOf('\x1b[?2004h');
  expect(raw.lastIndexOf('\x1b[?2004l')).toBeGreaterThan(lastOn);
  expect(raw.lastIndexOf('\x1b[<u')).toBeGreaterThan(raw.lastIndexOf('\x1b[>1u'));
  expect(raw.lastIndexOf('\x1b[>4;0m')).toBeGreaterThan(raw.lastIndexOf('\x1b[>4;2m'));
}

async function ready(t: TillerPty): Promise<void> {
  await t.waitFor('Ask Tiller to do anything');
  expect(t.modes().bracketedPasteMode).toBe(true);
}

describe('terminal modes restored on every way out', { timeout: 60_000 }, () => {
  it('/quit exits 0 and restores the modes', async () => {
    pty = startTiller();
    await ready(pty);
    await typeSlowly(pty, '/quit');
    pty.press('enter');
    expect(await pty.waitForExit()).toBe(0);
    expectRestored(pty);
  });

  it('Ctrl+D twice on an empty composer exits 0 and restores the modes; once only says so', async () => {
    pty = startTiller();
    await ready(pty);
    pty.press('ctrl-d');
    await pty.waitFor('press Ctrl+D again to quit');
    expect(pty.exited()).toBe(false);
    // The hint goes after 1.5 s, and with it the quit: the next press asks again.
    await pty.waitFor((s) => !s.includes('again to quit'), 3_000);
    pty.press('ctrl-d');
    await pty.waitFor('press Ctrl+D again to quit');
    expect(pty.exited()).toBe(false);
    pty.press('ctrl-d');
    expect(await pty.waitForExit()).toBe(0);
    expectRestored(pty);
  });

  it('SIGHUP exits 129 and restores the modes', async () => {
    pty = startTiller();
    await ready(pty);
    process.kill(pty.pid, 'SIGHUP');
    expect(await pty.waitForExit()).toBe(129);
    expectRestored(pty);
  });

  it('an uncaught exception restores the modes, prints the error and exits 1', async () => {
    pty = startTiller({ env: { NODE_OPTIONS: `--require ${preload}` } });
    await ready(pty);
    process.kill(pty.pid, 'SIGUSR2');
    expect(await pty.waitForExit()).toBe(1);
    expectRestored(pty);
    expect(pty.scrollback()).toContain('Error: planted-exception');
  });

  it('an unhandled rejection restores the modes, prints the reason and exits 1', async () => {
    pty = startTiller({ env: { NODE_OPTIONS: `--require ${preload}`, FAULT_KIND: 'reject' } });
    await ready(pty);
    process.kill(pty.pid, 'SIGUSR2');
    expect(await pty.waitForExit()).toBe(1);
    expectRestored(pty);
    expect(pty.scrollback()).toContain('Error: planted-rejection');
  });
});
