/**
 * Sandboxing of shell commands (Codex's modes): `read-only` lets a command read everything and
 * write nothing, `workspace-write` also lets it write the working directory, the extra writable
 * roots and the temp dirs, `danger-full-access` runs it as is. Never writable, in any sandbox:
 * a root's `.git`, the git directory a `.git` pointer file names (and a worktree's common dir), and
 * Tiller's own home and skills (config, hooks and sessions: a command that could write them could
 * run code unsandboxed later). Network is off in both sandboxed modes unless the policy allows it,
 * and so are unix-domain sockets (seccomp.ts): with network access granted, a command may also
 * connect to local daemons (ssh-agent, docker, tmux). Linux uses bubblewrap, macOS Seatbelt.
 */
import { spawn } from 'node:child_process';
import { accessSync, constants, readFileSync, realpathSync, statSync } from 'node:fs';
import { delimiter, dirname, isAbsolute, join, resolve, sep } from 'node:path';
import type { SandboxMode, SandboxPolicy } from '../../protocol/api.js';
import type { SandboxLayout } from './layout.js';
import { bwrapArgs } from './bwrap.js';
import { seatbeltArgs } from './seatbelt.js';
import { seccompSupported, unixSocketFilter } from './seccomp.js';

export interface ResolvedSandbox {
  mode: SandboxMode;
  /** Writable besides the working directory (workspace-write only); absolute or relative to it. */
  writableRoots: string[];
  networkAccess: boolean;
  /** workspace-write: `$TMPDIR` and `/tmp` are writable unless excluded (Codex's exclude flags). */
  tmpdirWritable: boolean;
  slashTmpWritable: boolean;
  /** Kept read-only wherever they sit (Tiller's home, its skills); absolute. */
  protectedPaths: string[];
}

/** Config for workspace-write (Codex's `sandbox_workspace_write`, plus `--add-dir` directories). */
export interface SandboxConfig {
  writableRoots?: readonly string[];
  networkAccess?: boolean;
  /** Tiller's home and skills directory: never writable by a command. */
  protectedPaths?: readonly string[];
}

/**
 * A bare mode takes the writable roots and network flag from the config, as Codex does; a full
 * policy says its own network access and adds its writable roots to the config's.
 */
export function resolveSandbox(policy: SandboxPolicy | SandboxMode, config: SandboxConfig = {}): ResolvedSandbox {
  const protectedPaths = [...(config.protectedPaths ?? [])];
  const none = { writableRoots: [], tmpdirWritable: false, slashTmpWritable: false, protectedPaths };
  const configRoots = [...(config.writableRoots ?? [])];
  if (typeof policy === 'string') {
    if (policy === 'danger-full-access') return { mode: policy, networkAccess: true, ...none };
    if (policy === 'read-only') return { mode: policy, networkAccess: false, ...none };
    return {
      mode: policy,
      writableRoots: configRoots,
      networkAccess: config.networkAccess ?? false,
      tmpdirWritable: true,
      slashTmpWritable: true,
      protectedPaths,
    };
  }
  switch (policy.type) {
    case 'dangerFullAccess':
      return { mode: 'danger-full-access', networkAccess: true, ...none };
    case 'readOnly':
      return { mode: 'read-only', networkAccess: policy.networkAccess ?? false, ...none };
    case 'workspaceWrite':
      return {
        mode: 'workspace-write',
        writableRoots: [...(policy.writableRoots ?? []), ...configRoots],
        networkAccess: policy.networkAccess ?? config.networkAccess ?? false,
        tmpdirWritable: policy.excludeTmpdirEnvVar !== true,
        slashTmpWritable: policy.excludeSlashTmp !== true,
        protectedPaths,
      };
  }
}

export interface SandboxLauncher {
  kind: 'bwrap' | 'seatbelt';
  /** The bwrap or sandbox-exec executable. */
  path: string;
}

export interface SpawnTarget {
  file: string;
  args: string[];
  /** bwrap's seccomp program: the spawner hands it over on descriptor 3 (SECCOMP_FD). */
  seccomp?: Buffer;
}

/** The descriptor bwrap reads its `--seccomp` program from. */
export const SECCOMP_FD = 3;

/**
 * The command to spawn for `file args` under `policy` (unchanged for danger-full-access). Reads the
 * file system (paths that do not exist are skipped, symlinks resolved) but runs nothing.
 */
export function sandboxedSpawn(
  policy: ResolvedSandbox,
  target: SpawnTarget & { cwd: string; tmpdir?: string | undefined; launcher: SandboxLauncher },
): SpawnTarget {
  if (policy.mode === 'danger-full-access') return { file: target.file, args: target.args };
  const layout = sandboxLayout(policy, target.cwd, target.tmpdir);
  const command = [target.file, ...target.args];
  if (target.launcher.kind === 'seatbelt') {
    return { file: target.launcher.path, args: seatbeltArgs(layout, policy.networkAccess, command) };
  }
  // With network access the command may use sockets of every kind; without, unix ones are closed too.
  const seccomp = policy.networkAccess ? undefined : unixSocketFilter();
  return {
    file: target.launcher.path,
    args: bwrapArgs(layout, { networkAccess: policy.networkAccess, seccompFd: seccomp ? SECCOMP_FD : null }, command),
    ...(seccomp ? { seccomp } : {}),
  };
}

function sandboxLayout(policy: ResolvedSandbox, cwd: string, tmpdir: string | undefined): SandboxLayout {
  if (policy.mode !== 'workspace-write') return { writableRoots: [] };
  const candidates = [cwd, ...policy.writableRoots.map((root) => resolve(cwd, root))];
  if (policy.tmpdirWritable && tmpdir !== undefined && tmpdir !== '') candidates.push(resolve(tmpdir));
  if (policy.slashTmpWritable) candidates.push('/tmp');
  // Sorted for a stable argv.
  const roots = [...new Set(candidates.map(realPath).filter((path) => path !== null))].sort();
  const kept = [...new Set([...roots.flatMap(gitPaths), ...policy.protectedPaths.map(realPath).filter((path) => path !== null)])].sort();
  return {
    writableRoots: roots
      .filter((root) => !roots.some((other) => other !== root && isWithin(root, other)))
      .map((root) => ({ root, readOnly: kept.filter((path) => isWithin(path, root)) })),
  };
}

/**
 * A root's `.git` (even a root nested in another), and where a `.git` pointer file leads: the
 * git directory it names (`gitdir: …`) and that directory's common dir (a worktree's `commondir`),
 * where hooks and config live.
 */
export function gitPaths(root: string): string[] {
  const dotGit = realPath(join(root, '.git'));
  if (dotGit === null) return [];
  const paths = [dotGit];
  const pointer = readSmallFile(dotGit)?.match(/^gitdir:\s*(.+?)\s*$/m)?.[1];
  const gitDir = pointer === undefined ? dotGit : realPath(resolve(dirname(dotGit), pointer));
  if (gitDir === null) return paths;
  if (gitDir !== dotGit) paths.push(gitDir);
  const common = readSmallFile(join(gitDir, 'commondir'))?.trim();
  const commonDir = common ? realPath(resolve(gitDir, common)) : null;
  if (commonDir !== null) paths.push(commonDir);
  return paths;
}

/** A regular file's text (a `.git` pointer or `commondir` is a line); null for a directory or a missing file. */
function readSmallFile(path: string): string | null {
  try {
    if (!statSync(path).isFile()) return null;
    return readFileSync(path, 'utf8').slice(0, 4096);
  } catch {
    return null;
  }
}

export function realPath(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}

export function isWithin(path: string, root: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
}

export type SandboxAvailability = ({ available: true } & SandboxLauncher) | { available: false; reason: string };

const SEATBELT_PATH = '/usr/bin/sandbox-exec';
/** Where a distribution installs bwrap, looked at before PATH. */
const SYSTEM_BIN_DIRS = ['/usr/bin', '/bin', '/usr/local/bin'];

let availability: Promise<SandboxAvailability> | undefined;

/** Whether commands can be sandboxed here, probed once per process. */
export function sandboxAvailability(): Promise<SandboxAvailability> {
  availability ??= probeSandbox();
  return availability;
}

/**
 * Finds the sandbox tool and really runs `/bin/sh -c 'exit 0'` in a read-only sandbox built as for
 * a command (seccomp filter included), so a kernel without (unprivileged) user namespaces shows
 * here rather than on every command. `TILLER_SANDBOX_BWRAP` (an absolute path) overrides bwrap's
 * location (tests point it at a missing file or a stand-in to see the unavailable paths).
 */
export async function probeSandbox(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  systemDirs: readonly string[] = SYSTEM_BIN_DIRS,
): Promise<SandboxAvailability> {
  let launcher: SandboxLauncher;
  if (platform === 'linux') {
    const override = env.TILLER_SANDBOX_BWRAP;
    if (override !== undefined && override !== '') {
      if (!isAbsolute(override)) return { available: false, reason: `TILLER_SANDBOX_BWRAP=${override} is not an absolute path` };
      if (!isExecutable(override)) return { available: false, reason: `TILLER_SANDBOX_BWRAP=${override} is not an executable file` };
      launcher = { kind: 'bwrap', path: override };
    } else {
      const found = trustedBwrap(env.PATH ?? '', systemDirs);
      if (found === null)
        return {
          available: false,
          reason:
            'bwrap is not installed in a system directory: install bubblewrap (e.g. `apt-get install bubblewrap`), or set TILLER_SANDBOX_BWRAP to its absolute path, to sandbox shell commands',
        };
      launcher = { kind: 'bwrap', path: found };
    }
    if (!seccompSupported()) {
      return { available: false, reason: `the sandbox has no seccomp filter for ${process.arch}, so it cannot close unix sockets` };
    }
  } else if (platform === 'darwin') {
    if (!isExecutable(SEATBELT_PATH)) return { available: false, reason: `${SEATBELT_PATH} is missing, so commands cannot be sandboxed` };
    launcher = { kind: 'seatbelt', path: SEATBELT_PATH };
  } else {
    return { available: false, reason: `commands cannot be sandboxed on ${platform} (only Linux with bubblewrap and macOS)` };
  }
  const trial = sandboxedSpawn(resolveSandbox('read-only'), { cwd: '/', file: '/bin/sh', args: ['-c', 'exit 0'], launcher });
  const failure = await new Promise<string | null>((done) => {
    const child = spawn(trial.file, trial.args, { cwd: '/', env, stdio: ['ignore', 'ignore', 'pipe', trial.seccomp ? 'pipe' : 'ignore'] });
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.stderr?.on('data', (data: Buffer) => void (stderr += data.toString()));
    feedSeccomp(child, trial);
    child.on('error', (error) => {
      clearTimeout(timer);
      done(error.message);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      done(code === 0 ? null : (firstLine(stderr) ?? `exited with ${code ?? signal}`));
    });
  });
  if (failure === null) return { available: true, ...launcher };
  return {
    available: false,
    reason: launcher.kind === 'bwrap' ? bwrapFailureReason(failure) : `sandbox-exec cannot sandbox here: ${failure}`,
  };
}

/** Hands a spawned bwrap its seccomp program on SECCOMP_FD (it reads to the end, then closes it). */
export function feedSeccomp(child: { stdio: ReadonlyArray<unknown> }, target: SpawnTarget): void {
  if (target.seccomp === undefined) return;
  const pipe = child.stdio[SECCOMP_FD] as NodeJS.WritableStream & { on(event: 'error', listener: () => void): unknown };
  // bwrap that failed to start never reads it.
  pipe.on('error', () => undefined);
  pipe.end(target.seccomp);
}

/**
 * Where bwrap is taken from: never a relative PATH entry, nor a directory anyone but root may write
 * (a repository's `./bwrap`, a project's node_modules/.bin on npm's PATH). Debian's and the usual
 * system places first, then absolute, root-owned PATH entries (Nix profiles).
 */
export function trustedBwrap(path: string, systemDirs: readonly string[] = SYSTEM_BIN_DIRS): string | null {
  const dirs = [...systemDirs, ...path.split(delimiter).filter((dir) => isAbsolute(dir))];
  for (const dir of dirs) {
    const candidate = join(dir, 'bwrap');
    if (isExecutable(candidate) && rootOwnedNotShared(dir) && rootOwnedNotShared(candidate)) return realPath(candidate);
  }
  return null;
}

function rootOwnedNotShared(path: string): boolean {
  try {
    const stat = statSync(path);
    return stat.uid === 0 && (stat.mode & 0o022) === 0;
  } catch {
    return false;
  }
}

function bwrapFailureReason(message: string): string {
  // Debian's "No permissions to creating new namespace", Ubuntu's AppArmor "setting up uid map:
  // Permission denied", "Creating new namespace failed: Operation not permitted"…
  if (/namespace|uid map|Operation not permitted|Permission denied/i.test(message)) {
    return `bwrap cannot create a sandbox, user namespaces look disabled (${message}): allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1, or kernel.apparmor_restrict_unprivileged_userns=0 on Ubuntu)`;
  }
  return `bwrap cannot create a sandbox here: ${message}`;
}

function firstLine(text: string): string | null {
  const line = text.split('\n').find((l) => l.trim() !== '');
  return line === undefined ? null : line.trim();
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** What a denied write or network use prints: EROFS/EACCES/EPERM, and no network or DNS in a net namespace. */
const DENIAL_SIGNS = [
  /read-only file system/i,
  /permission denied/i,
  /operation not permitted/i,
  /network is unreachable/i,
  /ENETUNREACH/,
  /could not resolve host/i,
  /temporary failure in name resolution/i,
  /EAI_AGAIN/,
];

/** Where the sandbox has no network, these mean it stopped a connection (any host: even loopback is cut off). */
const NETWORK_SIGNS = [/failed to connect to/i, /couldn't connect to server/i, /connection refused/i, /ECONNREFUSED/, /unable to connect/i];

/**
 * Network clients and the exit codes they give when they cannot connect: `curl -s` says nothing at
 * all, its exit code is the only sign (5 proxy, 6 host, 7 connect); wget's 4 is a network failure.
 */
const NETWORK_CLIENT_EXITS: ReadonlyArray<{ word: RegExp; codes: readonly number[] }> = [
  { word: /(^|[\s;&|(`$])curl(\s|$)/, codes: [5, 6, 7] },
  { word: /(^|[\s;&|(`$])wget(\s|$)/, codes: [4] },
];

export interface NetworkContext {
  /** The sandbox the command ran in has no network. */
  blocked: boolean;
  command: string;
}

/** Whether a command that ran without network failed for want of it: its words or its exit code say so. */
export function looksLikeNetworkBlock(result: { exitCode: number | null; output: string }, command: string): boolean {
  if (NETWORK_SIGNS.some((sign) => sign.test(result.output))) return true;
  return NETWORK_CLIENT_EXITS.some(
    (client) => client.word.test(command) && result.exitCode !== null && client.codes.includes(result.exitCode),
  );
}

/**
 * Whether a sandboxed command seems to have failed because of the sandbox, so the model and the
 * user can be told, and offered to run it without. A timeout or abort is never a denial. `network`:
 * where the sandbox cut the network off, a failed connection counts too (see looksLikeNetworkBlock).
 */
export function looksLikeSandboxDenial(
  result: { exitCode: number | null; output: string; timedOut?: boolean; aborted?: boolean },
  sandboxed: boolean,
  network?: NetworkContext,
): boolean {
  if (!sandboxed || result.exitCode === 0 || result.timedOut === true || result.aborted === true) return false;
  if (DENIAL_SIGNS.some((sign) => sign.test(result.output))) return true;
  return network?.blocked === true && looksLikeNetworkBlock(result, network.command);
}
