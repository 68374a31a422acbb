import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  CACHE_TTL_MS,
  clearFileSearchCache,
  REFRESH_AFTER_MS,
  currentToken,
  listFiles,
  rankPaths,
  searchFiles,
} from '../../src/tui/composer/file-search.js';

const byteIndex = (text: string, marker: string): number => Buffer.byteLength(text.slice(0, text.indexOf(marker)));

describe('currentToken', () => {
  it('finds an @ token with the caret at its end', () => {
    expect(currentToken('look at @src/ma', 15, '@')).toEqual({ start: 8, end: 15, query: 'src/ma' });
  });

  it('finds the token with the caret in its middle', () => {
    expect(currentToken('see @readme now', 7, '@')).toEqual({ start: 4, end: 11, query: 'readme' });
  });

  it('a bare sigil is a token with an empty query', () => {
    expect(currentToken('hello @', 7, '@')).toEqual({ start: 6, end: 7, query: '' });
  });

  it('a mid-word @ is not a token start', () => {
    expect(currentToken('mail foo@bar', 12, '@')).toBeNull();
  });

  it('keeps a second @ inside the same token', () => {
    expect(currentToken('npm i @scope/pkg@latest', 23, '@')).toEqual({ start: 6, end: 23, query: 'scope/pkg@latest' });
  });

  it('a token without the sigil gives null', () => {
    expect(currentToken('plain words', 5, '@')).toBeNull();
    expect(currentToken('', 0, '@')).toBeNull();
  });

  it('with the caret on the whitespace before a sigil token, that token wins', () => {
    expect(currentToken('ab @cd', 2, '@')).toEqual({ start: 3, end: 6, query: 'cd' });
  });

  it('with the caret on the sigil itself, the token starting there is taken', () => {
    expect(currentToken('ab @cd', 3, '@')).toEqual({ start: 3, end: 6, query: 'cd' });
  });

  it('with the caret right after a token, followed by whitespace, takes that token', () => {
    expect(currentToken('@cd ef', 3, '@')).toEqual({ start: 0, end: 3, query: 'cd' });
  });

  it('handles $ tokens the same way', () => {
    expect(currentToken('use $pdf-tools please', 9, '$')).toEqual({ start: 4, end: 14, query: 'pdf-tools' });
    expect(currentToken('use $pdf-tools please', 9, '@')).toBeNull();
  });

  it('gives UTF-8 byte ranges after multi-byte text', () => {
    const text = '看这个 @文件.md';
    const caret = Buffer.byteLength(text);
    const token = currentToken(text, caret, '@')!;
    expect(token.query).toBe('文件.md');
    expect(token.start).toBe(byteIndex(text, '@'));
    expect(Buffer.from(text).subarray(token.start, token.end).toString()).toBe('@文件.md');
  });

  it('moves a caret that falls inside a multi-byte character back to its start', () => {
    const text = '@é';
    // byte 2 is the second byte of é; the caret is treated as sitting before é, still inside the token.
    expect(currentToken(text, 2, '@')).toEqual({ start: 0, end: 3, query: 'é' });
  });

  it('splits tokens on newlines and tabs', () => {
    expect(currentToken('first\n@second', 13, '@')).toEqual({ start: 6, end: 13, query: 'second' });
    expect(currentToken('a\t@b', 4, '@')).toEqual({ start: 2, end: 4, query: 'b' });
  });
});

describe('rankPaths', () => {
  const files = ['src/tui/main.ts', 'src/protocol/user-input.ts', 'README.md', 'test/tui/main.test.ts'];

  it('ranks fuzzy matches', () => {
    expect(rankPaths(files, 'usin')[0]).toBe('src/protocol/user-input.ts');
    expect(rankPaths(files, 'readme')).toEqual(['README.md']);
  });

  it('an empty query lists the shortest paths first', () => {
    expect(rankPaths(files, '')).toEqual(['README.md', 'src/tui/main.ts', 'test/tui/main.test.ts', 'src/protocol/user-input.ts']);
  });

  it('returns at most the limit', () => {
    const many = Array.from({ length: 50 }, (_, i) => `dir/file${i}.ts`);
    expect(rankPaths(many, 'file')).toHaveLength(20);
    expect(rankPaths(many, 'file', 5)).toHaveLength(5);
  });

  it('returns nothing when nothing matches', () => {
    expect(rankPaths(files, 'qqqq')).toEqual([]);
  });
});

describe('walking the tree', () => {
  let root: string;

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'tiller-fs-'));
    const files: Record<string, string> = {
      '.gitignore': 'dist/\n*.log\n/only-root.txt\n',
      'README.md': '# r',
      'only-root.txt': 'x',
      'error.log': 'x',
      'src/app.ts': 'x',
      'src/only-root.txt': 'kept: the pattern is anchored to the root',
      'src/debug.log': 'x',
      'src/gen/.gitignore': '*.gen.ts\n!keep.gen.ts\n',
      'src/gen/a.gen.ts': 'x',
      'src/gen/keep.gen.ts': 'x',
      'src/gen/b.ts': 'x',
      'dist/bundle.js': 'x',
      'node_modules/pkg/index.js': 'x',
      '.git/HEAD': 'x',
      'docs/guide.md': 'x',
    };
    for (const [rel, content] of Object.entries(files)) {
      await mkdir(path.dirname(path.join(root, rel)), { recursive: true });
      await writeFile(path.join(root, rel), content);
    }
  });

  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  beforeEach(() => clearFileSearchCache());

  it('lists files, skipping .git, node_modules and .gitignore matches at every level', async () => {
    const { files, truncated } = await listFiles(root);
    expect(truncated).toBe(false);
    expect([...files].sort()).toEqual(
      [
        '.gitignore',
        'README.md',
        'docs/guide.md',
        'src/app.ts',
        'src/gen/.gitignore',
        'src/gen/b.ts',
        'src/gen/keep.gen.ts',
        'src/only-root.txt',
      ].sort(),
    );
  });

  it('stops at the limit and says so, keeping the files nearest the root', async () => {
    const { files, truncated } = await listFiles(root, { limit: 3 });
    // Breadth first: both files at the top, then the first directory in name order (docs/).
    expect([...files].sort()).toEqual(['.gitignore', 'README.md', 'docs/guide.md']);
    expect(truncated).toBe(true);
  });

  it('searchFiles returns ranked relative paths', async () => {
    expect(await searchFiles(root, 'guide')).toEqual(['docs/guide.md']);
    expect(await searchFiles(root, 'bundle')).toEqual([]);
  });

  it('caches the list until the TTL passes', async () => {
    let now = 1_000;
    const clock = (): number => now;
    expect(await searchFiles(root, 'fresh', { now: clock })).toEqual([]);
    await writeFile(path.join(root, 'docs/fresh.md'), 'x');
    try {
      expect(await searchFiles(root, 'fresh', { now: clock })).toEqual([]);
      now += CACHE_TTL_MS + 1;
      expect(await searchFiles(root, 'fresh', { now: clock })).toEqual(['docs/fresh.md']);
    } finally {
      await rm(path.join(root, 'docs/fresh.md'));
    }
  });

  it('a refresh (the popup opening) answers from the cached list at once and again once the walk sees a change', async () => {
    let now = 1_000;
    const clock = (): number => now;
    expect(await searchFiles(root, 'newfile', { now: clock })).toEqual([]);
    await writeFile(path.join(root, 'docs/newfile.md'), 'x');
    try {
      // Within REFRESH_AFTER_MS of the walk: the cached list, no second walk.
      const early: string[][] = [];
      expect(await searchFiles(root, 'newfile', { now: clock, refresh: true, onRefreshed: (p) => early.push(p) })).toEqual([]);
      now += REFRESH_AFTER_MS + 1;
      const refreshed = new Promise<string[]>((resolve) => {
        void searchFiles(root, 'newfile', { now: clock, refresh: true, onRefreshed: resolve }).then((first) => expect(first).toEqual([]));
      });
      expect(await refreshed).toEqual(['docs/newfile.md']);
      expect(early).toEqual([]);
      // The walked list is the cache now.
      expect(await searchFiles(root, 'newfile', { now: clock })).toEqual(['docs/newfile.md']);
    } finally {
      await rm(path.join(root, 'docs/newfile.md'));
    }
  });

  it('a refresh that finds the same files answers once', async () => {
    let now = 1_000;
    const clock = (): number => now;
    await searchFiles(root, 'guide', { now: clock });
    now += REFRESH_AFTER_MS + 1;
    const second: string[][] = [];
    expect(await searchFiles(root, 'guide', { now: clock, refresh: true, onRefreshed: (p) => second.push(p) })).toEqual(['docs/guide.md']);
    // The next search waits for the same walk the refresh started: by then onRefreshed would have run.
    expect(await searchFiles(root, 'guide', { now: clock })).toEqual(['docs/guide.md']);
    expect(second).toEqual([]);
  });

  it('rejects when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(searchFiles(root, 'app', { signal: controller.signal })).rejects.toThrow();
  });

  it('rejects when the signal aborts during the walk', async () => {
    const controller = new AbortController();
    const pending = searchFiles(root, 'app', { signal: controller.signal });
    controller.abort(new Error('stale query'));
    await expect(pending).rejects.toThrow('stale query');
  });

  it('inside a repository, .gitignore files above the directory apply too', async () => {
    const repo = path.join(root, 'repo');
    const files: Record<string, string> = {
      '.git/HEAD': 'x',
      '.gitignore': '*.secret\n/packages/app/build/\n',
      'packages/.gitignore': 'tmp-*\n',
      'packages/app/index.ts': 'x',
      'packages/app/key.secret': 'x',
      'packages/app/tmp-1.txt': 'x',
      'packages/app/build/out.js': 'x',
    };
    for (const [rel, content] of Object.entries(files)) {
      await mkdir(path.dirname(path.join(repo, rel)), { recursive: true });
      await writeFile(path.join(repo, rel), content);
    }
    try {
      expect((await listFiles(path.join(repo, 'packages/app'))).files).toEqual(['index.ts']);
    } finally {
      await rm(repo, { recursive: true, force: true });
    }
  });

  it('outside a repository, .gitignore files above the directory are not consulted', async () => {
    const outer = await mkdtemp(path.join(tmpdir(), 'tiller-fs-outer-'));
    try {
      await writeFile(path.join(outer, '.gitignore'), '*.md\n');
      await mkdir(path.join(outer, 'inner'));
      await writeFile(path.join(outer, 'inner', 'notes.md'), 'x');
      expect((await listFiles(path.join(outer, 'inner'))).files).toEqual(['notes.md']);
    } finally {
      await rm(outer, { recursive: true, force: true });
    }
  });

  it('lists a symbolic link to a directory without following it (no cycles)', async () => {
    const tree = await mkdtemp(path.join(tmpdir(), 'tiller-fs-link-'));
    try {
      await mkdir(path.join(tree, 'sub'));
      await writeFile(path.join(tree, 'sub', 'a.txt'), 'x');
      await symlink(tree, path.join(tree, 'sub', 'loop'));
      expect((await listFiles(tree)).files.sort()).toEqual(['sub/a.txt', 'sub/loop']);
    } finally {
      await rm(tree, { recursive: true, force: true });
    }
  });

  it('a missing directory gives no results', async () => {
    expect(await searchFiles(path.join(root, 'nope'), 'x')).toEqual([]);
  });
});
