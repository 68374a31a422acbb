/**
 * The first screen's header, /model against the fake server's GET /models (and its fallback to the
 * config's list on a 404) and Alt+. / Alt+,, through the real bin in a pty.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TILLER_VERSION } from '../../src/version.js';
import { startTiller, type TillerPty } from '../support/pty.js';
import { sessionPerTest, typeSlowly, waitForRequests } from './helpers.js';

const openSession = sessionPerTest();

let pty: TillerPty | null = null;
const dirs: string[] = [];
afterEach(() => {
  pty?.kill();
  pty = null;
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

/** The last row with text. */
const footer = (screen: string): string => screen.trimEnd().split('\n').at(-1)!;

describe('the header', { timeout: 60_000 }, () => {
  it('is printed once, first in the scrollback: version, model, provider, directory with ~, approval mode', async () => {
    const home = tempDir('tiller-header-home-');
    const cwd = join(home, 'project');
    mkdirSync(cwd);
    pty = startTiller({ cwd, env: { HOME: home }, cols: 100, rows: 30 });
    const screen = await pty.waitFor('Ask Tiller to do anything');
    const rows = screen.split('\n').filter((row) => row.trim() !== '');
    expect(rows.slice(0, 9)).toEqual([
      '╭────────────────────────────────────────────────────────────────────────────────────╮',
      `│ >_ Tiller (v${TILLER_VERSION})                                                                 │`,
      '│                                                                                    │',
      '│ model:     tiller-offline   /model to change                                       │',
      '│ provider:  offline model — set OPENAI_API_KEY or OPENAI_BASE_URL to use a real one │',
      '│ directory: ~/project                                                               │',
      '│ approvals: Auto (workspace-write, asks before leaving the sandbox)                 │',
      '╰────────────────────────────────────────────────────────────────────────────────────╯',
      '› Ask Tiller to do anything',
    ]);
    await typeSlowly(pty, 'hello');
    pty.press('enter');
    await pty.waitFor((s) => s.includes('I am the offline model') && !s.includes('esc to interrupt'));
    const scrollback = pty.scrollback();
    expect(scrollback.split('>_ Tiller').length - 1).toBe(1);
    expect(scrollback.indexOf('>_ Tiller')).toBeLessThan(scrollback.indexOf('› hello'));
  });
});

describe('/model', { timeout: 60_000 }, () => {
  it("lists the provider's models, and the pick (model and effort) goes into the next request", async () => {
    const session = await openSession({ args: ['--model', 'fake-model'] });
    const { server, pty: tty } = session;
    await typeSlowly(tty, '/model');
    tty.press('enter');
    const picker = await tty.waitFor('▸ fake-model (current)');
    expect(picker).toContain('  fake-model-mini');
    expect(picker).toContain('  fake-reasoner');
    expect(server.modelListRequests).toHaveLength(1);
    // The picker owns the keys (the caret does not move): each letter filters.
    await tty.type('reason', 30);
    await tty.waitFor('filter: reason');
    tty.press('enter');
    await tty.waitFor('Reasoning effort for fake-reasoner');
    tty.write('5');
    const picked = await tty.waitFor('• Model: fake-reasoner, reasoning effort high');
    expect(footer(picked)).toMatch(/ fake-reasoner high$/);
    await typeSlowly(tty, 'think');
    tty.press('enter');
    const [request] = await waitForRequests(session, 1);
    expect(request!.body).toMatchObject({ model: 'fake-reasoner', reasoning: { effort: 'high' } });
  });

  it("falls back to the config's models when GET /models is a 404, and says why", async () => {
    const home = tempDir('tiller-model-home-');
    writeFileSync(join(home, 'config.toml'), 'model = "mine"\nmodels = ["listed-a", "listed-b"]\n');
    const session = await openSession({ env: { TILLER_HOME: home } });
    session.server.setModels({ status: 404 });
    await typeSlowly(session.pty, '/model');
    session.pty.press('enter');
    const picker = await session.pty.waitFor('  listed-b');
    expect(picker).toContain('▸ mine (current)');
    expect(picker).toContain('  listed-a');
    expect(picker.replace(/\s+/g, ' ')).toContain(
      '⚠ The provider did not list its models (unexpected status 404: scripted status 404); showing the models listed in config.toml.',
    );
    session.pty.press('esc');
    await session.pty.waitFor((s) => !s.includes('listed-a'));
  });
});

describe('Alt+, and Alt+.', { timeout: 60_000 }, () => {
  it('lower and raise the reasoning effort, shown in the footer and sent with the next turn', async () => {
    const session = await openSession({ args: ['--model', 'fake-model'] });
    const { pty: tty } = session;
    tty.write('\x1b.');
    await tty.waitFor((s) => s.includes('• Reasoning effort: high') && footer(s).endsWith(' fake-model high'));
    tty.write('\x1b,');
    tty.write('\x1b,');
    await tty.waitFor((s) => s.includes('• Reasoning effort: low') && footer(s).endsWith(' fake-model low'));
    await typeSlowly(tty, 'quick one');
    tty.press('enter');
    const [request] = await waitForRequests(session, 1);
    expect(request!.body.reasoning).toEqual({ effort: 'low' });
  });
});
