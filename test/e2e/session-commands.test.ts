/**
 * /ps, /stop, /rename and /export in the real bin: a background `sleep` the model left running is
 * listed and ended; a named session comes back with `tiller resume NAME`; the exported Markdown
 * holds what the transcript shows.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeResponsesServer } from '../support/fake-responses-server.js';
import { startTiller, type TillerPty } from '../support/pty.js';
import { lastUserText, typeSlowly } from './helpers.js';

let server: FakeResponsesServer;
let home: string;
let cwd: string;
let ptys: TillerPty[] = [];
/** A failed test may leave what it started running: ended here. */
let cleanups: Array<() => void> = [];

beforeEach(async () => {
  server = await FakeResponsesServer.start();
  home = mkdtempSync(join(tmpdir(), 'tiller-e2e-cmds-home-'));
  cwd = mkdtempSync(join(tmpdir(), 'tiller-e2e-cmds-cwd-'));
});

afterEach(async () => {
  for (const pty of ptys) pty.kill();
  ptys = [];
  for (const cleanup of cleanups) cleanup();
  cleanups = [];
  await server.close();
  rmSync(home, { recursive: true, force: true });
  rmSync(cwd, { recursive: true, force: true });
});

/** `sub`: a subcommand and its words (`resume NAME`), which come before the options. */
function start(sub: string[] = []): TillerPty {
  const pty = startTiller({
    args: [...sub, '-a', 'never', '-s', 'danger-full-access'],
    cwd,
    cols: 110,
    rows: 36,
    env: { TILLER_HOME: home, OPENAI_BASE_URL: server.baseUrl, OPENAI_API_KEY: 'dummy', SHELL: '/bin/sh' },
  });
  ptys.push(pty);
  return pty;
}

async function command(pty: TillerPty, text: string, shows: string): Promise<void> {
  await typeSlowly(pty, text);
  pty.press('enter');
  await pty.waitFor(shows);
}

/** The pids of processes with exactly this command line (its unique duration makes them this test's). */
function pidsOf(args: string): number[] {
  const out = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' });
  return out.split('\n').flatMap((line) => {
    const m = /^\s*(\d+) (.*)$/u.exec(line);
    return m !== null && m[2]!.trim() === args ? [Number(m[1])] : [];
  });
}
const running = (args: string): boolean => pidsOf(args).length > 0;

describe('session commands in the terminal', { timeout: 90_000 }, () => {
  it('/ps lists the background sleep with its last output line; /stop ends it; /ps then has none', async () => {
    // A duration no other run sleeps, so `ps` finds this one.
    const sleep = `sleep 417.${process.pid}`;
    cleanups.push(() => {
      for (const pid of pidsOf(sleep)) process.kill(pid);
    });
    let step = 0;
    server.respondWith(() => {
      step++;
      if (step === 1)
        return { functionCall: { name: 'exec_command', arguments: { cmd: `echo warming-up; ${sleep}`, yield_time_ms: 300 } } };
      return { text: 'Left it running.' };
    });
    const pty = start();
    await pty.waitFor('Ask Tiller to do anything');
    await typeSlowly(pty, 'start the server');
    pty.press('enter');
    await pty.waitFor((s) => s.includes('Left it running.') && !s.includes('esc to interrupt'));
    expect(running(sleep)).toBe(true);

    await command(pty, '/ps', 'Background commands (1):');
    const listed = pty.scrollback();
    expect(listed).toMatch(new RegExp(`\\d+  echo warming-up; ${sleep.replace('.', '\\.')}  \\(running \\d+s\\)`));
    expect(listed).not.toContain('-lc');
    expect(listed).toContain('↳ warming-up');

    await command(pty, '/stop', 'Stopped 1 background command');
    await expect.poll(() => running(sleep), { timeout: 5000 }).toBe(false);
    await command(pty, '/ps', 'No background commands are running.');
    await command(pty, '/stop 12', 'No background command has id 12.');
    await command(pty, '/stop now', 'Usage: /stop [ID]');
  });

  it('/rename names the session; tiller resume NAME brings it back, and the picker shows the name', async () => {
    server.respondWith((request) => ({ text: `Answer to ${lastUserText(request) ?? ''}.` }));
    const first = start();
    await first.waitFor('Ask Tiller to do anything');
    await typeSlowly(first, 'plan the trip');
    first.press('enter');
    await first.waitFor((s) => s.includes('Answer to plan the trip.') && !s.includes('esc to interrupt'));
    await command(first, '/rename', 'Usage: /rename NAME');
    await command(first, '/rename trip-plan', 'Session named "trip-plan". Resume it with: tiller resume trip-plan');
    first.press('ctrl-c');
    await first.waitFor('press Ctrl+C again to quit');
    first.press('ctrl-c');
    expect(await first.waitForExit()).toBe(0);
    expect(statSync(join(home, 'session_index.jsonl')).mode & 0o777).toBe(0o600);

    const again = start(['resume', 'trip-plan']);
    await again.waitFor('Answer to plan the trip.');
    expect(again.scrollback()).toContain('plan the trip');
    again.kill();

    const picker = start(['resume']);
    await picker.waitFor('Resume a previous session');
    await picker.waitFor('trip-plan');
  });

  it('/export writes the transcript as Markdown (and --json); an existing file is not overwritten', async () => {
    server.respondWith(() => ({ text: 'Paris is the **capital** of France.' }));
    const pty = start();
    await pty.waitFor('Ask Tiller to do anything');
    await typeSlowly(pty, 'capital of France?');
    pty.press('enter');
    await pty.waitFor((s) => s.includes('capital of France.') && !s.includes('esc to interrupt'));

    await command(pty, '/export chat.md', 'Exported the transcript to');
    const path = join(cwd, 'chat.md');
    const markdown = readFileSync(path, 'utf8');
    expect(markdown).toMatch(
      /^# Tiller session [0-9a-f-]{36}\n\n## User\n\ncapital of France\?\n\n## Assistant\n\nParis is the \*\*capital\*\* of France\.\n$/,
    );
    expect(statSync(path).mode & 0o777).toBe(0o600);

    await command(pty, '/export chat.md', 'already exists: /export does not overwrite');
    expect(readFileSync(path, 'utf8')).toBe(markdown);

    await command(pty, '/export chat.json --json', 'Exported the transcript as JSON to');
    const json = JSON.parse(readFileSync(join(cwd, 'chat.json'), 'utf8'));
    expect(json.entries).toEqual([
      { role: 'user', text: 'capital of France?', attachments: [] },
      { role: 'assistant', text: 'Paris is the **capital** of France.' },
    ]);
  });
});
