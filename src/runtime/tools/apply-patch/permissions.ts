/**
 * Whether a patch may be written, asked about, or refused, as Codex assesses a patch's safety:
 * under `untrusted` every patch asks; otherwise a patch whose every path is inside the sandbox's
 * writable roots is applied without asking, and one that writes elsewhere asks (`never`: refused).
 * danger-full-access makes every path writable, read-only none. Whatever the policy, a patch never
 * writes Tiller's home or skills, a `.git`, or the git directory a `.git` pointer names: the same
 * paths a sandboxed command may not write (sandbox/sandbox.ts).
 */
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve, sep } from 'node:path';
import type { ApprovalPolicy, SandboxPolicy } from '../../../protocol/api.js';
import type { TillerConfig } from '../../config.js';
import { gitPaths, isWithin, realPath, resolveSandbox } from '../../sandbox/sandbox.js';

export type PatchPermission = { type: 'apply' } | { type: 'ask'; reason: string | null } | { type: 'refuse'; message: string };

export interface PatchPermissionContext {
  cwd: string;
  sandboxPolicy: SandboxPolicy;
  approvalPolicy: ApprovalPolicy;
  config: Pick<TillerConfig, 'home' | 'skillsDir' | 'sandboxWritableRoots' | 'sandboxNetworkAccess'>;
  /** Paths the user accepted "for session" (their patches apply without asking again). */
  sessionPaths?: ReadonlySet<string>;
}

/** A path as the file system will see it: its deepest existing ancestor resolved (symlinks followed), the rest appended. */
export function resolvedTarget(path: string): string {
  const rest: string[] = [];
  let current = resolve(path);
  for (;;) {
    const real = realPath(current);
    if (real !== null) return rest.length === 0 ? real : join(real, ...rest.reverse());
    const parent = dirname(current);
    if (parent === current) return resolve(path);
    rest.push(basename(current));
    current = parent;
  }
}

function writableRoots(context: PatchPermissionContext): string[] | 'all' {
  const policy = resolveSandbox(context.sandboxPolicy, { writableRoots: context.config.sandboxWritableRoots });
  if (policy.mode === 'danger-full-access') return 'all';
  if (policy.mode === 'read-only') return [];
  const roots = [context.cwd, ...policy.writableRoots.map((root) => resolve(context.cwd, root))];
  if (policy.tmpdirWritable) roots.push(tmpdir());
  if (policy.slashTmpWritable) roots.push('/tmp');
  return roots.map((root) => realPath(root)).filter((root) => root !== null);
}

/** What no patch may write, with the words that say why. */
function protectedPaths(context: PatchPermissionContext): Array<{ path: string; what: string }> {
  const roots = [context.cwd, ...context.config.sandboxWritableRoots.map((root) => resolve(context.cwd, root))];
  const tiller = [context.config.home, context.config.skillsDir].map(realPath).filter((path) => path !== null);
  const git = roots
    .map(realPath)
    .filter((root) => root !== null)
    .flatMap(gitPaths);
  return [...tiller.map((path) => ({ path, what: "Tiller's home" })), ...git.map((path) => ({ path, what: 'a git directory' }))];
}

export function assessPatch(paths: readonly string[], context: PatchPermissionContext): PatchPermission {
  const targets = paths.map(resolvedTarget);
  const guarded = protectedPaths(context);
  for (const target of targets) {
    const hit = guarded.find((entry) => isWithin(target, entry.path));
    const inDotGit = target.split(sep).includes('.git');
    if (hit !== undefined || inDotGit) {
      return { type: 'refuse', message: `patch rejected: ${target} is inside ${hit?.what ?? 'a git directory'}, which is never writable` };
    }
  }
  if (context.approvalPolicy === 'untrusted') return { type: 'ask', reason: null };
  const roots = writableRoots(context);
  const session = context.sessionPaths ?? new Set<string>();
  const writable = (target: string): boolean => roots === 'all' || roots.some((root) => isWithin(target, root)) || session.has(target);
  if (targets.every(writable)) return { type: 'apply' };
  if (context.approvalPolicy === 'never') {
    return { type: 'refuse', message: 'patch rejected: writing outside of the project; rejected by user approval settings' };
  }
  return { type: 'ask', reason: 'The patch writes outside the writable roots of the sandbox.' };
}
