/**
 * Sandboxing of shell commands (Codex's modes): `read-only` lets a command read everything and
 * write nothing, `workspace-write` also lets it write the working directory, the extra writable
 * roots and the temp dirs (never a `.git` in them), `danger-full-access` runs it as is. Network is
 * off in both sandboxed modes unless the policy allows it. Linux uses bubblewrap, macOS Seatbelt.
 */
import { execFile } from 'node:child_process';
import { accessSync, constants, realpathSync, statSync } from 'node:fs';
import { delimiter, join, resolve, sep } from 'node:path';
import type { SandboxMode, SandboxPolicy } from '../../protocol/api.js';
import type { SandboxLayout } from './sandbox-layout.js';
import { bwrapArgs } from './sandbox-linux.js';
import { seatbeltArgs } from './sandbox-macos.js';

export interface ResolvedSandbox {
  mode: SandboxMode;
  /** Writable besides the working directory (workspace-write only); absolute or relative to it. */
  writableRoots: string[];
  networkAccess: boolean;
  /** workspace-write: `$TMPDIR` and `/tmp` are writable unless excluded (Codex's exclude flags). */
  tmpdirWritable: boolean;
  slashTmpWritable: boolean;
}

/** Config for workspace-write (Codex's `sandbox_workspace_write`, plus `--add-dir` directories). */
export interface SandboxConfig {
  writableRoots?: readonly string[];
  networkAccess?: boolean;
}

/**
 * A bare mode takes the writable roots and network flag from the config, as Codex does; a full
 * policy says its own network access and adds its writable roots to the config's.
 */
export function resolveSandbox(policy: SandboxPolicy | SandboxMode, config: SandboxConfig = {}): ResolvedSandbox {
  const none = { writableRoots: [], tmpdirWritable: false, slashTmpWritable: false };
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
}

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
  const args =
    target.launcher.kind === 'bwrap'
      ? bwrapArgs(layout, policy.networkAccess, command)
      : seatbeltArgs(layout, policy.networkAccess, command);
  return { file: target.launcher.path, args };
}

function sandboxLayout(policy: ResolvedSandbox, cwd: string, tmpdir: string | undefined): SandboxLayout {
  if (policy.mode !== 'workspace-write') return { writableRoots: [] };
  const candidates = [cwd, ...policy.writableRoots.map((root) => resolve(cwd, root))];
  if (policy.tmpdirWritable && tmpdir !== undefined && tmpdir !== '') candidates.push(resolve(tmpdir));
  if (policy.slashTmpWritable) candidates.push('/tmp');
  // Sorted for a stable argv.
  const roots = [...new Set(candidates.map(realPath).filter((path) => path !== null))].sort();
  // Every root's `.git` (a directory, or a worktree's pointer file), even a root nested in another.
  const gits = [...new Set(roots.map((root) => realPath(join(root, '.git'))).filter((path) => path !== null))].sort();
  return {
    writableRoots: roots
      .filter((root) => !roots.some((other) => other !== root && isWithin(root, other)))
      .map((root) => ({ root, readOnly: gits.filter((git) => isWithin(git, root)) })),
  };
}

function realPath(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}

function isWithin(path: string, root: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
}

export type SandboxAvailability = ({ available: true } & SandboxLauncher) | { available: false; reason: string };

const SEATBELT_PATH = '/usr/bin/sandbox-exec';

let availability: Promise<SandboxAvailability> | undefined;

/** Whether commands can be sandboxed here, probed once per process. */
export function sandboxAvailability(): Promise<SandboxAvailability> {
  availability ??= probeSandbox();
  return availability;
}

/**
 * Finds the sandbox tool and really runs `/bin/sh -c 'exit 0'` in a read-only sandbox built as for
 * a command, so a kernel without (unprivileged) user namespaces shows here rather than on every
 * command. `TILLER_SANDBOX_BWRAP` overrides bwrap's path (tests point it at a missing file or a
 * stand-in to see the unavailable paths).
 */
export async function probeSandbox(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): Promise<SandboxAvailability> {
  let launcher: SandboxLauncher;
  if (platform === 'linux') {
    const override = env.TILLER_SANDBOX_BWRAP;
    if (override !== undefined && override !== '') {
      if (!isExecutable(override)) return { available: false, reason: `TILLER_SANDBOX_BWRAP=${override} is not an executable file` };
      launcher = { kind: 'bwrap', path: override };
    } else {
      const found = findOnPath('bwrap', env.PATH ?? '');
      if (found === null)
        return {
          available: false,
          reason: 'bwrap is not on PATH: install bubblewrap (e.g. `apt-get install bubblewrap`) to sandbox shell commands',
        };
      launcher = { kind: 'bwrap', path: found };
    }
  } else if (platform === 'darwin') {
    if (!isExecutable(SEATBELT_PATH)) return { available: false, reason: `${SEATBELT_PATH} is missing, so commands cannot be sandboxed` };
    launcher = { kind: 'seatbelt', path: SEATBELT_PATH };
  } else {
    return { available: false, reason: `commands cannot be sandboxed on ${platform} (only Linux with bubblewrap and macOS)` };
  }
  const trial = sandboxedSpawn(resolveSandbox('read-only'), { cwd: '/', file: '/bin/sh', args: ['-c', 'exit 0'], launcher });
  const failure = await new Promise<string | null>((done) => {
    execFile(trial.file, trial.args, { cwd: '/', env, timeout: 10_000 }, (error, _stdout, stderr) => {
      done(error === null ? null : (firstLine(stderr) ?? error.message));
    });
  });
  if (failure === null) return { available: true, ...launcher };
  return {
    available: false,
    reason: launcher.kind === 'bwrap' ? bwrapFailureReason(failure) : `sandbox-exec cannot sandbox here: ${failure}`,
  };
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

function findOnPath(name: string, path: string): string | null {
  for (const dir of path.split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, name);
    if (isExecutable(candidate)) return candidate;
  }
  return null;
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

/**
 * Whether a sandboxed command seems to have failed because of the sandbox, so the model and the
 * user can be told, and offered to run it without. A timeout or abort is never a denial.
 */
export function looksLikeSandboxDenial(
  result: { exitCode: number | null; output: string; timedOut?: boolean; aborted?: boolean },
  sandboxed: boolean,
): boolean {
  if (!sandboxed || result.exitCode === 0 || result.timedOut === true || result.aborted === true) return false;
  return DENIAL_SIGNS.some((sign) => sign.test(result.output));
}
