/**
 * The checkpoint store of one workspace: a shadow git repository under
 * `$TILLER_HOME/checkpoints/<hash of the workspace path>/` (0700, files 0600). A checkpoint is a
 * commit of the whole workspace as git sees it (the workspace's `.gitignore` files and
 * `.git/info/exclude` honoured, executable bits, symlinks and binary files kept); its id is the
 * commit's hash. The staging index is kept between checkpoints, so a second one only rehashes what
 * changed.
 */
import { createHash } from 'node:crypto';
import { lstat, mkdir, readdir, rm, rmdir, writeFile } from 'node:fs/promises';
import { existsSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import { GitFailed, initStore, runGit, type ShadowGit } from './git.js';

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
  /** One operation at a time: two records would race on the index. */
  private chain: Promise<unknown> = Promise.resolve();

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

  private serial<T>(task: () => Promise<T>): Promise<T> {
    const run = this.chain.then(task, task);
    this.chain = run.catch(() => undefined);
    return run;
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
    return this.serial(async () => {
      try {
        await this.init();
        const tooBig = await this.checkSize();
        if (tooBig !== null) return { ok: false, reason: 'tooBig', message: tooBig };
        await runGit(this.shadow, ['add', '--all', '--ignore-errors', '--', '.']);
        const tree = (await runGit(this.shadow, ['write-tree'])).toString().trim();
        const parent = await this.latest();
        const args = ['commit-tree', tree, '-m', label];
        if (parent !== null) args.push('-p', parent);
        const id = (await runGit(this.shadow, args)).toString().trim();
        await runGit(this.shadow, ['update-ref', REF, id]);
        return { ok: true, id };
      } catch (error) {
        return { ok: false, reason: 'failed', message: describeStoreFailure(error) };
      }
    });
  }

  private async latest(): Promise<string | null> {
    try {
      return (await runGit(this.shadow, ['rev-parse', '--verify', '--quiet', REF])).toString().trim() || null;
    } catch {
      return null;
    }
  }

  /** Null when within the caps, else why not (counted before anything is hashed). */
  private async checkSize(): Promise<string | null> {
    const listed = await runGit(this.shadow, ['ls-files', '-z', '--cached', '--others', '--exclude-standard']);
    const paths = [
      ...new Set(
        listed
          .toString('utf8')
          .split('\0')
          .filter((p) => p !== ''),
      ),
    ];
    if (paths.length > this.caps.maxFiles) {
      return `the workspace has ${paths.length} files outside .gitignore, more than the ${this.caps.maxFiles} a checkpoint takes`;
    }
    let total = 0;
    // Stats in batches: one at a time costs a second on 10,000 files.
    for (let start = 0; start < paths.length; start += STAT_BATCH) {
      const stats = await Promise.all(
        paths.slice(start, start + STAT_BATCH).map((path) => lstat(join(this.workspace, path)).catch(() => null)),
      );
      for (const stat of stats) if (stat?.isFile()) total += stat.size;
      if (total > this.caps.maxBytes) {
        return `the workspace holds more than ${formatBytes(this.caps.maxBytes)} outside .gitignore, more than a checkpoint takes`;
      }
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
