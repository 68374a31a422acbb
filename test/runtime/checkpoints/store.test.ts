/**
 * The workspace snapshot: a checkpoint put back restores every file byte for byte (added files
 * removed, deleted ones and modes back), honours the workspace's ignore rules, keeps binary files and
 * symlinks, survives a file replaced by a directory, needs no git repository in the workspace and
 * refuses a workspace over the caps with a message.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, lstatSync, mkdirSync, readFileSync, readlinkSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CheckpointStore } from '../../../src/runtime/checkpoints/store.js';
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
});
