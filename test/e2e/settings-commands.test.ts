/**
 * /statusline and /theme in the real bin: the footer changes as an item is ticked, the choice is
 * written to config.toml and is there after a restart; the theme's preview re-colours the screen
 * (seen in the raw output), Esc puts the old colours back, Enter keeps the new ones across a restart.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTiller, type TillerPty } from '../support/pty.js';
import { typeSlowly } from './helpers.js';

let home: string;
let cwd: string;
let ptys: TillerPty[] = [];

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'tiller-e2e-settings-home-'));
  cwd = mkdtempSync(join(tmpdir(), 'tiller-e2e-settings-cwd-'));
  execFileSync('git', ['init', '-q', '-b', 'e2e-branch'], { cwd });
});

afterEach(() => {
  for (const pty of ptys) pty.kill();
  ptys = [];
  rmSync(home, { recursive: true, force: true });
  rmSync(cwd, { recursive: true, force: true });
});

function start(): TillerPty {
  const pty = startTiller({ cwd, cols: 120, rows: 34, env: { TILLER_HOME: home } });
  ptys.push(pty);
  return pty;
}

const footer = (pty: TillerPty): string =>
  pty
    .lines()
    .filter((l) => l.trim() !== '')
    .at(-1) ?? '';
const config = (): string => readFileSync(join(home, 'config.toml'), 'utf8');

/** The raw output written after `mark` (a length of raw()). */
const since = (pty: TillerPty, mark: number): string => pty.raw().slice(mark);

/** The SGR codes drawn just before `text` in `raw` (its last drawing). */
function codesBefore(raw: string, text: string): string {
  const at = raw.lastIndexOf(text);
  if (at < 0) return '';
  return /(?:\x1b\[[0-9;]*m)*$/.exec(raw.slice(Math.max(0, at - 40), at))![0];
}

async function command(pty: TillerPty, text: string, shows: string): Promise<void> {
  await typeSlowly(pty, text);
  pty.press('enter');
  await pty.waitFor(shows);
}

describe('/statusline and /theme in the terminal', { timeout: 90_000 }, () => {
  it('/statusline: ticking git-branch shows it in the footer at once; Enter writes config.toml; a restart keeps it', async () => {
    let pty = start();
    await pty.waitFor('Ask Tiller to do anything');
    expect(footer(pty)).not.toContain('e2e-branch');
    await command(pty, '/statusline', 'Configure the status line');
    // sandbox, context-remaining, model-with-reasoning ticked; git-branch is the 8th row.
    for (let i = 0; i < 7; i++) pty.press('down');
    await pty.waitFor('▸ [ ] git-branch');
    pty.write(' ');
    await pty.waitFor((s) => s.includes('▸ [x] git-branch') && (s.trimEnd().split('\n').at(-1) ?? '').includes('e2e-branch'));
    pty.press('enter');
    await pty.waitFor('Saved in config.toml');
    expect(footer(pty)).toMatch(/ · e2e-branch · offline$/);
    expect(config()).toContain('[tui]\nstatus_line = ["sandbox", "context-remaining", "model-with-reasoning", "git-branch"]\n');
    expect(config()).toContain('[projects.'); // the trust decision stays
    expect(statSync(join(home, 'config.toml')).mode & 0o777).toBe(0o600);
    expect(await pty.exit()).toBe(0);

    pty = start();
    await pty.waitFor('Ask Tiller to do anything');
    await pty.waitFor((s) => (s.trimEnd().split('\n').at(-1) ?? '').includes('e2e-branch'));
    // Esc puts back what the footer showed when the picker opened.
    await command(pty, '/statusline', 'Configure the status line');
    pty.write(' '); // untick the first row, sandbox
    await pty.waitFor('▸ [ ] sandbox');
    pty.press('esc');
    await pty.waitFor((s) => !s.includes('Configure the status line'));
    expect(footer(pty)).toMatch(/ · e2e-branch · offline$/);
    expect(config()).toContain('"sandbox", "context-remaining"');
  });

  it('/theme: moving re-colours the screen, Esc restores the old colours, Enter keeps the new theme across a restart', async () => {
    let pty = start();
    await pty.waitFor('Ask Tiller to do anything');
    const dim = codesBefore(pty.raw(), '  ? for shortcuts');
    expect(dim).toContain('\x1b[2m');
    await command(pty, '/theme', 'Select a theme');
    await pty.waitFor('▸ 1. dark');
    expect(codesBefore(pty.raw(), '▸ 1. dark')).toContain('\x1b[36m'); // dark's accent: cyan

    let mark = pty.raw().length;
    pty.press('down');
    await pty.waitFor('▸ 2. light');
    expect(codesBefore(since(pty, mark), '▸ 2. light')).toContain('\x1b[34m'); // light's accent: blue

    mark = pty.raw().length;
    pty.press('down');
    await pty.waitFor('▸ 3. high-contrast');
    const bright = since(pty, mark);
    expect(codesBefore(bright, '▸ 3. high-contrast')).toContain('\x1b[96m');
    // The rest of the screen takes it too: the footer is no longer dim but bright white.
    expect(codesBefore(bright, '  ↑/↓ to preview')).toContain('\x1b[97m');
    expect(bright).toContain('\x1b[92m'); // the sample's diff: bright green

    mark = pty.raw().length;
    pty.press('esc');
    await pty.waitFor((s) => !s.includes('Select a theme'));
    await pty.idle(200);
    expect(codesBefore(since(pty, mark), '  ? for shortcuts')).toContain('\x1b[2m');
    expect(() => config()).not.toThrow();
    expect(config()).not.toContain('theme =');

    await command(pty, '/theme', 'Select a theme');
    pty.press('up'); // wraps to high-contrast
    await pty.waitFor('▸ 3. high-contrast');
    pty.press('enter');
    await pty.waitFor('Theme: high-contrast. Saved in config.toml.');
    expect(config()).toMatch(/^theme = "high-contrast"\n/);
    expect(await pty.exit()).toBe(0);

    pty = start();
    await pty.waitFor('Ask Tiller to do anything');
    await pty.idle(200);
    expect(codesBefore(pty.raw(), '  ? for shortcuts')).toContain('\x1b[97m');
  });
});
