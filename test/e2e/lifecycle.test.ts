/**
 * Start-up and exit of the real bin: terminal modes switched on and restored on every way out, the
 * offline model when no provider is configured, and the refusal to run without a terminal.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { startTiller, type TillerPty } from '../support/pty.js';
import { typeSlowly } from './helpers.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

let pty: TillerPty | null = null;
afterEach(() => {
  pty?.kill();
  pty = null;
});

describe('tiller start-up and exit', { timeout: 60_000 }, () => {
  it('turns bracketed paste on while running and off again after Ctrl+C on an empty composer, exit code 0', async () => {
    pty = startTiller();
    await pty.waitFor('Ask Tiller to do anything');
    expect(pty.modes().bracketedPasteMode).toBe(true);
    expect(pty.raw()).toContain('\x1b[>1u');
    expect(await pty.exit()).toBe(0);
    expect(pty.modes().bracketedPasteMode).toBe(false);
    expect(pty.raw()).toContain('\x1b[<u');
    expect(pty.raw()).toContain('\x1b[>4;0m');
  });

  it('clears a draft on the first Ctrl+C and quits on the next one', async () => {
    pty = startTiller();
    await pty.waitFor('Ask Tiller to do anything');
    await typeSlowly(pty, 'draft');
    pty.press('ctrl-c');
    await pty.waitFor((s) => s.includes('› Ask Tiller to do anything') && !s.includes('draft'));
    expect(pty.exited()).toBe(false);
    pty.press('ctrl-c');
    expect(await pty.waitForExit()).toBe(0);
    expect(pty.modes().bracketedPasteMode).toBe(false);
  });

  it('exits 0 when another Ctrl+C (now a SIGINT, raw mode being off) arrives while it finishes quitting', async () => {
    pty = startTiller();
    await pty.waitFor('Ask Tiller to do anything');
    pty.press('ctrl-c');
    pty.press('ctrl-c');
    while (!pty.raw().includes('\x1b[<u') && !pty.exited()) await new Promise((resolve) => setTimeout(resolve, 1));
    while (!pty.exited()) {
      try {
        process.kill(pty.pid, 'SIGINT');
      } catch {
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(await pty.waitForExit()).toBe(0);
  });

  it('restores the terminal modes on SIGTERM', async () => {
    pty = startTiller();
    await pty.waitFor('Ask Tiller to do anything');
    process.kill(pty.pid, 'SIGTERM');
    expect(await pty.waitForExit()).toBe(143);
    expect(pty.modes().bracketedPasteMode).toBe(false);
  });

  it('answers with the embedded offline model when no provider is set, and says offline in the footer', async () => {
    pty = startTiller({ env: { OPENAI_API_KEY: undefined, OPENAI_BASE_URL: undefined } });
    const first = await pty.waitFor('Ask Tiller to do anything');
    expect(first).toMatch(/offline\s*$/m);
    await typeSlowly(pty, 'hello offline');
    pty.press('enter');
    // The header names the offline model too: wait for its answer.
    const screen = await pty.waitFor('I am the offline model');
    expect(screen).toContain('› hello offline');
    expect(screen).toContain('13 chars');
  });

  it('draws every frame when CI=true is set (Ink would otherwise draw only at exit)', async () => {
    pty = startTiller({ env: { CI: 'true', CONTINUOUS_INTEGRATION: '1' } });
    await pty.waitFor('Ask Tiller to do anything');
    await typeSlowly(pty, 'still live');
    expect(await pty.waitFor('› still live')).toContain('? for shortcuts');
  });

  it('refuses to start the UI without a terminal', () => {
    const result = spawnSync(process.execPath, ['bin/tiller'], {
      cwd: ROOT,
      input: '',
      encoding: 'utf8',
      env: { ...process.env, TILLER_HOME: '/nonexistent-tiller-home' },
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('needs a terminal');
  });
});
