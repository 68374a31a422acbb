import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { looksLikeSandboxDenial, probeSandbox, resolveSandbox, type ResolvedSandbox } from '../../src/runtime/sandbox/sandbox.js';
import { runShellCommand, type ShellRunOptions, type ShellRunResult } from '../../src/runtime/commands/run.js';
import { tempDir } from './support/harness.js';

const availability = await probeSandbox();
const title = availability.available
  ? `commands really run in the sandbox (${availability.kind})`
  : `SKIPPED, no sandbox here: ${availability.reason}`;

describe.skipIf(!availability.available)(title, () => {
  // Everything under one fresh dir: the workspace, the command's $TMPDIR, and a dir outside both.
  let base: string;
  let ws: string;
  let tmp: string;
  let outside: string;
  beforeAll(() => {
    base = realpathSync(tempDir('tiller-sbx-real-'));
    [ws, tmp, outside] = ['ws', 'tmp', 'outside'].map((name) => join(base, name)) as [string, string, string];
    for (const dir of [ws, tmp, outside]) mkdirSync(dir);
    mkdirSync(join(ws, '.git', 'hooks'), { recursive: true });
    writeFileSync(join(ws, '.git', 'config'), '[core]\n');
    writeFileSync(join(ws, 'readme'), 'hello from the workspace\n');
  });

  /** workspace-write with only the test's temp dir writable (not /tmp, which holds `base`). */
  const workspaceWrite = (overrides: Partial<ResolvedSandbox> = {}): ResolvedSandbox => ({
    ...resolveSandbox({ type: 'workspaceWrite', excludeSlashTmp: true }),
    ...overrides,
  });

  const run = (command: string, policy: ResolvedSandbox, options: Partial<ShellRunOptions> = {}): Promise<ShellRunResult> => {
    if (!availability.available) throw new Error('unreachable: skipped');
    return runShellCommand({
      command,
      cwd: ws,
      signal: new AbortController().signal,
      env: { ...process.env, TMPDIR: tmp },
      sandbox: { policy, launcher: availability },
      ...options,
    });
  };

  describe('read-only', () => {
    it('reads the workspace, writes neither it nor /tmp, and the failure reads as a denial', async () => {
      const read = await run('cat readme', resolveSandbox('read-only'));
      expect(read).toMatchObject({ exitCode: 0, output: 'hello from the workspace\n', sandboxed: true });

      const slashTmp = join('/tmp', `tiller-sbx-${process.pid}-${Date.now()}`);
      for (const target of [join(ws, 'new'), join(tmp, 'new'), slashTmp]) {
        const result = await run(`echo x > ${target}`, resolveSandbox('read-only'));
        expect(result.exitCode).not.toBe(0);
        expect(result.output).toContain('Read-only file system');
        expect(looksLikeSandboxDenial(result, result.sandboxed)).toBe(true);
        expect(existsSync(target)).toBe(false);
      }
    });

    it('keeps the working directory, the environment and the exit code', async () => {
      const result = await run('pwd; echo "$TILLER_SBX_PROBE"; exit 7', resolveSandbox('read-only'), {
        env: { ...process.env, TILLER_SBX_PROBE: 'passed through' },
      });
      expect(result).toMatchObject({ exitCode: 7, output: `${ws}\npassed through\n` });
      expect(looksLikeSandboxDenial(result, result.sandboxed)).toBe(false);
    });
  });

  describe('workspace-write', () => {
    it('writes the workspace and its $TMPDIR', async () => {
      const result = await run(
        'echo a > made-here && echo b > "$TMPDIR/made-there" && cat made-here "$TMPDIR/made-there"',
        workspaceWrite(),
      );
      expect(result).toMatchObject({ exitCode: 0, output: 'a\nb\n', sandboxed: true });
      expect(readFileSync(join(ws, 'made-here'), 'utf8')).toBe('a\n');
      expect(readFileSync(join(tmp, 'made-there'), 'utf8')).toBe('b\n');
    });

    it('writes nothing outside them', async () => {
      const target = join(outside, 'escaped');
      const result = await run(`echo x > ${target}`, workspaceWrite());
      expect(result.exitCode).not.toBe(0);
      expect(result.output).toContain('Read-only file system');
      expect(existsSync(target)).toBe(false);
    });

    it('keeps .git read-only: no config edit, no new hook, no moving it away', async () => {
      for (const command of ['echo "[evil]" >> .git/config', 'echo boom > .git/hooks/pre-commit', 'mv .git moved', 'rm -rf .git']) {
        const result = await run(command, workspaceWrite());
        expect(result.exitCode, command).not.toBe(0);
        expect(looksLikeSandboxDenial(result, result.sandboxed) || /busy/i.test(result.output), result.output).toBe(true);
      }
      expect(readFileSync(join(ws, '.git', 'config'), 'utf8')).toBe('[core]\n');
      expect(existsSync(join(ws, '.git', 'hooks', 'pre-commit'))).toBe(false);
    });

    it('writes an added root (--add-dir), not its .git', async () => {
      const added = join(base, 'added');
      mkdirSync(join(added, '.git'), { recursive: true });
      const policy = workspaceWrite({ writableRoots: [added] });
      expect(await run(`echo y > ${join(added, 'file')}`, policy)).toMatchObject({ exitCode: 0 });
      expect(readFileSync(join(added, 'file'), 'utf8')).toBe('y\n');
      const git = await run(`echo y > ${join(added, '.git', 'HEAD')}`, policy);
      expect(git.exitCode).not.toBe(0);
      expect(existsSync(join(added, '.git', 'HEAD'))).toBe(false);
    });

    it('writes /tmp by default', async () => {
      const target = join('/tmp', `tiller-sbx-${process.pid}-${Date.now()}`);
      try {
        expect(await run(`echo z > ${target}`, resolveSandbox('workspace-write'))).toMatchObject({ exitCode: 0 });
        expect(readFileSync(target, 'utf8')).toBe('z\n');
      } finally {
        rmSync(target, { force: true });
      }
    });
  });

  describe('network', () => {
    let server: Server;
    let port: number;
    beforeAll(async () => {
      server = createServer((socket) => socket.end());
      await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
      port = (server.address() as { port: number }).port;
    });
    afterAll(() => new Promise<void>((done) => server.close(() => done())));

    const connect = (): string =>
      `"${process.execPath}" -e 'require("net").connect(${port}, "127.0.0.1").on("connect", () => { console.log("connected"); process.exit(0); }).on("error", (e) => { console.error(e.code); process.exit(1); })'`;

    it("is off: not even the host's loopback is reachable", async () => {
      const result = await run(connect(), workspaceWrite());
      expect(result.exitCode).toBe(1);
      expect(result.output).not.toContain('connected');
    });

    it('is on with networkAccess', async () => {
      expect(await run(connect(), workspaceWrite({ networkAccess: true }))).toMatchObject({ exitCode: 0, output: 'connected\n' });
    });

    // Only loopback is ever a target here: the sandboxed modes must not reach even that.
    it('is off in read-only too', async () => {
      const result = await run(connect(), resolveSandbox('read-only'));
      expect(result.exitCode).toBe(1);
      expect(result.output).not.toContain('connected');
    });

    it('is there without a sandbox', async () => {
      expect(await run(connect(), resolveSandbox('danger-full-access'))).toMatchObject({ exitCode: 0, output: 'connected\n' });
    });
  });

  describe('danger-full-access', () => {
    it('runs unsandboxed and writes anywhere', async () => {
      const target = join(outside, 'allowed');
      const result = await run(`echo w > ${target}`, resolveSandbox('danger-full-access'));
      expect(result).toMatchObject({ exitCode: 0, sandboxed: false });
      expect(readFileSync(target, 'utf8')).toBe('w\n');
    });
  });

  describe.skipIf(process.platform !== 'linux')('killing a sandboxed command (Linux: processes seen in /proc)', () => {
    /** Pids of `sleep marker` (a zombie's command line is empty, so it counts as gone). */
    const withMarker = (marker: string): number[] =>
      readdirSync('/proc')
        .filter((name) => /^\d+$/.test(name))
        .filter((pid) => {
          try {
            return readFileSync(`/proc/${pid}/cmdline`, 'utf8') === `sleep\0${marker}\0`;
          } catch {
            return false;
          }
        })
        .map(Number);
    const until = async (condition: () => boolean): Promise<void> => {
      while (!condition()) await new Promise((done) => setTimeout(done, 20));
    };
    // `sleep` with a unique duration, so its processes can be found.
    const sleepMarker = (): string => `30.${process.pid}${Math.floor(Math.random() * 1e6)}`;

    it('an abort ends the command and what it started in the background, even in another session', async () => {
      const marker = sleepMarker();
      const controller = new AbortController();
      // The setsid one leaves the process group the abort kills: the PID namespace ends it.
      const running = run(`setsid sleep ${marker} & sleep ${marker}`, workspaceWrite(), { signal: controller.signal });
      await until(() => withMarker(marker).length === 2);
      controller.abort();
      const result = await running;
      expect(result).toMatchObject({ aborted: true, sandboxed: true });
      await until(() => withMarker(marker).length === 0);
      expect(withMarker(marker)).toEqual([]);
    });

    it('a timeout does too', async () => {
      const marker = sleepMarker();
      let settled = false;
      const running = run(`sleep ${marker} & sleep ${marker}`, resolveSandbox('read-only'), { timeoutMs: 1000 }).finally(() => {
        settled = true;
      });
      // Usually both sleeps are seen running before the timeout; a loaded machine may not get there.
      await until(() => settled || withMarker(marker).length === 2);
      const result = await running;
      expect(result).toMatchObject({ timedOut: true, sandboxed: true });
      await until(() => withMarker(marker).length === 0);
      expect(withMarker(marker)).toEqual([]);
    });
  });
});
