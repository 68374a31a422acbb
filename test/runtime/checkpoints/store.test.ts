/**
 * The workspace snapshot: a checkpoint put back restores every file byte for byte (added files
 * removed, deleted ones and modes back), honours the workspace's ignore rules, keeps binary files and
 * symlinks, survives a file replaced by a directory, needs no git repository in the workspace and
 * refuses a workspace over the caps with a message.
 */
import { execFileSync, spawn } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GitFailed } from '../../../src/runtime/checkpoints/git.js';
import { CheckpointStore, describeStoreFailure } from '../../../src/runtime/checkpoints/store.js';
import { tempDir } from '../support/harness.js';

function workspace(): { home: string; ws: string } {
  return { home: tempDir(), ws: tempDir() };
}

async function recorded(store: CheckpointStore): Promise<string> {
  const result = await store.record();
  if (!result.ok) throw new Error(result.message);
  return result.id;
}

async function rewind(store: CheckpointStore, id: string) {
  return store.restore(id, await recorded(store));
}

describe('the checkpoint store', () => {
  it('puts back changed, deleted and added files byte for byte, with their modes, in a workspace that is not a git repository', async () => {
    const { home, ws } = workspace();
    writeFileSync(join(ws, 'a.txt'), 'one\n');
    mkdirSync(join(ws, 'src'));
    writeFileSync(join(ws, 'src', 'run.sh'), '#!/bin/sh\necho hi\n');
    chmodSync(join(ws, 'src', 'run.sh'), 0o755);
    writeFileSync(join(ws, 'gone.txt'), 'keep me');
    const store = new CheckpointStore(home, ws);
    const before = await recorded(store);

    writeFileSync(join(ws, 'a.txt'), 'two\n');
    chmodSync(join(ws, 'src', 'run.sh'), 0o644);
    rmSync(join(ws, 'gone.txt'));
    mkdirSync(join(ws, 'new', 'deep'), { recursive: true });
    writeFileSync(join(ws, 'new', 'deep', 'file.txt'), 'added');

    const restored = await rewind(store, before);
    expect(readFileSync(join(ws, 'a.txt'), 'utf8')).toBe('one\n');
    expect(statSync(join(ws, 'src', 'run.sh')).mode & 0o777).toBe(0o755);
    expect(readFileSync(join(ws, 'gone.txt'), 'utf8')).toBe('keep me');
    expect(() => lstatSync(join(ws, 'new'))).toThrow();
    expect(restored.map((c) => `${c.kind} ${c.path}`).sort()).toEqual([
      'add gone.txt',
      'delete new/deep/file.txt',
      'update a.txt',
      'update src/run.sh',
    ]);
  });

  it('keeps binary files and symlinks as they were', async () => {
    const { home, ws } = workspace();
    const bytes = Buffer.from([0, 255, 1, 254, 0, 0, 10, 13, 10, 128]);
    writeFileSync(join(ws, 'blob.bin'), bytes);
    writeFileSync(join(ws, 'target.txt'), 't');
    symlinkSync('target.txt', join(ws, 'link'));
    const store = new CheckpointStore(home, ws);
    const before = await recorded(store);
    writeFileSync(join(ws, 'blob.bin'), Buffer.from([1, 2, 3]));
    rmSync(join(ws, 'link'));
    symlinkSync('elsewhere', join(ws, 'link'));
    await rewind(store, before);
    expect(readFileSync(join(ws, 'blob.bin')).equals(bytes)).toBe(true);
    expect(lstatSync(join(ws, 'link')).isSymbolicLink()).toBe(true);
    expect(readlinkSync(join(ws, 'link'))).toBe('target.txt');
  });

  it('restores a file that was replaced by a directory, and a directory replaced by a file', async () => {
    const { home, ws } = workspace();
    writeFileSync(join(ws, 'thing'), 'a file');
    mkdirSync(join(ws, 'dir'));
    writeFileSync(join(ws, 'dir', 'inner.txt'), 'inner');
    const store = new CheckpointStore(home, ws);
    const before = await recorded(store);
    rmSync(join(ws, 'thing'));
    mkdirSync(join(ws, 'thing'));
    writeFileSync(join(ws, 'thing', 'child.txt'), 'child');
    rmSync(join(ws, 'dir'), { recursive: true });
    writeFileSync(join(ws, 'dir'), 'now a file');
    await rewind(store, before);
    expect(readFileSync(join(ws, 'thing'), 'utf8')).toBe('a file');
    expect(readFileSync(join(ws, 'dir', 'inner.txt'), 'utf8')).toBe('inner');
  });

  it("honours the workspace's .gitignore files and .git/info/exclude and never touches its .git", async () => {
    const { home, ws } = workspace();
    execFileSync('git', ['init', '--quiet', ws]);
    writeFileSync(join(ws, '.git', 'info', 'exclude'), 'secret.env\n');
    writeFileSync(join(ws, '.gitignore'), 'build/\n');
    mkdirSync(join(ws, 'sub'));
    writeFileSync(join(ws, 'sub', '.gitignore'), '*.log\n');
    mkdirSync(join(ws, 'build'));
    writeFileSync(join(ws, 'build', 'out.js'), 'built');
    writeFileSync(join(ws, 'secret.env'), 'KEY=1');
    writeFileSync(join(ws, 'sub', 'app.log'), 'log');
    writeFileSync(join(ws, 'sub', 'code.ts'), 'code');
    const gitBefore = execFileSync('git', ['-C', ws, 'status', '--porcelain']).toString();
    const store = new CheckpointStore(home, ws);
    const before = await recorded(store);
    writeFileSync(join(ws, 'sub', 'code.ts'), 'changed');
    writeFileSync(join(ws, 'sub', 'app.log'), 'more log');
    const after = await recorded(store);
    expect((await store.changes(before, after)).map((c) => c.path)).toEqual(['sub/code.ts']);
    await store.restore(before, after);
    // Ignored files are the user's: a rewind leaves them as they are.
    expect(readFileSync(join(ws, 'sub', 'app.log'), 'utf8')).toBe('more log');
    expect(readFileSync(join(ws, 'build', 'out.js'), 'utf8')).toBe('built');
    expect(execFileSync('git', ['-C', ws, 'status', '--porcelain']).toString()).toBe(gitBefore);
    expect(() => statSync(join(ws, '.git', 'index'))).toThrow();
  });

  it('gives a patch that git apply takes, binary files included', async () => {
    const { home, ws } = workspace();
    writeFileSync(join(ws, 'a.txt'), 'one\ntwo\n');
    writeFileSync(join(ws, 'b.bin'), Buffer.from([0, 1, 2]));
    const copy = tempDir();
    writeFileSync(join(copy, 'a.txt'), 'one\ntwo\n');
    writeFileSync(join(copy, 'b.bin'), Buffer.from([0, 1, 2]));
    const store = new CheckpointStore(home, ws);
    const before = await recorded(store);
    writeFileSync(join(ws, 'a.txt'), 'one\n2\n');
    writeFileSync(join(ws, 'b.bin'), Buffer.from([9, 0, 8]));
    writeFileSync(join(ws, 'c.txt'), 'new\n');
    const patch = await store.patch(before, await recorded(store));
    execFileSync('git', ['apply'], { cwd: copy, input: patch });
    expect(readFileSync(join(copy, 'a.txt'), 'utf8')).toBe('one\n2\n');
    expect([...readFileSync(join(copy, 'b.bin'))]).toEqual([9, 0, 8]);
    expect(readFileSync(join(copy, 'c.txt'), 'utf8')).toBe('new\n');
  });

  it('refuses a workspace over the caps with a message, and keeps its store private', async () => {
    const { home, ws } = workspace();
    for (let i = 0; i < 5; i++) writeFileSync(join(ws, `f${i}`), 'x');
    const few = await new CheckpointStore(home, ws, { maxFiles: 3, maxBytes: 1e9 }).record();
    expect(few).toEqual({ ok: false, reason: 'tooBig', message: expect.stringContaining('5 files') });
    writeFileSync(join(ws, 'big'), Buffer.alloc(4096));
    const big = await new CheckpointStore(home, ws, { maxFiles: 100, maxBytes: 2048 }).record();
    expect(big).toEqual({ ok: false, reason: 'tooBig', message: expect.stringContaining('more than 2 KB') });
    const store = new CheckpointStore(home, ws);
    expect((await store.record()).ok).toBe(true);
    expect(statSync(store.dir).mode & 0o777).toBe(0o700);
  });

  it('leaves out a Tiller home that lies inside the workspace: the store never records itself', async () => {
    const ws = tempDir();
    const home = join(ws, 'my home');
    mkdirSync(home);
    writeFileSync(join(ws, 'a.txt'), 'a');
    const store = new CheckpointStore(home, ws);
    const first = await recorded(store);
    writeFileSync(join(ws, 'b.txt'), 'b');
    const second = await recorded(store);
    expect(await store.changes(first, second)).toEqual([{ path: 'b.txt', kind: 'add' }]);
  });

  it('says so when the store cannot be written', async () => {
    const { ws } = workspace();
    const home = join(tempDir(), 'file-not-dir');
    writeFileSync(home, '');
    const result = await new CheckpointStore(home, ws).record();
    expect(result).toEqual({ ok: false, reason: 'failed', message: expect.stringMatching(/^the checkpoint store failed: /u) });
  });

  it('records a repository nested in the workspace by its files, not as a link to its commit, and one with no commit too', async () => {
    const { home, ws } = workspace();
    const git = (cwd: string, ...args: string[]) =>
      execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { cwd, stdio: 'ignore' });
    mkdirSync(join(ws, 'lib', 'src'), { recursive: true });
    writeFileSync(join(ws, 'lib', 'src', 'code.txt'), 'v1\n');
    writeFileSync(join(ws, 'lib', 'README'), 'lib\n');
    git(join(ws, 'lib'), 'init', '-q');
    git(join(ws, 'lib'), 'add', '.');
    git(join(ws, 'lib'), 'commit', '-qm', 'one');
    mkdirSync(join(ws, 'fresh'));
    git(join(ws, 'fresh'), 'init', '-q');
    writeFileSync(join(ws, 'fresh', 'draft.txt'), 'draft\n');
    const store = new CheckpointStore(home, ws);
    const before = await recorded(store);
    writeFileSync(join(ws, 'lib', 'src', 'code.txt'), 'v2\n');
    writeFileSync(join(ws, 'fresh', 'draft.txt'), 'redrafted\n');
    writeFileSync(join(ws, 'lib', 'new.txt'), 'new\n');
    const after = await recorded(store);
    expect((await store.changes(before, after)).sort((a, b) => a.path.localeCompare(b.path))).toEqual([
      { path: 'fresh/draft.txt', kind: 'update' },
      { path: 'lib/new.txt', kind: 'add' },
      { path: 'lib/src/code.txt', kind: 'update' },
    ]);
    await store.restore(before, after);
    expect(readFileSync(join(ws, 'lib', 'src', 'code.txt'), 'utf8')).toBe('v1\n');
    expect(readFileSync(join(ws, 'fresh', 'draft.txt'), 'utf8')).toBe('draft\n');
    expect(existsSync(join(ws, 'lib', 'new.txt'))).toBe(false);
    // The nested repository's own .git is neither recorded nor touched.
    expect(
      execFileSync('git', ['log', '--format=%s'], { cwd: join(ws, 'lib') })
        .toString()
        .trim(),
    ).toBe('one');
  });

  it('takes over the lock of a killed Tiller and removes the index.lock its git left, so the next record works', async () => {
    const { home, ws } = workspace();
    writeFileSync(join(ws, 'a.txt'), 'a');
    const store = new CheckpointStore(home, ws);
    await recorded(store);
    // A Tiller killed mid-record: its lock names a pid that is gone, its git's index.lock stays behind.
    const dead = spawn(process.execPath, ['-e', '']);
    await new Promise((resolve) => dead.on('close', resolve));
    writeFileSync(join(store.dir, 'tiller.lock'), `${dead.pid}\n`);
    writeFileSync(join(store.dir, 'index.lock'), '');
    const old = new Date(Date.now() - 60_000);
    utimesSync(join(store.dir, 'index.lock'), old, old);
    writeFileSync(join(ws, 'b.txt'), 'b');
    const result = await new CheckpointStore(home, ws).record();
    expect(result.ok).toBe(true);
    expect(existsSync(join(store.dir, 'index.lock'))).toBe(false);
    expect(existsSync(join(store.dir, 'tiller.lock'))).toBe(false);
  });

  it('waits for a live Tiller holding the store, and a fresh index.lock is not taken from a git that may still write', async () => {
    const { home, ws } = workspace();
    writeFileSync(join(ws, 'a.txt'), 'a');
    const store = new CheckpointStore(home, ws);
    await recorded(store);
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 600)']);
    writeFileSync(join(store.dir, 'tiller.lock'), `${holder.pid}\n`);
    const started = Date.now();
    const waiting = new CheckpointStore(home, ws).record();
    holder.on('close', () => rmSync(join(store.dir, 'tiller.lock'), { force: true }));
    expect((await waiting).ok).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(400);
    // A git lock only a second old: its git may be alive (an orphan of a killed Tiller), so it is waited for.
    writeFileSync(join(store.dir, 'index.lock'), '');
    const recent = new Date(Date.now() - 1_000);
    utimesSync(join(store.dir, 'index.lock'), recent, recent);
    const second = Date.now();
    expect((await store.record()).ok).toBe(true);
    expect(Date.now() - second).toBeGreaterThanOrEqual(3_000);
  });

  it('counts a recorded file that grew since at its new size against the caps', async () => {
    const { home, ws } = workspace();
    writeFileSync(join(ws, 'log.txt'), 'small');
    const store = new CheckpointStore(home, ws, { maxFiles: 100, maxBytes: 2048 });
    await recorded(store);
    writeFileSync(join(ws, 'log.txt'), Buffer.alloc(4096, 'x'));
    expect(await store.record()).toEqual({ ok: false, reason: 'tooBig', message: expect.stringContaining('more than 2 KB') });
  });

  it('names a full disk as such', () => {
    const full = new GitFailed(['add'], 'error: unable to write file: No space left on device\nfatal: adding files failed\n', 128);
    expect(describeStoreFailure(full)).toBe('the disk holding the checkpoint store is full');
    expect(describeStoreFailure(Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }))).toBe(
      'the disk holding the checkpoint store is full',
    );
  });
});
