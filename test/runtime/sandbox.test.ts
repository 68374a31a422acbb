import { chmodSync, mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { seatbeltProfile } from '../../src/runtime/sandbox/seatbelt.js';
import { unixSocketFilter } from '../../src/runtime/sandbox/seccomp.js';
import {
  looksLikeSandboxDenial,
  probeSandbox,
  resolveSandbox,
  sandboxedSpawn,
  trustedBwrap,
  type ResolvedSandbox,
  type SandboxLauncher,
} from '../../src/runtime/sandbox/sandbox.js';
import { tempDir } from './support/harness.js';

const bwrap: SandboxLauncher = { kind: 'bwrap', path: '/usr/bin/bwrap' };
const seatbelt: SandboxLauncher = { kind: 'seatbelt', path: '/usr/bin/sandbox-exec' };
const command = { file: '/bin/sh', args: ['-c', 'make'] };
const head = ['--die-with-parent', '--cap-drop', 'ALL', '--ro-bind', '/', '/', '--dev', '/dev'];
const tail = ['--proc', '/proc', '--', '/bin/sh', '-c', 'make'];

/** A workspace-write policy whose temp dirs are only the ones a test names. */
function workspaceWrite(overrides: Partial<ResolvedSandbox> = {}): ResolvedSandbox {
  return { ...resolveSandbox({ type: 'workspaceWrite', excludeSlashTmp: true, excludeTmpdirEnvVar: true }), ...overrides };
}

function repo(): string {
  const dir = realpathSync(tempDir('tiller-sbx-ws-'));
  mkdirSync(join(dir, '.git'));
  return dir;
}

describe('resolveSandbox', () => {
  it('bare modes take the workspace-write settings from the config', () => {
    expect(resolveSandbox('read-only', { writableRoots: ['/x'], networkAccess: true })).toEqual({
      mode: 'read-only',
      writableRoots: [],
      networkAccess: false,
      tmpdirWritable: false,
      slashTmpWritable: false,
      protectedPaths: [],
    });
    expect(resolveSandbox('workspace-write', { writableRoots: ['/x'], networkAccess: true, protectedPaths: ['/h'] })).toEqual({
      mode: 'workspace-write',
      writableRoots: ['/x'],
      networkAccess: true,
      tmpdirWritable: true,
      slashTmpWritable: true,
      protectedPaths: ['/h'],
    });
    expect(resolveSandbox('workspace-write').networkAccess).toBe(false);
    expect(resolveSandbox('danger-full-access')).toMatchObject({ mode: 'danger-full-access', networkAccess: true });
  });

  it("Codex's policies: their own network flag and exclusions, roots added to the config's", () => {
    expect(resolveSandbox({ type: 'readOnly', networkAccess: true })).toMatchObject({ mode: 'read-only', networkAccess: true });
    expect(resolveSandbox({ type: 'dangerFullAccess' }).mode).toBe('danger-full-access');
    expect(
      resolveSandbox(
        { type: 'workspaceWrite', writableRoots: ['/a'], networkAccess: false, excludeTmpdirEnvVar: true },
        { writableRoots: ['/b'], networkAccess: true },
      ),
    ).toEqual({
      mode: 'workspace-write',
      writableRoots: ['/a', '/b'],
      networkAccess: false,
      tmpdirWritable: false,
      slashTmpWritable: true,
      protectedPaths: [],
    });
    expect(resolveSandbox({ type: 'workspaceWrite' }, { networkAccess: true }).networkAccess).toBe(true);
  });
});

describe('sandboxedSpawn with bwrap', () => {
  it('read-only: the whole file system read-only, no network, a PID namespace', () => {
    const cwd = repo();
    expect(sandboxedSpawn(resolveSandbox('read-only'), { ...command, cwd, tmpdir: tempDir(), launcher: bwrap })).toEqual({
      file: '/usr/bin/bwrap',
      args: [...head, '--unshare-pid', '--unshare-net', '--seccomp', '3', ...tail],
      seccomp: unixSocketFilter(),
    });
  });

  it('read-only with network access keeps the network namespace', () => {
    const { args } = sandboxedSpawn(resolveSandbox({ type: 'readOnly', networkAccess: true }), { ...command, cwd: '/', launcher: bwrap });
    // Network granted: sockets of every kind, unix ones included (no seccomp filter).
    expect(sandboxedSpawn(resolveSandbox({ type: 'readOnly', networkAccess: true }), { ...command, cwd: '/', launcher: bwrap })).toEqual({
      file: '/usr/bin/bwrap',
      args: [...head, '--unshare-pid', ...tail],
    });
    expect(args).toEqual([...head, '--unshare-pid', ...tail]);
  });

  it('workspace-write: cwd, the writable roots and $TMPDIR bound writable, then each .git read-only', () => {
    const cwd = repo();
    const added = realpathSync(tempDir('tiller-sbx-add-'));
    writeFileSync(join(added, '.git'), 'gitdir: /elsewhere\n');
    const tmpdir = realpathSync(tempDir('tiller-sbx-tmp-'));
    const policy = workspaceWrite({ writableRoots: [added], tmpdirWritable: true });
    const binds = [cwd, added, tmpdir].sort().flatMap((root) => ['--bind', root, root]);
    const readOnly = [join(cwd, '.git'), join(added, '.git')].sort().flatMap((path) => ['--ro-bind', path, path]);
    expect(sandboxedSpawn(policy, { ...command, cwd, tmpdir, launcher: bwrap }).args).toEqual([
      ...head,
      ...binds,
      ...readOnly,
      '--unshare-pid',
      '--unshare-net',
      '--seccomp',
      '3',
      ...tail,
    ]);
  });

  it('workspace-write with network access does not unshare the network', () => {
    const cwd = repo();
    const { args } = sandboxedSpawn(workspaceWrite({ networkAccess: true }), { ...command, cwd, launcher: bwrap });
    expect(args).toContain('--unshare-pid');
    expect(args).not.toContain('--unshare-net');
  });

  it('makes /tmp writable by default, and $TMPDIR when the command has one', () => {
    const cwd = repo();
    // cwd is under the test run's temp dir, itself under /tmp: /tmp's bind covers it.
    const { args } = sandboxedSpawn(resolveSandbox('workspace-write'), { ...command, cwd, launcher: bwrap });
    expect(args.slice(head.length, head.length + 6)).toEqual(['--bind', '/tmp', '/tmp', '--ro-bind', join(cwd, '.git'), join(cwd, '.git')]);
    const binds = (tmpdir: string | undefined): string[] => {
      const { args } = sandboxedSpawn(workspaceWrite({ tmpdirWritable: true }), { ...command, cwd, tmpdir, launcher: bwrap });
      return args.flatMap((arg, i) => (arg === '--bind' ? [args[i + 1]!] : []));
    };
    const tmpdir = realpathSync(tempDir('tiller-sbx-tmp-'));
    expect(binds(undefined)).toEqual([cwd]);
    expect(binds(tmpdir)).toEqual([cwd, tmpdir].sort());
  });

  it('keeps read-only the git directory a .git pointer names, and its common dir', () => {
    const cwd = realpathSync(tempDir('tiller-sbx-ws-'));
    // `git init --separate-git-dir=$WS/.realgit $WS`, and a worktree's gitdir with a commondir.
    mkdirSync(join(cwd, '.realgit', 'worktrees', 'wt'), { recursive: true });
    writeFileSync(join(cwd, '.git'), 'gitdir: .realgit/worktrees/wt\n');
    writeFileSync(join(cwd, '.realgit', 'worktrees', 'wt', 'commondir'), '../..\n');
    const { args } = sandboxedSpawn(workspaceWrite(), { ...command, cwd, launcher: bwrap });
    const readOnly = args.flatMap((arg, i) => (arg === '--ro-bind' && args[i + 1] !== '/' ? [args[i + 1]!] : []));
    expect(readOnly).toEqual([join(cwd, '.git'), join(cwd, '.realgit'), join(cwd, '.realgit', 'worktrees', 'wt')].sort());
  });

  it("keeps Tiller's home read-only inside a writable root, and ignores protected paths elsewhere", () => {
    const cwd = repo();
    mkdirSync(join(cwd, '.tiller'));
    const outside = realpathSync(tempDir('tiller-sbx-home-'));
    const policy = workspaceWrite({ protectedPaths: [join(cwd, '.tiller'), outside, join(cwd, 'missing')] });
    const { args } = sandboxedSpawn(policy, { ...command, cwd, launcher: bwrap });
    const readOnly = args.flatMap((arg, i) => (arg === '--ro-bind' && args[i + 1] !== '/' ? [args[i + 1]!] : []));
    expect(readOnly).toEqual([join(cwd, '.git'), join(cwd, '.tiller')]);
    expect(seatbeltProfile({ writableRoots: [{ root: cwd, readOnly }] }, false).params).toContain(
      `WRITABLE_ROOT_0_RO_1=${join(cwd, '.tiller')}`,
    );
  });

  it('binds a nested root once, through its parent, and still keeps its .git read-only', () => {
    const tmpdir = realpathSync(tempDir('tiller-sbx-tmp-'));
    const cwd = join(tmpdir, 'project');
    mkdirSync(join(cwd, '.git'), { recursive: true });
    const { args } = sandboxedSpawn(workspaceWrite({ tmpdirWritable: true }), { ...command, cwd, tmpdir, launcher: bwrap });
    expect(args.slice(head.length, head.length + 6)).toEqual(['--bind', tmpdir, tmpdir, '--ro-bind', join(cwd, '.git'), join(cwd, '.git')]);
  });

  it('skips roots that do not exist, resolves symlinks and relative roots (against cwd)', () => {
    const cwd = realpathSync(tempDir('tiller-sbx-ws-'));
    mkdirSync(join(cwd, 'sub'));
    const target = realpathSync(tempDir('tiller-sbx-target-'));
    const link = join(realpathSync(tempDir('tiller-sbx-links-')), 'link');
    symlinkSync(target, link);
    const policy = workspaceWrite({ writableRoots: [link, join(cwd, 'missing'), 'sub'] });
    const { args } = sandboxedSpawn(policy, { ...command, cwd, launcher: bwrap });
    const binds = args.flatMap((arg, i) => (arg === '--bind' ? [args[i + 1]!] : []));
    // `sub` is inside cwd: cwd's bind covers it.
    expect(binds).toEqual([cwd, target].sort());
    expect(args.filter((arg) => arg === '--ro-bind')).toHaveLength(1);
  });

  it('danger-full-access runs the command as is', () => {
    expect(sandboxedSpawn(resolveSandbox('danger-full-access'), { ...command, cwd: '/', launcher: bwrap })).toEqual(command);
  });
});

describe('sandboxedSpawn with Seatbelt', () => {
  it('read-only: closed by default, reads everywhere, no writes but /dev/null, no network', () => {
    const { file, args } = sandboxedSpawn(resolveSandbox('read-only'), { ...command, cwd: '/', launcher: seatbelt });
    expect(file).toBe('/usr/bin/sandbox-exec');
    expect(args[0]).toBe('-p');
    expect(args.slice(2)).toEqual(['--', '/bin/sh', '-c', 'make']);
    const profile = args[1]!;
    expect(profile.startsWith('(version 1)\n(deny default)\n')).toBe(true);
    expect(profile).toContain('(allow file-read*)');
    expect(profile).toContain('(allow file-write-data (require-all (path "/dev/null") (vnode-type CHARACTER-DEVICE)))');
    expect(profile).not.toContain('(allow file-write*\n');
    expect(profile).not.toContain('network-outbound');
  });

  it('workspace-write: each root writable but its .git, paths passed as -D parameters', () => {
    const cwd = repo();
    // Sorted by path, `tiller-sbx-add-…` comes before `tiller-sbx-ws-…`.
    const added = realpathSync(tempDir('tiller-sbx-add-'));
    const { args } = sandboxedSpawn(workspaceWrite({ writableRoots: [added] }), { ...command, cwd, launcher: seatbelt });
    const profile = args[1]!;
    expect(profile).toContain(
      '(allow file-write*\n' +
        '  (require-all (subpath (param "WRITABLE_ROOT_0")))\n' +
        '  (require-all (subpath (param "WRITABLE_ROOT_1")) (require-not (subpath (param "WRITABLE_ROOT_1_RO_0")))))',
    );
    expect(args).toEqual([
      '-p',
      profile,
      `-DWRITABLE_ROOT_0=${added}`,
      `-DWRITABLE_ROOT_1=${cwd}`,
      `-DWRITABLE_ROOT_1_RO_0=${join(cwd, '.git')}`,
      '--',
      '/bin/sh',
      '-c',
      'make',
    ]);
  });

  it('network access adds sockets and the DNS daemon', () => {
    const { profile } = seatbeltProfile({ writableRoots: [] }, true);
    expect(profile).toContain('(allow network-outbound)\n(allow network-inbound)\n(allow system-socket)');
    expect(profile).toContain('(global-name "com.apple.mDNSResponder")');
  });
});

describe('looksLikeSandboxDenial', () => {
  const failed = (output: string): { exitCode: number; output: string } => ({ exitCode: 1, output });

  it('a sandboxed failure that reads like a denied write or network use', () => {
    for (const output of [
      'sh: 1: cannot create x: Read-only file system',
      "Error: EROFS: read-only file system, open 'x'",
      'touch: cannot touch ".git/config": Permission denied',
      'mount: Operation not permitted',
      'connect ENETUNREACH 1.2.3.4:443',
      'ping: connect: Network is unreachable',
      'curl: (6) Could not resolve host: example.com',
      'Temporary failure in name resolution',
      'getaddrinfo EAI_AGAIN registry.npmjs.org',
    ]) {
      expect(looksLikeSandboxDenial(failed(output), true)).toBe(true);
    }
  });

  it('where the sandbox has no network: a refused connection, and curl or wget exiting with their connect codes even when silent', () => {
    const blocked = (command: string) => ({ blocked: true, command });
    expect(looksLikeSandboxDenial({ exitCode: 7, output: '' }, true, blocked('curl -s http://127.0.0.1:9/'))).toBe(true);
    expect(looksLikeSandboxDenial({ exitCode: 6, output: '' }, true, blocked('cd x && curl -fsS https://e.com'))).toBe(true);
    expect(looksLikeSandboxDenial({ exitCode: 4, output: '' }, true, blocked('wget -q https://e.com'))).toBe(true);
    const refused = "curl: (7) Failed to connect to 127.0.0.1 port 9 after 0 ms: Couldn't connect to server";
    expect(looksLikeSandboxDenial(failed(refused), true, blocked('fetch-it'))).toBe(true);
    expect(looksLikeSandboxDenial(failed('Error: connect ECONNREFUSED 127.0.0.1:5432'), true, blocked('node db.js'))).toBe(true);
    // With the network on, or another command's exit 7, it is the command's own failure.
    expect(looksLikeSandboxDenial({ exitCode: 7, output: '' }, true, { blocked: false, command: 'curl -s x' })).toBe(false);
    expect(looksLikeSandboxDenial(failed(refused), true)).toBe(false);
    expect(looksLikeSandboxDenial({ exitCode: 7, output: '' }, true, blocked('make test'))).toBe(false);
    expect(looksLikeSandboxDenial({ exitCode: 7, output: '' }, true, blocked('curlish x'))).toBe(false);
  });

  it('not when unsandboxed, successful, timed out, aborted, or failing for another reason', () => {
    expect(looksLikeSandboxDenial(failed('Read-only file system'), false)).toBe(false);
    expect(looksLikeSandboxDenial({ exitCode: 0, output: 'Permission denied' }, true)).toBe(false);
    expect(looksLikeSandboxDenial({ exitCode: 137, output: 'Permission denied', timedOut: true }, true)).toBe(false);
    expect(looksLikeSandboxDenial({ exitCode: 137, output: 'Permission denied', aborted: true }, true)).toBe(false);
    expect(looksLikeSandboxDenial(failed('error TS2322: Type string is not assignable'), true)).toBe(false);
  });
});

describe('probeSandbox', () => {
  it('no bwrap on PATH: says to install bubblewrap', async () => {
    const result = await probeSandbox({ PATH: tempDir() }, 'linux', []);
    expect(result).toEqual({ available: false, reason: expect.stringContaining('install bubblewrap') });
  });

  it('never takes bwrap from a relative PATH entry or a directory others may write', async () => {
    const repoDir = tempDir();
    const fake = join(repoDir, 'bwrap');
    writeFileSync(fake, '#!/bin/sh\nexit 0\n');
    chmodSync(fake, 0o755);
    const cwd = process.cwd();
    process.chdir(repoDir);
    try {
      expect(trustedBwrap('.:bin:', [])).toBeNull();
      expect(await probeSandbox({ PATH: '.' }, 'linux', [])).toMatchObject({ available: false });
    } finally {
      process.chdir(cwd);
    }
    chmodSync(repoDir, 0o777);
    expect(trustedBwrap(repoDir, [])).toBeNull();
    chmodSync(repoDir, 0o755);
    // Root-owned and closed to others (tests run as root in CI; elsewhere the owner check refuses it too).
    expect(trustedBwrap(repoDir, [])).toBe(process.getuid?.() === 0 ? fake : null);
    expect(trustedBwrap(`.:${repoDir}`, ['/usr/bin'])).toBe(realpathSync('/usr/bin/bwrap'));
  });

  it('TILLER_SANDBOX_BWRAP must be an absolute path', async () => {
    expect(await probeSandbox({ TILLER_SANDBOX_BWRAP: 'bwrap' }, 'linux')).toEqual({
      available: false,
      reason: 'TILLER_SANDBOX_BWRAP=bwrap is not an absolute path',
    });
  });

  it('TILLER_SANDBOX_BWRAP pointing at nothing forces unavailable', async () => {
    const result = await probeSandbox({ ...process.env, TILLER_SANDBOX_BWRAP: '/nonexistent/bwrap' }, 'linux');
    expect(result).toEqual({ available: false, reason: 'TILLER_SANDBOX_BWRAP=/nonexistent/bwrap is not an executable file' });
  });

  it('a bwrap that cannot create namespaces: says user namespaces look disabled, with its message', async () => {
    const fake = join(tempDir(), 'bwrap');
    const message =
      'bwrap: No permissions to creating new namespace, likely because the kernel does not allow non-privileged user namespaces.';
    writeFileSync(fake, `#!/bin/sh\necho '${message}' >&2\nexit 1\n`);
    chmodSync(fake, 0o755);
    const result = await probeSandbox({ ...process.env, TILLER_SANDBOX_BWRAP: fake }, 'linux');
    expect(result.available).toBe(false);
    if (result.available) return;
    expect(result.reason).toContain('user namespaces look disabled');
    expect(result.reason).toContain(message);
  });

  it('a bwrap that runs the trial command is available, with its path', async () => {
    const fake = join(tempDir(), 'bwrap');
    // Stand-in for bwrap: drops the sandbox arguments and runs what follows `--`.
    writeFileSync(fake, '#!/bin/sh\nwhile [ "$1" != "--" ]; do shift; done\nshift\nexec "$@"\n');
    chmodSync(fake, 0o755);
    expect(await probeSandbox({ ...process.env, TILLER_SANDBOX_BWRAP: fake }, 'linux')).toEqual({
      available: true,
      kind: 'bwrap',
      path: fake,
    });
  });

  it('no sandbox on other platforms', async () => {
    const result = await probeSandbox(process.env, 'win32');
    expect(result).toEqual({ available: false, reason: expect.stringContaining('cannot be sandboxed on win32') });
  });
});
