/**
 * The draft journal end to end: the real bin in a pty, killed with SIGKILL (or quit with Ctrl+C
 * Ctrl+C) while a draft with a 5,000-character paste and an image is in the composer; the next
 * launch in that directory has the draft back, and Enter sends the very request the draft would
 * have sent without the crash.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeResponsesServer } from '../support/fake-responses-server.js';
import { startTiller, type TillerPty } from '../support/pty.js';
import { composerText, typeSlowly } from './helpers.js';
import { png } from './media-helpers.js';

let dir: string;
let project: string;
let shot: string;
let server: FakeResponsesServer;
const ptys: TillerPty[] = [];

/** 5,000 characters over several lines, with CJK and emoji in them. */
const LINES = Array.from({ length: 100 }, (_, i) => `line ${String(i).padStart(3, '0')} 世界 🎉 `.padEnd(48, '.')).join('\n');
const PASTE = LINES + '.'.repeat(5000 - [...LINES].length);

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'tiller-e2e-drafts-'));
  project = path.join(dir, 'project');
  await mkdir(project);
  // In the temporary directory, as a clipboard image is: the journal keeps a copy of it.
  shot = path.join(dir, 'shot.png');
  await writeFile(shot, await png(160, 90, '#884422'));
  expect([...PASTE].length).toBe(5000);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

beforeEach(async () => {
  server = await FakeResponsesServer.start();
  server.setDefault({ text: 'Seen.' });
});

afterEach(async () => {
  for (const pty of ptys.splice(0)) pty.kill();
  await server.close();
});

function launch(home: string): TillerPty {
  const pty = startTiller({
    cwd: project,
    cols: 120,
    rows: 40,
    env: { TILLER_HOME: home, OPENAI_BASE_URL: server.baseUrl, OPENAI_API_KEY: 'dummy' },
  });
  ptys.push(pty);
  return pty;
}

async function freshHome(): Promise<string> {
  return mkdtemp(path.join(dir, 'home-'));
}

/** Typed text, the paste, the image (a pasted path, as drag-and-drop delivers it), more text. */
async function typeDraft(pty: TillerPty): Promise<void> {
  await pty.waitFor('Ask Tiller to do anything');
  await typeSlowly(pty, 'look 你好 ');
  pty.paste(PASTE);
  await pty.waitFor('[Pasted Content 5000 chars]');
  pty.paste(shot);
  await pty.waitFor('[Image #1] shot.png');
  await typeSlowly(pty, 'ok?');
}

const DRAFT_ON_SCREEN = 'look 你好 [Pasted Content 5000 chars][Image #1] ok?';

function journalFiles(home: string): string[] {
  const drafts = path.join(home, 'drafts');
  return existsSync(drafts)
    ? readdirSync(drafts)
        .filter((f) => f.endsWith('.json'))
        .map((f) => path.join(drafts, f))
    : [];
}

async function until(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** A journal or attachment write not yet renamed into place leaves its temp file. */
function writeUnderWay(home: string): boolean {
  const drafts = path.join(home, 'drafts');
  return [drafts, path.join(drafts, 'attachments')].some((d) => existsSync(d) && readdirSync(d).some((f) => f.endsWith('.tmp')));
}

describe('the draft journal', { timeout: 120_000 }, () => {
  it('after SIGKILL the relaunch restores the draft; Enter sends the request the uncrashed draft sent', async () => {
    // The draft sent without a crash, for comparison.
    const reference = launch(await freshHome());
    await typeDraft(reference);
    expect(composerText(reference.screen())).toBe(DRAFT_ON_SCREEN);
    reference.press('enter');
    const [sent] = await server.waitForRequests(1, 20_000);
    await reference.waitFor('Seen.');
    reference.kill();

    const home = await freshHome();
    const first = launch(home);
    await typeDraft(first);
    // Written within ~250 ms of the last key (temp file, then rename): kill once it has the last key
    // and no write is under way.
    await until(() => journalFiles(home).some((f) => readFileSync(f, 'utf8').includes('ok?')) && !writeUnderWay(home), 'the journal');
    first.kill();
    expect(first.exited() || (await first.waitForExit(5_000)) !== null).toBe(true);

    const second = launch(home);
    const screen = await second.waitFor(
      (s) => s.includes('Restored your unsent draft: 1 paste, 1 image') && composerText(s) === DRAFT_ON_SCREEN,
    );
    expect(screen).toContain('[Image #1] shot.png');
    second.press('enter');
    const [, again] = await server.waitForRequests(2, 20_000);
    expect(again!.body.input).toEqual(sent!.body.input);
    await second.waitFor('Seen.');
    // A draft sent is gone from the journal.
    await until(() => journalFiles(home).length === 0, 'the journal file to go');
  });

  it('a closed terminal (SIGHUP) right after a key: the exit writes the journal, the last key included', async () => {
    const home = await freshHome();
    const first = launch(home);
    await first.waitFor('Ask Tiller to do anything');
    await typeSlowly(first, 'closing now');
    // Well inside the 250 ms window of the last key: only the write on the way out has it.
    process.kill(first.pid, 'SIGHUP');
    await first.waitForExit();
    const second = launch(home);
    await second.waitFor((s) => s.includes('Restored your unsent draft') && composerText(s) === 'closing now');
  });

  it('Ctrl+C Ctrl+C with a draft quits; the relaunch has the draft back', async () => {
    const home = await freshHome();
    const first = launch(home);
    await typeDraft(first);
    first.press('ctrl-c');
    await first.waitFor((s) => !s.includes('[Pasted Content 5000 chars]'));
    first.press('ctrl-c');
    expect(await first.waitForExit()).toBe(0);

    const second = launch(home);
    // The notice and the composer can reach the screen in two frames: wait for both.
    const screen = await second.waitFor(
      (s) => s.includes('Restored your unsent draft: 1 paste, 1 image') && composerText(s) === DRAFT_ON_SCREEN,
    );
    expect(screen).toContain('[Image #1] shot.png');
    second.press('enter');
    const [request] = await server.waitForRequests(1, 20_000);
    expect(JSON.stringify(request!.body.input)).toContain(JSON.stringify(PASTE).slice(1, -1));
  });
});
