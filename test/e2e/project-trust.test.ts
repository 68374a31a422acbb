/**
 * Codex's project trust through the real bin: the first run in a folder with no decision asks, the
 * answer goes to config.toml (0600) and picks the default approval policy /status shows; a second
 * run does not ask (its header shows the same policy); an explicit -a skips the question; Esc quits without deciding.
 */
import { mkdtempSync, readFileSync, realpathSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startTiller, type TillerPty } from '../support/pty.js';
import { typeSlowly } from './helpers.js';

const QUESTION = 'Do you trust the files in this folder?';
const COMPOSER = 'Ask Tiller to do anything';

let ptys: TillerPty[] = [];
let dirs: string[] = [];
afterEach(() => {
  for (const p of ptys) p.kill();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  ptys = [];
  dirs = [];
});

function tempDir(prefix: string): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  dirs.push(dir);
  return dir;
}

function start(home: string, cwd: string, args: string[] = []): TillerPty {
  const pty = startTiller({ cwd, args, env: { TILLER_HOME: home }, askTrust: true });
  ptys.push(pty);
  return pty;
}

async function statusShows(pty: TillerPty, approvals: string): Promise<void> {
  await typeSlowly(pty, '/status');
  pty.press('enter');
  await pty.waitFor(`Approvals: ${approvals}`);
}

describe('project trust in the terminal', { timeout: 60_000 }, () => {
  it('asks once: trusting writes config.toml and keeps Auto; a second run does not ask', async () => {
    const home = tempDir('tiller-trust-home-');
    const work = tempDir('tiller-trust-work-');
    const first = start(home, work);
    const asked = await first.waitFor(QUESTION);
    expect(asked).toContain(`> You are in ${work}`);
    expect(asked).toContain('› 1. Yes, trust this folder');
    expect(asked).not.toContain(COMPOSER);
    first.press('enter');
    const chat = await first.waitFor(COMPOSER);
    expect(chat).not.toContain(QUESTION);
    const config = join(home, 'config.toml');
    expect(readFileSync(config, 'utf8')).toBe(`[projects.${JSON.stringify(work)}]\ntrust_level = "trusted"\n`);
    expect(statSync(config).mode & 0o777).toBe(0o600);
    await statusShows(first, 'Auto (workspace-write');
    await first.exit();

    const second = start(home, work);
    // The header is printed just after the first frame (a draft the journal kept may fill the composer).
    const screen = await second.waitFor((s) => s.includes('? for shortcuts') && s.includes('approvals:'));
    expect(screen).not.toContain(QUESTION);
    expect(screen).toContain('approvals: Auto (workspace-write');
  });

  it('choosing not to trust (Down, Enter) records untrusted, and the default becomes Ask first', async () => {
    const home = tempDir('tiller-trust-home-');
    const work = tempDir('tiller-trust-work-');
    const pty = start(home, work);
    await pty.waitFor(QUESTION);
    pty.press('down');
    await pty.waitFor('› 2. No, ask me before every edit and command');
    pty.press('enter');
    await pty.waitFor(COMPOSER);
    expect(readFileSync(join(home, 'config.toml'), 'utf8')).toContain('trust_level = "untrusted"');
    await statusShows(pty, 'Ask first (workspace-write');
    await pty.exit();
    const again = start(home, work);
    const screen = await again.waitFor((s) => s.includes('? for shortcuts') && s.includes('approvals:'));
    expect(screen).not.toContain(QUESTION);
    expect(screen).toContain('approvals: Ask first (workspace-write');
  });

  it('an explicit -a skips the question; Esc at the question quits and decides nothing', async () => {
    const home = tempDir('tiller-trust-home-');
    const work = tempDir('tiller-trust-work-');
    const flagged = start(home, work, ['-a', 'never']);
    const screen = await flagged.waitFor(COMPOSER);
    expect(screen).not.toContain(QUESTION);
    await flagged.exit();

    const asked = start(home, work);
    await asked.waitFor(QUESTION);
    asked.press('esc');
    expect(await asked.waitForExit()).toBe(0);
    expect(() => readFileSync(join(home, 'config.toml'), 'utf8')).toThrow();
  });
});
