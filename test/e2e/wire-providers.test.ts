/**
 * The chat and Anthropic wires through the real bin in a pseudo-terminal (issue 29): a turn with a
 * command and an apply_patch and an attached image, resume of that session on the same wire, a
 * provider switch mid-session through /model, and `--config model_provider=…` at launch.
 */
import { existsSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FAKE_ANTHROPIC_MODELS, FakeAnthropicServer } from '../support/fake-anthropic-server.js';
import { FakeChatServer } from '../support/fake-chat-server.js';
import { startTiller, type TillerPty } from '../support/pty.js';
import { tempDir } from '../runtime/support/config.js';
import { typeSlowly } from './helpers.js';
import { png } from './media-helpers.js';

const PATCH = '*** Begin Patch\n*** Add File: hello.txt\n+hello from the wire\n*** End Patch';
const ENV = { TILLER_TEST_KEY: 'sk-test' };

const ptys: TillerPty[] = [];
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const pty of ptys.splice(0)) pty.kill();
  for (const close of closers.splice(0)) await close();
});

function provider(id: string, wire: 'chat' | 'anthropic', baseUrl: string): string {
  return `[model_providers.${id}]\nname = "${id === 'c' ? 'Chat Server' : 'Claude Server'}"\nbase_url = "${baseUrl}"\nwire_api = "${wire}"\nenv_key = "TILLER_TEST_KEY"\n`;
}

function home(selected: string, ...tables: string[]): string {
  const dir = tempDir('tiller-wire-providers-');
  writeFileSync(join(dir, 'config.toml'), `model_provider = "${selected}"\n${tables.join('')}`);
  return dir;
}

function start(tillerHome: string, cwd: string, args: string[]): TillerPty {
  // A command word (`resume`) comes first.
  const [command, rest] = args[0] === 'resume' ? [['resume'], args.slice(1)] : [[], args];
  const flags = ['-a', 'never', '-s', 'danger-full-access'];
  const pty = startTiller({ args: [...command, ...flags, ...rest], cwd, env: { TILLER_HOME: tillerHome, ...ENV } });
  ptys.push(pty);
  return pty;
}

async function send(pty: TillerPty, message: string, answer: string): Promise<void> {
  await typeSlowly(pty, message);
  pty.press('enter');
  await pty.waitFor((s) => s.includes(answer) && !s.includes('esc to interrupt'), 20_000);
}

async function quit(pty: TillerPty): Promise<void> {
  pty.press('ctrl-c');
  await pty.waitFor('press Ctrl+C again to quit');
  pty.press('ctrl-c');
  expect(await pty.waitForExit()).toBe(0);
}

interface WireCase {
  wire: 'chat' | 'anthropic';
  model: string;
  /** Starts the fake, scripts a command and a patch then an answer, and reads back what it was sent. */
  setUp(): Promise<{ baseUrl: string; scriptToolTurn(): void; scriptAnswer(text: string): void; bodies(): any[] }>;
  imageType: string;
}

const CASES: WireCase[] = [
  {
    wire: 'chat',
    model: 'gpt-5.5',
    imageType: '"type":"image_url"',
    async setUp() {
      const fake = await FakeChatServer.start();
      closers.push(() => fake.close());
      return {
        baseUrl: fake.baseUrl,
        scriptToolTurn: () =>
          fake.enqueue(
            {
              toolCalls: [
                { name: 'exec_command', arguments: { cmd: 'echo wire-ran' }, id: 'call_cmd' },
                { name: 'apply_patch', arguments: { input: PATCH }, id: 'call_patch' },
              ],
            },
            { text: 'All done on the wire.' },
          ),
        scriptAnswer: (text) => fake.enqueue({ text }),
        bodies: () => fake.requests.map((r) => r.body),
      };
    },
  },
  {
    wire: 'anthropic',
    model: 'claude-sonnet-4-5',
    imageType: '"type":"image"',
    async setUp() {
      const fake = await FakeAnthropicServer.start();
      closers.push(() => fake.close());
      return {
        baseUrl: fake.baseUrl,
        scriptToolTurn: () =>
          fake.enqueue(
            {
              toolUses: [
                { name: 'exec_command', input: { cmd: 'echo wire-ran' }, id: 'toolu_cmd' },
                { name: 'apply_patch', input: { input: PATCH }, id: 'toolu_patch' },
              ],
            },
            { text: 'All done on the wire.' },
          ),
        scriptAnswer: (text) => fake.enqueue({ text }),
        bodies: () => fake.requests.map((r) => r.body),
      };
    },
  },
];

describe.each(CASES)('the $wire wire in the UI', { timeout: 90_000 }, (c) => {
  it('runs a command and a patch with an image attached, then resumes the session on the same wire', async () => {
    const fake = await c.setUp();
    const cwd = realpathSync(tempDir('tiller-wire-ws-'));
    const image = join(cwd, 'blue.png');
    writeFileSync(image, await png(8, 8));
    const tillerHome = home('x', provider('x', c.wire, fake.baseUrl));
    fake.scriptToolTurn();
    const pty = start(tillerHome, cwd, ['-m', c.model, '-i', image]);
    // The attachment is read after the first frame: wait for it, not for the empty composer.
    await pty.waitFor('› [Image #1]');
    await send(pty, 'make hello.txt', 'All done on the wire.');
    expect(readFileSync(join(cwd, 'hello.txt'), 'utf8')).toBe('hello from the wire\n');
    const screen = pty.logicalText();
    expect(screen).toContain('echo wire-ran');
    expect(screen).toContain('hello.txt');
    const [first, second] = fake.bodies();
    expect(JSON.stringify(first)).toContain(c.imageType);
    expect(JSON.stringify(second)).toContain('wire-ran');
    await quit(pty);

    fake.scriptAnswer('Resumed on the wire.');
    const resumed = start(tillerHome, cwd, ['resume', '--last']);
    await resumed.waitFor('All done on the wire.');
    await send(resumed, 'and now?', 'Resumed on the wire.');
    const last = JSON.stringify(fake.bodies().at(-1));
    expect(last).toContain('All done on the wire.');
    expect(last).toContain('wire-ran');
    expect(last).toContain('and now?');
  });
});

describe('switching provider in the UI', { timeout: 90_000 }, () => {
  it('/model lists both providers’ models and moves the session from the chat wire to the Anthropic wire, history kept', async () => {
    const chat = await FakeChatServer.start();
    const claude = await FakeAnthropicServer.start();
    closers.push(
      () => chat.close(),
      () => claude.close(),
    );
    chat.listModelsAs('models', ['qwen3:8b']);
    const cwd = realpathSync(tempDir('tiller-wire-ws-'));
    const pty = start(home('c', provider('c', 'chat', chat.baseUrl), provider('a', 'anthropic', claude.baseUrl)), cwd, ['-m', 'qwen3:8b']);
    await pty.waitFor('Ask Tiller to do anything');
    chat.enqueue({ reasoning: ['Qwen thinks.'], text: 'Qwen answered.' });
    await send(pty, 'first on chat', 'Qwen answered.');

    await typeSlowly(pty, '/model');
    pty.press('enter');
    const listed = await pty.waitFor((s) => s.includes(FAKE_ANTHROPIC_MODELS[0]!) && s.includes('qwen3:8b (current)'));
    expect(listed).toMatch(/claude-fake-4 +Claude Server/);
    expect(listed).toMatch(/qwen3:8b \(current\) +Chat Server/);
    // Typing in the picker filters it (the composer keeps its draft).
    await pty.type('mini', 20);
    await pty.waitFor('filter: mini');
    pty.press('enter');
    await pty.waitFor('Reasoning effort for claude-fake-4-mini');
    await pty.type('1');
    await pty.waitFor('Model: claude-fake-4-mini on Claude Server');

    claude.enqueue({ text: 'Claude answered.' });
    await send(pty, 'then on claude', 'Claude answered.');
    expect(chat.requests).toHaveLength(1);
    const [request] = claude.requests;
    expect(request!.body.model).toBe('claude-fake-4-mini');
    expect(request!.headers['x-api-key']).toBe('sk-test');
    const sent = JSON.stringify(request!.body.messages);
    expect(sent).toContain('Qwen answered.');
    expect(sent).not.toContain('Qwen thinks.');
  });

  it('--config model_provider=… starts on that provider; an unknown one is a usage error naming the key', async () => {
    const chat = await FakeChatServer.start();
    const claude = await FakeAnthropicServer.start();
    closers.push(
      () => chat.close(),
      () => claude.close(),
    );
    const cwd = realpathSync(tempDir('tiller-wire-ws-'));
    const tillerHome = home('c', provider('c', 'chat', chat.baseUrl), provider('a', 'anthropic', claude.baseUrl));
    const pty = start(tillerHome, cwd, ['--config', 'model_provider=a', '--config', 'model="claude-fake-4"']);
    await pty.waitFor('Ask Tiller to do anything');
    claude.enqueue({ text: 'Launched on Claude.' });
    await send(pty, 'hello', 'Launched on Claude.');
    expect(chat.requests).toHaveLength(0);
    expect(claude.requests[0]!.body.model).toBe('claude-fake-4');

    const bad = start(tillerHome, cwd, ['--config', 'model_provider=nope']);
    expect(await bad.waitForExit()).toBe(2);
    expect(bad.logicalText()).toMatch(/model_provider: no \[model_providers\.nope\] table/);
    expect(existsSync(join(cwd, 'hello.txt'))).toBe(false);
  });
});

describe('a base URL that is not an API root', { timeout: 60_000 }, () => {
  it('is said in one line naming the key before anything is sent, while typing goes on', async () => {
    const web = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<!doctype html><title>Router admin</title>');
    });
    await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', () => resolve()));
    closers.push(() => new Promise<void>((resolve) => web.close(() => resolve())));
    const address = web.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    const baseUrl = `http://127.0.0.1:${address.port}`;
    const cwd = realpathSync(tempDir('tiller-wire-ws-'));
    const pty = start(home('c', provider('c', 'chat', baseUrl)), cwd, ['-m', 'qwen3:8b']);
    await pty.waitFor('Ask Tiller to do anything');
    await pty.type('draft kept', 10);
    const screen = await pty.waitFor((s) => s.includes('is not an API root') && s.includes('draft kept'));
    // The warning is word-wrapped to the terminal: compare its words.
    const text = pty.logicalText().replace(/\s+/g, ' ');
    expect(text).toContain(`model_providers.c.base_url = "${baseUrl}" is not an API root (GET /models answered an HTML page (HTTP 200))`);
    expect(text).toContain('ends in /v1');
    expect(screen).toContain('draft kept');
  });
});
