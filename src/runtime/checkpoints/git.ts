/**
 * Git run against the shadow store: GIT_DIR is the store, GIT_WORK_TREE the workspace, the index
 * the store's own, and no user or system config, so the user's `.git`, hooks and settings are never
 * read or touched.
 */
import { type ChildProcess, spawn } from 'node:child_process';

export interface ShadowGit {
  gitDir: string;
  workTree: string;
  indexFile: string;
  /** The workspace's own `.git/info/exclude`, honoured as the store's excludes file. */
  excludesFile: string;
}

export class GitFailed extends Error {
  constructor(
    readonly args: readonly string[],
    readonly stderr: string,
    readonly code: number | null,
  ) {
    super(`git ${args[0] ?? ''} failed${code === null ? '' : ` (exit ${code})`}: ${stderr.trim() || 'no message'}`);
  }
}

const CONFIG = [
  'core.autocrlf=false',
  'core.fileMode=true',
  'core.symlinks=true',
  'core.quotePath=false',
  'core.bigFileThreshold=512m',
  'gc.auto=0',
  // Stored, not deflated: hashing 200 MB is what a first checkpoint may cost, compressing it would be ten times that.
  'core.looseCompression=0',
  'core.compression=0',
  // A checkpoint lost to a power cut costs one rewind point, not data: no fsync per object.
  'core.fsync=none',
  'core.preloadIndex=true',
  'core.untrackedCache=true',
  'advice.detachedHead=false',
];

export function gitEnv(shadow: ShadowGit): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const key of ['PATH', 'SYSTEMROOT', 'TMPDIR', 'LANG']) if (process.env[key] !== undefined) env[key] = process.env[key];
  return {
    ...env,
    GIT_DIR: shadow.gitDir,
    GIT_WORK_TREE: shadow.workTree,
    GIT_INDEX_FILE: shadow.indexFile,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    HOME: shadow.gitDir,
    GIT_AUTHOR_NAME: 'tiller',
    GIT_AUTHOR_EMAIL: 'tiller@localhost',
    GIT_COMMITTER_NAME: 'tiller',
    GIT_COMMITTER_EMAIL: 'tiller@localhost',
    GIT_TERMINAL_PROMPT: '0',
    GIT_OPTIONAL_LOCKS: '0',
    // glibc hands freed memory back after every object, so hashing 10,000 files faults in fresh pages
    // each time (200 MB: 220,000 page faults, three quarters of the CPU a first record costs): keep it.
    MALLOC_TRIM_THRESHOLD_: String(256 * 1024 * 1024),
    MALLOC_TOP_PAD_: String(64 * 1024 * 1024),
    MALLOC_MMAP_THRESHOLD_: String(256 * 1024 * 1024),
  };
}

/** Runs git in the store; resolves with stdout as a Buffer, rejects with GitFailed. */
export function runGit(shadow: ShadowGit, args: string[], input?: Buffer | string): Promise<Buffer> {
  const full = ['--literal-pathspecs', ...CONFIG.flatMap((c) => ['-c', c]), '-c', `core.excludesFile=${shadow.excludesFile}`, ...args];
  return spawnGit(args, full, gitEnv(shadow), shadow.workTree, input);
}

/** Creates the store's bare repository (git refuses a work tree for `init --bare`). */
export function initStore(shadow: ShadowGit): Promise<Buffer> {
  const { GIT_WORK_TREE: _tree, GIT_DIR: _dir, GIT_INDEX_FILE: _index, ...env } = gitEnv(shadow);
  const args = ['init', '--bare', '--quiet', '--shared=0600', shadow.gitDir];
  return spawnGit(args, args, env, shadow.workTree);
}

/** Gits running now: a Tiller that exits (the TUI gives a pending record half a second) kills them, so none writes after it. */
const running = new Set<ChildProcess>();
const exitHooks: Array<() => void> = [];
let exitHookInstalled = false;

/** `hook` runs synchronously on exit, after the running gits were killed (the store drops the locks they held). */
export function onExitAfterGit(hook: () => void): void {
  exitHooks.push(hook);
  installExitHook();
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // 'exit' handlers may only do synchronous work: kill() and the hooks' unlinkSync are.
  process.on('exit', () => {
    for (const child of running) child.kill('SIGKILL');
    running.clear();
    for (const hook of exitHooks) hook();
  });
}

/** Pids of the gits running now (for tests). */
export function runningGitPids(): number[] {
  return [...running].flatMap((child) => (child.pid === undefined ? [] : [child.pid]));
}

/** `args`: what the command is named by in a failure; `full`: what runs. */
function spawnGit(args: readonly string[], full: string[], env: NodeJS.ProcessEnv, cwd: string, input?: Buffer | string): Promise<Buffer> {
  installExitHook();
  return new Promise((resolve, reject) => {
    // Not detached: a kill of Tiller's process group takes its git along.
    const child = spawn('git', full, { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    running.add(child);
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', (error) => {
      running.delete(child);
      reject(new GitFailed(args, error.message, null));
    });
    child.on('close', (code) => {
      running.delete(child);
      if (code === 0) resolve(Buffer.concat(out));
      else reject(new GitFailed(args, Buffer.concat(err).toString('utf8'), code));
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(input);
  });
}
