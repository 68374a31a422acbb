/**
 * `tiller exec` and the package entry points: the offline model with
 * no network, SIGINT in text mode and while a command runs (exit 130, process gone), and
 * `--version` / `--help` straight from the bundle.
 */
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeResponsesServer } from '../support/fake-responses-server.js';
import { tempDir } from './support/harness.js';
import { alive, until, waitForPid } from './support/process.js';
import { childEnv, fakeServerEnv, jsonEvents, ROOT, spawnTiller } from './support/spawn.js';

let fake: FakeResponsesServer;
beforeEach(async () => {
  fake = await FakeResponsesServer.start();
});
afterEach(async () => {
  await fake.close();
});

const overHttp = () => fakeServerEnv(fake);

describe('tiller exec with the offline model (no key, no base URL)', () => {
  it('--json "hi": thread.started, turn.started, the answer, turn.completed with usage; exit 0', async () => {
    const child = spawnTiller(['exec', '--json', '--skip-git-repo-check', 'hi'], childEnv({ TILLER_OFFLINE_DELAY_MS: '0' }), tempDir());
    expect(await child.exit).toBe(0);
    const out = jsonEvents(child.lines);
    expect(out.map((e) => e.type)).toEqual(['thread.started', 'turn.started', 'item.completed', 'turn.completed']);
    expect(out[2]).toMatchObject({ item: { id: 'item_0', type: 'agent_message', text: expect.stringContaining('2 chars: “hi”') } });
    const usage = out[3]!.usage as Record<string, number>;
    expect(Object.keys(usage).sort()).toEqual([
      'cache_write_input_tokens',
      'cached_input_tokens',
      'input_tokens',
      'output_tokens',
      'reasoning_output_tokens',
    ]);
    expect(usage.output_tokens).toBeGreaterThan(0);
  });

  it('`run:` with no sandbox and no one to approve it is declined and the model says so; exit 0', async () => {
    const child = spawnTiller(
      ['exec', '--json', '--skip-git-repo-check', '-s', 'danger-full-access', 'run: echo hi'],
      childEnv({ TILLER_OFFLINE_DELAY_MS: '0' }),
      tempDir(),
    );
    expect(await child.exit).toBe(0);
    const out = jsonEvents(child.lines);
    expect(out.map((e) => e.type)).toEqual([
      'thread.started',
      'turn.started',
      'item.started',
      'item.completed',
      'item.completed',
      'turn.completed',
    ]);
    expect(out[3]).toMatchObject({ item: { type: 'command_execution', status: 'declined', exit_code: null } });
    expect(out[4]).toMatchObject({ item: { type: 'agent_message', text: expect.stringContaining('did not run') } });
  });
});

describe('tiller exec and SIGINT', () => {
  it('text mode: exit 130, nothing on stdout', async () => {
    fake.enqueue({ fault: { kind: 'stall', afterEvents: 3 } });
    const child = spawnTiller(['exec', '--skip-git-repo-check', 'q'], overHttp(), tempDir());
    await fake.waitForRequests(1);
    child.proc.kill('SIGINT');
    expect(await child.exit).toBe(130);
    expect(child.lines).toEqual([]);
  });

  it('while a command runs: the command is killed, no turn.completed or turn.failed; exit 130', async () => {
    const pidFile = join(tempDir(), 'pid');
    fake.enqueue({ functionCall: { name: 'shell', arguments: { command: `echo $$ > ${pidFile}; sleep 30` } } }, { text: 'never' });
    // Outside the sandbox, so the pid the command writes is one this test can see.
    const child = spawnTiller(
      ['exec', '--json', '--skip-git-repo-check', '--dangerously-bypass-approvals-and-sandbox', 'go'],
      overHttp(),
      tempDir(),
    );
    const pid = await waitForPid(pidFile);
    expect(alive(pid)).toBe(true);
    child.proc.kill('SIGINT');
    expect(await child.exit).toBe(130);
    await until(() => !alive(pid));
    const types = jsonEvents(child.lines).map((e) => e.type);
    expect(types.slice(0, 3)).toEqual(['thread.started', 'turn.started', 'item.started']);
    expect(types).not.toContain('turn.completed');
    expect(types).not.toContain('turn.failed');
    expect(fake.requests).toHaveLength(1);
  });
});

function tiller(
  args: string[],
  nodeArgs: string[] = [],
  env: NodeJS.ProcessEnv = childEnv(),
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [...nodeArgs, join(ROOT, 'bin/tiller'), ...args], { env }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

describe('bin/tiller entry points', () => {
  it('--version prints the package version; --help lists the commands; both exit 0', async () => {
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(await tiller(['--version'])).toEqual({ code: 0, stdout: `tiller ${version}\n`, stderr: '' });
    const help = await tiller(['--help']);
    expect(help.code).toBe(0);
    for (const command of ['tiller exec', 'tiller app-server', 'tiller inspect']) expect(help.stdout).toContain(command);
  });

  it('--version loads neither sharp nor the openai SDK (start-up stays light)', async () => {
    const dir = tempDir();
    const log = join(dir, 'loaded.txt');
    const hooks = `import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  appendFileSync(${JSON.stringify(log)}, url + '\\n');
  return next(url, context);
}`;
    const register = join(dir, 'register.mjs');
    writeFileSync(
      register,
      `import { register } from 'node:module';\nregister(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hooks)}`)});\n`,
    );
    const run = await tiller(['--version'], ['--import', register]);
    expect(run.code).toBe(0);
    const loaded = readFileSync(log, 'utf8').trim().split('\n');
    expect(loaded).toContain(`file://${join(ROOT, 'bin/tiller')}`);
    expect(loaded.filter((url) => /node_modules\/(sharp|@img|openai)\//.test(url))).toEqual([]);
    const chunks = loaded.filter((url) => url.startsWith(`file://${join(ROOT, 'dist')}/`));
    expect(chunks.length).toBeGreaterThan(0);
    for (const url of chunks) {
      expect(url).not.toMatch(/\/openai-[^/]*\.mjs$/);
      // The SDK's request headers; no chunk that --version loads may carry its code.
      expect(readFileSync(new URL(url), 'utf8')).not.toMatch(/stainless/i);
    }
  });

  it('an unknown option exits 2 with one line', async () => {
    const run = await tiller(['--bogus']);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe("tiller: unknown option '--bogus'. Try 'tiller --help'.\n");
  });

  it('a first word that is no command is the UI’s prompt (which needs a terminal), not an unknown command', async () => {
    const run = await tiller(['fix the build']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^tiller: the interactive UI needs a terminal/);
  });
});
