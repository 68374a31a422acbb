/**
 * The command line of the UI, run for real in a pty: `tiller PROMPT` sends it as the first turn,
 * `-C DIR` works there (its AGENTS.md reaches the model and `/status` lists it), `-i IMAGE` attaches
 * images to that first message, or to the composer when there is no prompt.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeResponsesServer } from '../support/fake-responses-server.js';
import { startTiller, type TillerPty } from '../support/pty.js';
import { lastUserText, typeSlowly } from './helpers.js';
import { developerTexts, png, userContent } from './media-helpers.js';

let pty: TillerPty | null = null;
let server: FakeResponsesServer | null = null;
afterEach(async () => {
  pty?.kill();
  pty = null;
  await server?.close();
  server = null;
});

async function fakeServer(): Promise<{ OPENAI_BASE_URL: string; OPENAI_API_KEY: string }> {
  server = await FakeResponsesServer.start();
  return { OPENAI_BASE_URL: server.baseUrl, OPENAI_API_KEY: 'dummy' };
}

describe('tiller [OPTIONS] [PROMPT]', { timeout: 60_000 }, () => {
  it('`tiller "hello"` sends it as the first turn: the offline model echoes what it received', async () => {
    pty = startTiller({ args: ['hello'], cwd: await mkdtemp(join(tmpdir(), 'tiller-cli-')) });
    const screen = await pty.waitFor('5 chars: “hello”');
    expect(screen).toContain('› hello');
    // The composer is free for the next message.
    await pty.waitFor('Ask Tiller to do anything');
    expect(await pty.exit()).toBe(0);
  });

  it('-C DIR: works in DIR, whose AGENTS.md the model gets and /status lists; -i images go with the prompt', async () => {
    const start = await mkdtemp(join(tmpdir(), 'tiller-cli-'));
    const dir = join(start, 'project');
    mkdirSync(dir);
    writeFileSync(join(dir, 'AGENTS.md'), 'Run the tests with make check.\n');
    writeFileSync(join(start, 'shot.png'), await png(4, 3));
    const env = await fakeServer();
    server!.enqueue({ text: 'A small blue picture.' });
    pty = startTiller({ args: ['-C', 'project', '-i', 'shot.png', 'what is this'], cwd: start, env });
    await pty.waitFor('A small blue picture.');
    const [request] = await server!.waitForRequests(1);
    expect(userContent(request!)[0]!.text).toContain(`# AGENTS.md instructions for ${dir}`);
    expect(userContent(request!)[0]!.text).toContain('Run the tests with make check.');
    expect(userContent(request!).filter((part) => part.type === 'input_image')).toHaveLength(1);
    expect(lastUserText(request!)).toBe('what is this');
    await typeSlowly(pty, '/status');
    pty.press('enter');
    await pty.waitFor(`AGENTS.md: ${join(dir, 'AGENTS.md')} (31 bytes)`);
  });

  it('-i with no prompt: the image waits in the composer for the message typed after it', async () => {
    const start = await mkdtemp(join(tmpdir(), 'tiller-cli-'));
    writeFileSync(join(start, 'shot.png'), await png(4, 3));
    const env = await fakeServer();
    server!.enqueue({ text: 'Seen.' });
    pty = startTiller({ args: ['-i', 'shot.png'], cwd: start, env });
    await pty.waitFor('› [Image #1]');
    await typeSlowly(pty, 'describe it');
    pty.press('enter');
    await pty.waitFor('Seen.');
    const [request] = await server!.waitForRequests(1);
    expect(userContent(request!).filter((part) => part.type === 'input_image')).toHaveLength(1);
    expect(lastUserText(request!)).toContain('describe it');
  });

  it('a missing -C directory or a file that is no image stops before the UI: exit 2, one line', async () => {
    const start = await mkdtemp(join(tmpdir(), 'tiller-cli-'));
    writeFileSync(join(start, 'notes.txt'), 'text');
    pty = startTiller({ args: ['-C', 'nowhere', 'hi'], cwd: start });
    expect(await pty.waitForExit()).toBe(2);
    expect(pty.screen()).toContain("tiller: -C: no such directory: nowhere. Try 'tiller --help'.");
    pty.kill();
    pty = startTiller({ args: ['-i', 'notes.txt', 'hi'], cwd: start });
    expect(await pty.waitForExit()).toBe(2);
    // The line is wider than the terminal: read it unwrapped.
    expect(pty.screen().replace(/\n/g, '')).toContain(
      `tiller: --image: not an image file (PNG, JPEG, GIF or WebP): ${join(start, 'notes.txt')}. Try 'tiller --help'.`,
    );
    pty.kill();
    // A missing file is named as missing, not as no image (issue 30).
    pty = startTiller({ args: ['-i', 'nope.png', 'hi'], cwd: start });
    expect(await pty.waitForExit()).toBe(2);
    expect(pty.screen().replace(/\n/g, '')).toContain(`tiller: --image: no such file: ${join(start, 'nope.png')}. Try 'tiller --help'.`);
  });
});
