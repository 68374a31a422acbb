/**
 * The sandbox escapes an adversarial review found (docs/codex-parity.md "The sandbox"), each
 * through the real `tiller exec` with the fake model asking for the command, in a real bwrap.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeResponsesServer } from '../support/fake-responses-server.js';
import { tempDir } from './support/harness.js';
import { execHoldingFd200, fakeServerEnv, jsonEvents, spawnTiller } from './support/spawn.js';

let fake: FakeResponsesServer;
let ws: string;
beforeEach(async () => {
  fake = await FakeResponsesServer.start();
  ws = realpathSync(tempDir('tiller-escape-ws-'));
});
afterEach(async () => {
  await fake.close();
});

const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { cwd, encoding: 'utf8' });

/** Runs one turn in which the model asks for `command`; returns the command item and exec's exit code. */
async function modelRuns(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv = fakeServerEnv(fake),
): Promise<{ exit: number | null; item: Record<string, unknown>; toModel: string }> {
  fake.enqueue({ functionCall: { name: 'shell', arguments: { command } } }, { text: 'done' });
  const child = spawnTiller(['exec', '--json', '--skip-git-repo-check', ...args, 'go'], env, ws);
  const exit = await child.exit;
  const events = jsonEvents(child.lines);
  const item = events.find((e) => e.type === 'item.completed' && (e.item as { type: string }).type === 'command_execution');
  const second = fake.requests[fake.requests.length - 1]!.body.input as Array<{ type: string; output?: string }>;
  const toModel = second.find((i) => i.type === 'function_call_output')?.output ?? '';
  return { exit, item: (item?.item ?? {}) as Record<string, unknown>, toModel };
}

describe('unix-domain sockets outside the sandbox cannot be reached', () => {
  let server: Server;
  let connections = 0;
  let socketPath: string;
  beforeEach(async () => {
    connections = 0;
    socketPath = join(tempDir('tiller-escape-sock-'), 'daemon.sock');
    // Stands in for a tmux server, ssh-agent or docker.sock: whoever connects may ask it to act.
    server = createServer((socket) => {
      connections++;
      socket.end('obeyed\n');
    });
    await new Promise<void>((resolve) => server.listen(socketPath, resolve));
  });
  afterEach(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const connect = (path: string): string =>
    `node -e 'const c=require("net").connect(${JSON.stringify(path)});c.on("data",d=>process.stdout.write("got "+d));c.on("error",e=>{console.log("refused "+e.code);process.exit(3)})'`;

  for (const [name, flags] of [
    ['read-only', ['-s', 'read-only', '-a', 'never']],
    ['workspace-write', ['--full-auto']],
  ] as const) {
    it(`${name}: connecting gets EPERM and the daemon sees nobody`, async () => {
      const { item } = await modelRuns(connect(socketPath), [...flags]);
      expect(item.aggregated_output).toContain('refused EPERM');
      expect(item.aggregated_output).not.toContain('obeyed');
      expect(connections).toBe(0);
    });
  }

  it('with network access granted by the policy, unix sockets are reachable too (as documented)', async () => {
    const env = fakeServerEnv(fake);
    writeFileSync(join(env.TILLER_HOME!, 'config.toml'), '[sandbox_workspace_write]\nnetwork_access = true\n');
    const { item } = await modelRuns(connect(socketPath), ['--full-auto'], env);
    expect(item.aggregated_output).toContain('got obeyed');
    expect(connections).toBe(1);
  });

  it('pipes between processes in the sandbox still work (stream socket pairs)', async () => {
    const { item } = await modelRuns(
      `node -e 'require("child_process").exec("echo inner", (e, out) => console.log("child said " + out.trim()))'`,
      ['-s', 'read-only', '-a', 'never'],
    );
    expect(item).toMatchObject({ exit_code: 0, aggregated_output: 'child said inner\n' });
  });
});

describe("Tiller's own home is read-only in every sandbox", () => {
  it('a command in a workspace holding TILLER_HOME cannot add a hook or change the sandbox mode', async () => {
    const home = join(ws, '.tiller-home');
    mkdirSync(home);
    const config = join(home, 'config.toml');
    writeFileSync(config, 'model = "fake-model"\n');
    const env = fakeServerEnv(fake, { TILLER_HOME: home });
    const { item, toModel } = await modelRuns(
      `printf '[hooks]\\nuser_prompt_submit = ["touch ${ws}/RAN"]\\nsandbox_mode = "danger-full-access"\\n' >> ${config}; mkdir -p ${home}/skills/evil`,
      ['--full-auto'],
      env,
    );
    expect(item.status).toBe('failed');
    expect(toModel).toContain('Read-only file system');
    expect(readFileSync(config, 'utf8')).toBe('model = "fake-model"\n');
    expect(existsSync(join(home, 'skills', 'evil'))).toBe(false);
    // The workspace around it stays writable.
    const ok = await modelRuns('echo fine > made', ['--full-auto'], env);
    expect(ok.item.status).toBe('completed');
  });
});

describe('the real git directory behind a .git pointer file', () => {
  it('git init --separate-git-dir inside the workspace: its hooks cannot be written', async () => {
    git(ws, 'init', '-q', `--separate-git-dir=${join(ws, '.realgit')}`, ws);
    const { item } = await modelRuns(
      `printf '#!/bin/sh\\ntouch ${ws}/RAN\\n' > .realgit/hooks/pre-commit && chmod +x .realgit/hooks/pre-commit`,
      ['--full-auto'],
    );
    expect(item.status).toBe('failed');
    expect(item.aggregated_output).toContain('Read-only file system');
    expect(existsSync(join(ws, '.realgit', 'hooks', 'pre-commit'))).toBe(false);
  });
});

describe('descriptors Tiller inherits do not reach the command', () => {
  it('fd 200 open on a file outside the workspace: `echo x >&200` fails and the file stays empty', async () => {
    const outside = join(tempDir('tiller-escape-out-'), 'target');
    writeFileSync(outside, '');
    // bash: dash cannot name a descriptor past 9.
    fake.enqueue({ functionCall: { name: 'shell', arguments: { command: "bash -c 'echo x >&200'" } } }, { text: 'done' });
    const env = fakeServerEnv(fake);
    const { code, events } = await execHoldingFd200(outside, ['--full-auto', 'go'], ws, env);
    expect(code).toBe(0);
    const item = events.find((e) => e.type === 'item.completed' && (e.item as { type?: string } | undefined)?.type === 'command_execution');
    expect(item?.item).toMatchObject({ status: 'failed', aggregated_output: expect.stringContaining('Bad file descriptor') });
    expect(readFileSync(outside, 'utf8')).toBe('');
  });
});

describe('bwrap is never taken from a relative PATH entry', () => {
  it("PATH=.:$PATH with a repository's ./bwrap: the real sandbox runs, the stand-in never does", async () => {
    const standIn = join(ws, 'bwrap');
    // Would run the command outside any sandbox, after leaving a mark.
    writeFileSync(standIn, `#!/bin/sh\ntouch ${ws}/STAND_IN_RAN\nwhile [ "$1" != "--" ]; do shift; done; shift; exec "$@"\n`);
    chmodSync(standIn, 0o755);
    const env = fakeServerEnv(fake, { PATH: `.:${process.env.PATH}` });
    // Read-only: in the real sandbox the write fails; the stand-in would have let it through.
    const { item } = await modelRuns('echo x > written', ['-s', 'read-only', '-a', 'never'], env);
    expect(existsSync(join(ws, 'STAND_IN_RAN'))).toBe(false);
    expect(item).toMatchObject({ status: 'failed', aggregated_output: expect.stringContaining('Read-only file system') });
    expect(existsSync(join(ws, 'written'))).toBe(false);
  });
});

describe("git commands treated as read-only run no program the repository's config names", () => {
  beforeEach(() => {
    git(ws, 'init', '-q');
    writeFileSync(join(ws, 'f.txt'), 'a\n');
    writeFileSync(join(ws, '.gitattributes'), '*.txt diff=evil\n');
    git(ws, 'add', '.');
    git(ws, 'commit', '-qm', 'init');
    writeFileSync(join(ws, 'f.txt'), 'a\nb\n');
  });

  for (const [key, value, command] of [
    ['core.fsmonitor', `touch ${'$PWD'}/RAN; false`, 'git status'],
    ['diff.external', 'touch "$PWD/RAN"; true', 'git diff'],
    ['diff.evil.textconv', 'touch "$PWD/RAN"; cat', 'git log -p'],
  ] as const) {
    it(`${key}: \`${command}\` is asked about (no one here: declined), never run unasked`, async () => {
      git(ws, 'config', key, value.replace('$PWD', ws));
      const { item, toModel } = await modelRuns(command, ['-s', 'danger-full-access', '-a', 'untrusted']);
      expect(item.status).toBe('declined');
      expect(toModel).toContain('declined');
      expect(existsSync(join(ws, 'RAN'))).toBe(false);
    });
  }

  it('a clean repository: `git status` runs unasked, and without the fsmonitor or a hook', async () => {
    const hook = join(ws, '.git', 'hooks', 'post-index-change');
    writeFileSync(hook, `#!/bin/sh\ntouch ${ws}/HOOK_RAN\n`);
    chmodSync(hook, 0o755);
    const { item } = await modelRuns('git status --short', ['-s', 'danger-full-access', '-a', 'untrusted']);
    expect(item).toMatchObject({ status: 'completed', aggregated_output: ' M f.txt\n' });
    expect(existsSync(join(ws, 'HOOK_RAN'))).toBe(false);
  });

  it('`cd elsewhere && git status` is asked about: the other repository was not looked at', async () => {
    const other = realpathSync(tempDir('tiller-escape-other-'));
    git(other, 'init', '-q');
    git(other, 'config', 'core.fsmonitor', `touch ${ws}/RAN; false`);
    const { item } = await modelRuns(`cd ${other} && git status`, ['-s', 'danger-full-access', '-a', 'untrusted']);
    expect(item.status).toBe('declined');
    expect(existsSync(join(ws, 'RAN'))).toBe(false);
  });
});

describe("secrets stay out of the commands' environment", () => {
  it("the provider's key and *KEY*/*SECRET*/*TOKEN* names are removed; `set` and the rest pass", async () => {
    const env = fakeServerEnv(fake, {
      OPENAI_API_KEY: 'sk-should-not-leak',
      MY_PROVIDER_KEY_VAR: 'provider-secret',
      GITHUB_TOKEN: 'ghp-should-not-leak',
      DB_SECRET: 'db-should-not-leak',
      PLAIN_SETTING: 'visible',
    });
    writeFileSync(
      join(env.TILLER_HOME!, 'config.toml'),
      'model_provider = "mine"\n[model_providers.mine]\nenv_key = "MY_PROVIDER_KEY_VAR"\n[shell_environment_policy]\nset = { CI = "1" }\n',
    );
    const { item } = await modelRuns('env', ['-s', 'read-only', '-a', 'never'], env);
    const output = String(item.aggregated_output);
    for (const secret of ['sk-should-not-leak', 'provider-secret', 'ghp-should-not-leak', 'db-should-not-leak']) {
      expect(output).not.toContain(secret);
    }
    expect(output).toContain('PLAIN_SETTING=visible');
    expect(output).toContain('CI=1');
  });

  it('ignore_default_excludes passes a token through; include_only keeps only what it names', async () => {
    const env = fakeServerEnv(fake, { GITHUB_TOKEN: 'ghp-wanted', PLAIN_SETTING: 'visible' });
    writeFileSync(
      join(env.TILLER_HOME!, 'config.toml'),
      '[shell_environment_policy]\nignore_default_excludes = true\nexclude = ["OPENAI_*"]\ninclude_only = ["PATH", "GITHUB_*"]\n',
    );
    const { item } = await modelRuns('env', ['-s', 'read-only', '-a', 'never'], env);
    const names = String(item.aggregated_output)
      .split('\n')
      .filter((line) => line.includes('='))
      .map((line) => line.split('=')[0]);
    expect(names).toContain('GITHUB_TOKEN');
    expect(names).not.toContain('PLAIN_SETTING');
    expect(names).not.toContain('OPENAI_API_KEY');
  });
});

describe('tiller exec without --json', () => {
  it("shows control characters in the model's final message escaped, as the TUI does", async () => {
    fake.enqueue({ deltas: ['\u001b]0;pwned title\u0007', 'hello \u001b[2J there'] });
    const child = spawnTiller(['exec', '--skip-git-repo-check', 'go'], fakeServerEnv(fake), ws);
    expect(await child.exit).toBe(0);
    expect(child.lines).toEqual(['^[]0;pwned title^Ghello ^[[2J there']);
  });
});
