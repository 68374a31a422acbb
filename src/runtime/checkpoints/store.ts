/**
 * The checkpoint store of one workspace: a shadow git repository under
 * `$TILLER_HOME/checkpoints/<hash of the workspace path>/` (0700, files 0600). A checkpoint is a
 * commit of the whole workspace as git sees it (the workspace's `.gitignore` files and
 * `.git/info/exclude` honoured, executable bits, symlinks and binary files kept); its id is the
 * commit's hash. The staging index is kept between checkpoints, so a second one only rehashes what
 * changed.
 */
import { createHash } from 'node:crypto';
import { lstat, mkdir, readdir, readFile, rename, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import { existsSync, realpathSync, unlinkSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { processAlive } from '../process-alive.js';
import { GitFailed, initStore, onExitAfterGit, runGit, type ShadowGit } from './git.js';
import { firstFile, type ListedPath, listedPaths, nestedRepositories } from './listing.js';

export interface CheckpointCaps {
  maxFiles: number;
  maxBytes: number;
}

/** Large enough for a 10,000-file, 200 MB workspace with room to spare; a home directory is refused. */
export const DEFAULT_CAPS: CheckpointCaps = { maxFiles: 50_000, maxBytes: 1024 * 1024 * 1024 };

export type RecordResult = { ok: true; id: string } | { ok: false; reason: 'tooBig' | 'failed'; message: string };

export type ChangeKind = 'add' | 'delete' | 'update';

export interface PathChange {
  path: string;
  kind: ChangeKind;
}

const REF = 'refs/tiller/latest';
const STAT_BATCH = 512;
/** Tiller's own lock on a store (its pid inside): one Tiller process records a workspace at a time. */
const LOCK = 'tiller.lock';
/** How long a record waits for another Tiller recording the same workspace before it gives up. */
const LOCK_WAIT_MS = 30_000;
/** A git lock younger than this may still belong to a git a killed Tiller left running: waited for, not removed. */
const STALE_GIT_LOCK_MS = 5_000;
/** Nested repositories inside nested repositories: this many rounds of taking them in, at most. */
const NESTED_ROUNDS = 8;

/** One operation per store directory at a time in this process, whichever CheckpointStore asks. */
const chains = new Map<string, Promise<unknown>>();
/** Store directories whose lock this process holds: dropped on exit, with the git locks of the gits killed then. */
const held = new Set<string>();
onExitAfterGit(() => {
  for (const dir of held) for (const path of [join(dir, 'index.lock'), ...refLocks(dir), join(dir, LOCK)]) unlinkQuietly(path);
  held.clear();
});

function refLocks(dir: string): string[] {
  return [join(dir, 'git', `${REF}.lock`), join(dir, 'git', 'packed-refs.lock')];
}

/** The pid holding a store's lock, or `gone` when it is no longer there to hold it. */
async function lockHolder(path: string): Promise<number | 'gone'> {
  const pid = Number.parseInt(await readFile(path, 'utf8').catch(() => ''), 10);
  if (Number.isInteger(pid)) return pid === process.pid || !processAlive(pid) ? 'gone' : pid;
  // Empty: just created, its pid not yet written, unless that was long ago (its writer died in between).
  const info = await stat(path).catch(() => null);
  return info === null || Date.now() - info.mtimeMs > STALE_GIT_LOCK_MS ? 'gone' : 0;
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Not there.
  }
}

export function storeDirFor(home: string, workspace: string): string {
  const key = createHash('sha256').update(realWorkspace(workspace)).digest('hex').slice(0, 24);
  return join(home, 'checkpoints', key);
}

function realWorkspace(workspace: string): string {
  try {
    return realpathSync(workspace);
  } catch {
    return workspace;
  }
}

/** A failure of the store as one sentence for the user (a full disk named as such). */
export function describeStoreFailure(error: unknown): string {
  const text = error instanceof GitFailed ? error.stderr : error instanceof Error ? error.message : String(error);
  if (/no space left on device|ENOSPC|disk quota/iu.test(text)) return 'the disk holding the checkpoint store is full';
  const first = text.trim().split('\n')[0] ?? '';
  return first === '' ? 'the checkpoint store failed' : `the checkpoint store failed: ${first}`;
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round(bytes / (1024 * 1024))} MB` : `${Math.round(bytes / 1024)} KB`;
}

export class CheckpointStore {
  readonly dir: string;
  readonly workspace: string;
  private readonly shadow: ShadowGit;
  private ready: Promise<void> | null = null;

  constructor(
    private readonly home: string,
    workspace: string,
    private readonly caps: CheckpointCaps = DEFAULT_CAPS,
  ) {
    this.workspace = realWorkspace(workspace);
    this.dir = storeDirFor(home, this.workspace);
    this.shadow = {
      gitDir: join(this.dir, 'git'),
      workTree: this.workspace,
      indexFile: join(this.dir, 'index'),
      excludesFile: join(this.workspace, '.git', 'info', 'exclude'),
    };
  }

  /** One operation at a time, holding the store's lock: two records would race on the index. */
  private serial<T>(task: () => Promise<T>): Promise<T> {
    const locked = async (): Promise<T> => {
      await this.init();
      await this.lock();
      try {
        return await task();
      } finally {
        held.delete(this.dir);
        await rm(join(this.dir, LOCK), { force: true });
      }
    };
    const run = (chains.get(this.dir) ?? Promise.resolve()).then(locked, locked);
    const tail = run.catch(() => undefined);
    chains.set(this.dir, tail);
    void tail.then(() => {
      if (chains.get(this.dir) === tail) chains.delete(this.dir);
    });
    return run;
  }

  /**
   * Takes the store's lock. One whose pid is gone was left by a killed Tiller: taken over, and the
   * git locks its gits left are removed once old enough that no git of it can still be writing.
   */
  private async lock(): Promise<void> {
    const path = join(this.dir, LOCK);
    const deadline = Date.now() + LOCK_WAIT_MS;
    for (;;) {
      try {
        await writeFile(path, `${process.pid}\n`, { flag: 'wx', mode: 0o600 });
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const holder = await lockHolder(path);
      if (holder === 'gone') {
        await rm(path, { force: true });
        continue;
      }
      if (Date.now() > deadline) throw new Error(`another Tiller (pid ${holder}) is recording this workspace`);
      await sleep(50);
    }
    held.add(this.dir);
    for (const lock of [join(this.dir, 'index.lock'), ...refLocks(this.dir)]) await this.removeStaleGitLock(lock, deadline);
  }

  private async removeStaleGitLock(path: string, deadline: number): Promise<void> {
    for (;;) {
      const info = await stat(path).catch(() => null);
      if (info === null) return;
      if (Date.now() - info.mtimeMs >= STALE_GIT_LOCK_MS || Date.now() > deadline) {
        await rm(path, { force: true });
        return;
      }
      await sleep(100);
    }
  }

  private init(): Promise<void> {
    this.ready ??= (async () => {
      await mkdir(this.dir, { recursive: true, mode: 0o700 });
      if (!existsSync(join(this.shadow.gitDir, 'HEAD'))) {
        await initStore(this.shadow);
      }
      // A home inside the workspace (the store among it) is never recorded: the store would hold itself.
      const home = relative(this.workspace, realWorkspace(this.home));
      const inside = home !== '' && !home.startsWith('..') && !isAbsolute(home);
      await mkdir(join(this.shadow.gitDir, 'info'), { recursive: true, mode: 0o700 });
      await writeFile(
        join(this.shadow.gitDir, 'info', 'exclude'),
        inside
          ? `/${home
              .split(sep)
              .join('/')
              .replace(/[*?[\]\\!# ]/gu, '\\$&')}/\n`
          : '',
        { mode: 0o600 },
      );
    })().catch((error: unknown) => {
      this.ready = null;
      throw error;
    });
    return this.ready;
  }

  /** Records the workspace as it is now. Never throws: a refusal or failure comes back as a message. */
  record(label = 'checkpoint'): Promise<RecordResult> {
    return this.serial(async (): Promise<RecordResult> => {
      // Each git process costs a scheduling slot on a loaded machine: those that can run together do.
      const [listed, changed] = await Promise.all([this.list(), this.changedTracked()]);
      const tooBig = await this.checkSize(listed, changed);
      if (tooBig !== null) return { ok: false, reason: 'tooBig', message: tooBig };
      await this.addAll(listed);
      const [tree, parent] = await Promise.all([runGit(this.shadow, ['write-tree']), this.latest()]);
      const args = ['commit-tree', tree.toString().trim(), '-m', label];
      if (parent !== null) args.push('-p', parent);
      const id = (await runGit(this.shadow, args)).toString().trim();
      await this.setLatest(id);
      return { ok: true, id };
    }).catch((error: unknown) => ({ ok: false, reason: 'failed', message: describeStoreFailure(error) }));
  }

  /** What a record takes in: tracked paths with their mode and size as last recorded, and untracked ones. */
  private async list(): Promise<ListedPath[]> {
    const out = await runGit(this.shadow, ['ls-files', '-z', '--stage', '--debug', '--cached', '--others', '--exclude-standard']);
    return listedPaths(out.toString('utf8'));
  }

  /**
   * `git add` of the whole workspace. Git takes a repository nested inside it as a link to its
   * commit (and fails on one without a commit): its files are recorded by content instead. One of
   * them goes in the index in place of the link, and git then walks into that directory as into any
   * other (repositories nested deeper are taken in the same way, round after round).
   */
  private async addAll(listed: ListedPath[]): Promise<void> {
    const add = (): Promise<unknown> =>
      runGit(this.shadow, ['add', '--all', '--ignore-errors', '--', '.']).then(
        () => null,
        (error: unknown) => error,
      );
    let nested = nestedRepositories(listed);
    if (nested.length === 0) {
      const failure = await add();
      if (failure !== null) throw failure;
      return;
    }
    // A nested repository holding no file has nothing to record: git may keep its link, or fail on it (no commit).
    const empty = new Set<string>();
    for (let round = 0; ; round++) {
      for (const dir of await this.takeInNested(nested.filter((d) => !empty.has(d)))) empty.add(dir);
      const failure = await add();
      nested = nestedRepositories(await this.list());
      const left = nested.filter((dir) => !empty.has(dir));
      if (failure !== null && !(failure instanceof GitFailed && failure.code === 1 && left.length < nested.length)) throw failure;
      if (left.length === 0 || round + 1 >= NESTED_ROUNDS) return;
    }
  }

  /** Puts one file of each nested repository in the index in place of its link; returns those with no file. */
  private async takeInNested(dirs: string[]): Promise<string[]> {
    if (dirs.length === 0) return [];
    const seeds: string[] = [];
    const empty: string[] = [];
    for (const dir of dirs) {
      const seed = await firstFile(this.workspace, dir);
      if (seed === null) empty.push(dir);
      else seeds.push(seed);
    }
    if (seeds.length === 0) return empty;
    const ids = (await runGit(this.shadow, ['hash-object', '-w', '--no-filters', '--stdin-paths'], `${seeds.join('\n')}\n`))
      .toString()
      .trim()
      .split('\n');
    const gone = dirs.filter((dir) => !empty.includes(dir)).map((dir) => `0 ${'0'.repeat(40)}\t${dir}\0`);
    const added = await Promise.all(
      seeds.map(
        async (seed, i) => `${((await stat(join(this.workspace, seed))).mode & 0o111) !== 0 ? '100755' : '100644'} ${ids[i]}\t${seed}\0`,
      ),
    );
    await runGit(this.shadow, ['update-index', '-z', '--index-info'], [...gone, ...added].join(''));
    return empty;
  }

  /** The ref is a loose ref file (nothing ever packs refs here): read and written without a git process. */
  private async latest(): Promise<string | null> {
    const id = (await readFile(join(this.shadow.gitDir, REF), 'utf8').catch(() => '')).trim();
    return /^[0-9a-f]{40}$/u.test(id) ? id : null;
  }

  private async setLatest(id: string): Promise<void> {
    const path = join(this.shadow.gitDir, REF);
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    await writeFile(`${path}.tmp`, `${id}\n`, { mode: 0o600 });
    await rename(`${path}.tmp`, path);
  }

  /** Tracked paths whose file git sees changed since the last record (their size in the index is stale). */
  private async changedTracked(): Promise<Set<string>> {
    const out = await runGit(this.shadow, ['diff-files', '-z', '--name-only']);
    return new Set(out.toString('utf8').split('\0'));
  }

  /**
   * Null when within the caps, else why not (counted before anything is hashed). A tracked file
   * counts at the size the index has for it unless git sees it changed; only untracked and changed
   * files are stat'ed, so a record after a few changes stats a few files, not every one.
   */
  private async checkSize(listed: ListedPath[], changed: ReadonlySet<string>): Promise<string | null> {
    if (listed.length > this.caps.maxFiles) {
      return `the workspace has ${listed.length} files outside .gitignore, more than the ${this.caps.maxFiles} a checkpoint takes`;
    }
    let total = 0;
    const toStat: string[] = [];
    for (const entry of listed) {
      if (entry.size !== null && !changed.has(entry.path)) total += entry.size;
      else if (!entry.path.endsWith('/')) toStat.push(entry.path);
    }
    const tooBig = `the workspace holds more than ${formatBytes(this.caps.maxBytes)} outside .gitignore, more than a checkpoint takes`;
    if (total > this.caps.maxBytes) return tooBig;
    // Stats in batches: one at a time costs a second on 10,000 files.
    for (let start = 0; start < toStat.length; start += STAT_BATCH) {
      const stats = await Promise.all(
        toStat.slice(start, start + STAT_BATCH).map((path) => lstat(join(this.workspace, path)).catch(() => null)),
      );
      for (const info of stats) if (info?.isFile()) total += info.size;
      if (total > this.caps.maxBytes) return tooBig;
    }
    return null;
  }

  /** What differs from checkpoint `from` to `to` (a checkpoint id). */
  changes(from: string, to: string): Promise<PathChange[]> {
    return this.serial(() => this.changesOf(from, to));
  }

  private async changesOf(from: string, to: string): Promise<PathChange[]> {
    const out = await runGit(this.shadow, ['diff-tree', '-r', '-z', '--no-renames', '--name-status', from, to]);
    const fields = out.toString('utf8').split('\0');
    const changes: PathChange[] = [];
    for (let i = 0; i + 1 < fields.length; i += 2) {
      const status = fields[i] ?? '';
      const path = fields[i + 1] ?? '';
      if (status === '' || path === '') continue;
      changes.push({ path, kind: status === 'A' ? 'add' : status === 'D' ? 'delete' : 'update' });
    }
    return changes;
  }

  /** A file's bytes as checkpoint `id` holds it. */
  fileAt(id: string, path: string): Promise<Buffer> {
    return this.serial(() => runGit(this.shadow, ['cat-file', 'blob', `${id}:${path}`]));
  }

  /** The patch from `from` to `to`, paths relative to the workspace: `git apply` takes it (binary files included). */
  patch(from: string, to: string, paths?: readonly string[]): Promise<string> {
    return this.serial(async () => {
      const args = ['diff', '--binary', '--full-index', '--no-renames', '--no-color', '--no-ext-diff', '--no-textconv', from, to];
      if (paths !== undefined) {
        if (paths.length === 0) return '';
        args.push('--', ...paths);
      }
      return (await runGit(this.shadow, args)).toString('utf8');
    });
  }

  /**
   * Puts the workspace back to checkpoint `id`, byte for byte: files added since are removed (and
   * directories left empty by that), deleted and changed ones written back with their modes.
   * `now` is a checkpoint of the workspace as it is (record() just before); `only`: just these
   * paths (a file the /diff explorer reverts). Returns what changed.
   */
  restore(id: string, now: string, only?: readonly string[]): Promise<PathChange[]> {
    return this.serial(async () => {
      const wanted = only === undefined ? null : new Set(only);
      const changes = (await this.changesOf(id, now)).filter((c) => wanted === null || wanted.has(c.path));
      const added = changes.filter((c) => c.kind === 'add').map((c) => c.path);
      // Added paths go first, so a file that became a directory (or the reverse) has room to come back.
      for (const path of added) await rm(join(this.workspace, path), { force: true, recursive: true });
      for (const path of added) await this.pruneEmptyParents(path);
      const back = changes.filter((c) => c.kind !== 'add').map((c) => c.path);
      if (back.length > 0) {
        await runGit(this.shadow, ['checkout', id, '--pathspec-from-file=-', '--pathspec-file-nul'], `${back.join('\0')}\0`);
      }
      return changes.map((c) => ({ path: c.path, kind: c.kind === 'add' ? 'delete' : c.kind === 'delete' ? 'add' : 'update' }));
    });
  }

  private async pruneEmptyParents(path: string): Promise<void> {
    let dir = dirname(path);
    while (dir !== '.' && dir !== '/' && dir !== '') {
      const full = join(this.workspace, dir);
      const entries = await readdir(full).catch(() => null);
      if (entries === null || entries.length > 0) return;
      await rmdir(full).catch(() => undefined);
      dir = dirname(dir);
    }
  }
}
