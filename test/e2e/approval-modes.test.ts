/**
 * Approval modes through the real bin with the offline model: the footer shows the mode, Shift+Tab
 * and the /approvals picker change it, and `-a untrusted` asks before a command that can write but
 * not before one known to be read-only.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startTiller, type StartOptions, type TillerPty } from '../support/pty.js';
import { typeSlowly } from './helpers.js';

const PROMPT = 'Would you like to run the following command?';

let pty: TillerPty | null = null;
let workspace: string | null = null;
afterEach(() => {
  pty?.kill();
  pty = null;
  if (workspace !== null) rmSync(workspace, { recursive: true, force: true });
  workspace = null;
});

/** The offline model (no API key) in a workspace of its own; the composer is on screen when this resolves. */
async function open(options: StartOptions = {}): Promise<TillerPty> {
  workspace = mkdtempSync(join(tmpdir(), 'tiller-modes-'));
  pty = startTiller({ cwd: workspace, ...options });
  await pty.waitFor('Ask Tiller to do anything');
  return pty;
}

/** The footer (the last row with text) ends with `<mode> · <model> · offline`. */
const footerShows = (mode: string) => (screen: string) =>
  screen.trimEnd().split('\n').at(-1)!.endsWith(`  ${mode} · tiller-offline · offline`);

describe('approval modes in the terminal', { timeout: 60_000 }, () => {
  it('the footer shows the mode; Shift+Tab moves to the next one and /approvals picks Full access', async () => {
    const tty = await open();
    await tty.waitFor(footerShows('auto'));
    tty.press('shift-tab');
    await tty.waitFor((s) => footerShows('full access')(s) && s.includes('• Approval mode: Full access (danger-full-access, never asks)'));
    tty.press('shift-tab');
    await tty.waitFor(footerShows('read only'));
    await typeSlowly(tty, '/approvals');
    tty.press('enter');
    const picker = await tty.waitFor('▸ 1. Read only (current)');
    expect(picker).toContain('  4. Full access');
    tty.press('up');
    await tty.waitFor('▸ 4. Full access');
    tty.press('enter');
    const screen = await tty.waitFor((s) => footerShows('full access')(s) && !s.includes('▸ 4. Full access'));
    expect(screen).toContain('Ask Tiller to do anything');
  });

  it('with -a untrusted, `touch x` asks first and `ls` runs without asking', async () => {
    const tty = await open({ args: ['-a', 'untrusted'] });
    await tty.waitFor(footerShows('ask first'));
    await typeSlowly(tty, 'run: touch x');
    tty.press('enter');
    const asked = await tty.waitFor(PROMPT);
    expect(asked).toContain('$ touch x');
    tty.press('esc');
    await tty.waitFor((s) => s.includes('└ declined') && !s.includes(PROMPT) && !s.includes('esc to interrupt'));
    expect(existsSync(join(workspace!, 'x'))).toBe(false);
    await typeSlowly(tty, 'run: ls');
    tty.press('enter');
    const ran = await tty.waitFor((s) => s.includes('✓ $ ls') && !s.includes('esc to interrupt'));
    expect(ran).not.toContain(PROMPT);
  });
});
