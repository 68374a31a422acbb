/**
 * `tiller exec` from a shell: a prompt with piped stdin, `-C`, and the exit codes of a refused key
 * (3) and a server never reached (4), each fatal error printed once. The real bin, spawned.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, openSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeResponsesServer } from '../support/fake-responses-server.js';
import { conversation, tempDir } from './support/harness.js';
import { childEnv, fakeServerEnv, jsonEvents, ROOT, spawnTiller } from './support/spawn.js';

let fake: FakeResponsesServer;
beforeEach(async () => {
  fake = await FakeResponsesServer.start();
});
afterEach(async () => {
  await fake.close();
});

/** Runs `tiller exec ARGS` with stdin from `stdin` (a real pipe through sh, or a file). */
function execWithStdin(
  args: string[],
  env: NodeJS.ProcessEnv,
  stdin: { pipe: string } | { file: string },
  cwd = ROOT,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const quoted = [`${ROOT}/bin/tiller`, 'exec', ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  const child =
    'pipe' in stdin
      ? spawn('/bin/sh', ['-c', `printf '%s' "$PIPED" | '${process.execPath}' ${quoted}`], {
          cwd,
          env: { ...env, PIPED: stdin.pipe },
          stdio: ['ignore', 'pipe', 'pipe'],
        })
      : spawn(process.execPath, [`${ROOT}/bin/tiller`, 'exec', ...args], { cwd, env, stdio: [openSync(stdin.file, 'r'), 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (c: string) => (stdout += c));
  child.stderr!.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

function userMessages(body: {
  input: Array<{ type: string; role?: string; content?: Array<{ type: string; text?: string }> }>;
}): string[][] {
  return conversation(body)
    .filter((i) => i.type === 'message' && i.role === 'user')
    .map((m) => (m.content ?? []).map((c: { text?: string }) => c.text ?? ''));
}

describe('tiller exec PROMPT with stdin', () => {
  it('`cat log | tiller exec "explain this"`: the prompt, then the piped text, in one user message', async () => {
    fake.enqueue({ text: 'it is a log' });
    const run = await execWithStdin(['explain this'], fakeServerEnv(fake), { pipe: 'error: disk full\nretrying\n' });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('it is a log\n');
    expect(userMessages(fake.requests[0]!.body)).toEqual([['explain this\n\n<stdin>\nerror: disk full\nretrying\n</stdin>']]);
  });

  it('stdin redirected from a file counts too; with no prompt, stdin stays the prompt', async () => {
    const file = join(tempDir(), 'notes.txt');
    writeFileSync(file, 'from a file');
    fake.enqueue({ text: 'one' }, { text: 'two' });
    expect((await execWithStdin(['summarize'], fakeServerEnv(fake), { file })).code).toBe(0);
    expect((await execWithStdin([], fakeServerEnv(fake), { pipe: 'the whole prompt' })).code).toBe(0);
    expect(userMessages(fake.requests[0]!.body)).toEqual([['summarize\n\n<stdin>\nfrom a file\n</stdin>']]);
    expect(userMessages(fake.requests[1]!.body)).toEqual([['the whole prompt']]);
  });

  it('an empty pipe adds nothing to the prompt', async () => {
    fake.enqueue({ text: 'ok' });
    expect((await execWithStdin(['just this'], fakeServerEnv(fake), { pipe: '' })).code).toBe(0);
    expect(userMessages(fake.requests[0]!.body)).toEqual([['just this']]);
  });
});

describe('tiller exec -C DIR', () => {
  it('works in DIR: its AGENTS.md reaches the model and commands run there; -i paths stay relative to the start', async () => {
    const start = tempDir();
    const dir = join(start, 'project');
    mkdirSync(dir);
    writeFileSync(join(dir, 'AGENTS.md'), 'Answer in French.\n');
    // Only where exec starts: found there, the image is sent; looked for in DIR, it would be a warning.
    writeFileSync(
      join(start, 'shot.png'),
      await sharp({ create: { width: 3, height: 2, channels: 3, background: '#336699' } })
        .png()
        .toBuffer(),
    );
    fake.enqueue({ functionCall: { name: 'shell', arguments: { command: 'pwd' } } }, { text: 'fait' });
    const child = spawnTiller(
      [
        'exec',
        '--json',
        '--skip-git-repo-check',
        '--dangerously-bypass-approvals-and-sandbox',
        '-C',
        'project',
        '-i',
        'shot.png',
        'where am I',
      ],
      fakeServerEnv(fake),
      start,
    );
    expect(await child.exit).toBe(0);
    const first = fake.requests[0]!.body;
    const [agents, ...rest] = conversation(first);
    expect(agents.role).toBe('user');
    expect(agents.content[0].text).toContain(`# AGENTS.md instructions for ${dir}`);
    expect(agents.content[0].text).toContain('Answer in French.');
    const user = rest.find((i: { role?: string }) => i.role === 'user');
    const images = user.content.filter((c: { type: string }) => c.type === 'input_image');
    expect(images).toHaveLength(1);
    expect(images[0].image_url).toMatch(/^data:image\/png;base64,/);
    const events = jsonEvents(child.lines);
    expect(events.filter((e) => e.type === 'item.completed' && (e.item as { type: string }).type === 'error')).toEqual([]);
    expect(events).toContainEqual({
      type: 'item.completed',
      item: expect.objectContaining({ type: 'command_execution', aggregated_output: `${dir}\n` }),
    });
  });

  it('a missing DIR is a usage error: exit 2, one line, nothing sent', async () => {
    const child = spawnTiller(['exec', '-C', '/no/such/dir', 'hi'], fakeServerEnv(fake));
    expect(await child.exit).toBe(2);
    expect(child.stderr()).toBe('tiller exec: -C: no such directory: /no/such/dir\n');
    expect(fake.requests).toHaveLength(0);
  });
});

/** A port nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function count(haystack: string, needle: string): number {
  return haystack.split(needle).length - 1;
}

describe('tiller exec exit codes', () => {
  it('3 when the server refuses the key (401), the error printed once', async () => {
    fake.enqueue({
      fault: { kind: 'status', status: 401, body: { error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } } },
    });
    const child = spawnTiller(['exec', 'q'], fakeServerEnv(fake));
    expect(await child.exit).toBe(3);
    expect(child.lines).toEqual([]);
    expect(count(child.stderr(), 'Incorrect API key provided')).toBe(1);
    expect(child.stderr()).toContain('tiller: turn failed: unexpected status 401');
  });

  it('3 for 403 too, in --json mode as well', async () => {
    fake.enqueue({ fault: { kind: 'status', status: 403, body: { error: { message: 'forbidden here', type: 'permission_error' } } } });
    const child = spawnTiller(['exec', '--json', 'q'], fakeServerEnv(fake));
    expect(await child.exit).toBe(3);
    expect(jsonEvents(child.lines).at(-1)).toMatchObject({ type: 'turn.failed', error: { message: expect.stringContaining('403') } });
  });

  it('4 when nothing answers at the server’s address (after the retries), the failure printed once', async () => {
    const port = await closedPort();
    const env = childEnv({ OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1`, OPENAI_API_KEY: 'dummy' });
    writeFileSync(join(env.TILLER_HOME!, 'config.toml'), 'stream_max_retries = 1\n');
    const child = spawnTiller(['exec', 'q'], env);
    expect(await child.exit).toBe(4);
    const stderr = child.stderr();
    expect(count(stderr, 'Reconnecting... 1/1')).toBe(1);
    expect(count(stderr, 'exceeded retry limit')).toBe(1);
    expect(stderr).toContain('ECONNREFUSED');
  });

  it('1 for another failure, its message once (not also as a progress line)', async () => {
    fake.enqueue({
      fault: { kind: 'status', status: 400, body: { error: { message: 'bad request body', type: 'invalid_request_error' } } },
    });
    const child = spawnTiller(['exec', 'q'], fakeServerEnv(fake));
    expect(await child.exit).toBe(1);
    expect(count(child.stderr(), 'bad request body')).toBe(1);
  });

  it('2 for a usage error, on one line', async () => {
    const child = spawnTiller(['exec', '--sandbox', 'nope', 'q'], fakeServerEnv(fake));
    expect(await child.exit).toBe(2);
    expect(child.stderr()).toBe('tiller exec: --sandbox takes one of read-only, workspace-write, danger-full-access\n');
  });
});
