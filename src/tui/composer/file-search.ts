/**
 * `@` file search (docs/codex-parity.md#popups): the token under the caret, and a fuzzy search over the working tree.
 * The walk is asynchronous and bounded (skips .git and node_modules, honours .gitignore files, those
 * above the directory up to the repository's top included, stops at MAX_FILES) and its result is cached
 * per directory for a short while, so typing a query re-ranks a list instead of walking the disk on
 * every key.
 */
import { opendir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { go } from 'fuzzysort';
import ignore, { type Ignore } from 'ignore';

export interface TokenAtCursor {
  /** UTF-8 byte range of the whole token, sigil included. */
  start: number;
  end: number;
  /** The token without its sigil (may be empty for a bare `@`). */
  query: string;
}

const WHITESPACE = /\s/u;

/**
 * The whitespace-delimited token at the caret if it starts with `sigil`. The caret may be anywhere inside the
 * token or right after it. `foo@bar` is not a token (the sigil must start it); `@scope/pkg@latest` is one.
 * When the caret sits on whitespace, a sigil token right after that whitespace wins (as Codex).
 */
export function currentToken(text: string, cursorByte: number, sigil: '@' | '$'): TokenAtCursor | null {
  const bytes = Buffer.from(text);
  const cursor = charBoundaryAtOrBefore(bytes, Math.max(0, Math.min(cursorByte, bytes.length)));
  const before = bytes.subarray(0, cursor).toString();
  const after = bytes.subarray(cursor).toString();
  const cursorIndex = before.length;

  const tokenEndFrom = (index: number): number => {
    let i = index;
    while (i < text.length) {
      const ch = String.fromCodePoint(text.codePointAt(i)!);
      if (WHITESPACE.test(ch)) break;
      i += ch.length;
    }
    return i;
  };

  let leftStart = 0;
  for (let i = before.length - 1; i >= 0; i--) {
    if (WHITESPACE.test(before[i]!)) {
      leftStart = i + 1;
      break;
    }
  }
  const leftEnd = tokenEndFrom(leftStart);
  const wsAfter = after.length - after.trimStart().length;
  const rightStart = cursorIndex + wsAfter;
  const rightEnd = tokenEndFrom(rightStart);

  const make = (start: number, end: number): TokenAtCursor | null => {
    if (start >= end || !text.startsWith(sigil, start)) return null;
    return {
      start: Buffer.byteLength(text.slice(0, start)),
      end: Buffer.byteLength(text.slice(0, end)),
      query: text.slice(start + sigil.length, end),
    };
  };
  const left = make(leftStart, leftEnd);
  const right = make(rightStart, rightEnd);
  const atWhitespace = after.length > 0 && WHITESPACE.test(after[0]!);
  if (atWhitespace) return right ?? left;
  if (after.startsWith(sigil)) return right ?? left;
  return left ?? right;
}

function charBoundaryAtOrBefore(bytes: Uint8Array, offset: number): number {
  let i = offset;
  // UTF-8 continuation bytes are 0b10xxxxxx.
  while (i > 0 && i < bytes.length && (bytes[i]! & 0xc0) === 0x80) i--;
  return i;
}

/** The walk stops after this many files: a huge tree must not stall the composer. */
export const MAX_FILES = 20_000;
export const MAX_RESULTS = 20;
/** A cached file list is reused for this long; after that the next search walks again. */
export const CACHE_TTL_MS = 5_000;
/** A `refresh` search (the popup opening) walks again when the cached list is older than this. */
export const REFRESH_AFTER_MS = 500;

const ALWAYS_SKIPPED = new Set(['.git', 'node_modules']);

interface IgnoreScope {
  /** Directory of the .gitignore, relative to the root ('' for the root), with a trailing `/` unless root. */
  base: string;
  /** For a .gitignore above the root (in the repository): the root's path relative to it, with `/`. */
  prefix: string;
  rules: Ignore;
}

export interface WalkResult {
  /** Relative paths with `/` separators, in walk order. */
  files: string[];
  /** True when MAX_FILES (or the given limit) cut the walk short. */
  truncated: boolean;
}

/**
 * Lists the files under `root`, honouring .gitignore files at every level. Breadth first, so when the
 * limit cuts the walk short the files nearest the root are the ones kept.
 */
export async function listFiles(root: string, opts: { limit?: number; signal?: AbortSignal } = {}): Promise<WalkResult> {
  const limit = opts.limit ?? MAX_FILES;
  const files: string[] = [];
  const queue: Array<{ rel: string; scopes: IgnoreScope[] }> = [{ rel: '', scopes: await ancestorScopes(root) }];
  for (let next = 0; next < queue.length; next++) {
    opts.signal?.throwIfAborted();
    const { rel, scopes: parentScopes } = queue[next]!;
    const abs = rel === '' ? root : path.join(root, rel);
    const scopes = await withGitignore(abs, rel, parentScopes);
    let dir;
    try {
      dir = await opendir(abs);
    } catch {
      continue; // unreadable directory: skip it, keep the rest of the tree
    }
    const subdirs: string[] = [];
    for await (const entry of dir) {
      if (ALWAYS_SKIPPED.has(entry.name)) continue;
      const relPath = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!isIgnored(scopes, `${relPath}/`)) subdirs.push(relPath);
      } else if (entry.isFile() || entry.isSymbolicLink()) {
        // Symbolic links are listed but never followed, so a link cycle cannot trap the walk.
        if (isIgnored(scopes, relPath)) continue;
        files.push(relPath);
        // Leaving the for-await loop closes the directory handle.
        if (files.length >= limit) return { files, truncated: true };
      }
    }
    for (const sub of subdirs.sort()) queue.push({ rel: sub, scopes });
  }
  return { files, truncated: false };
}

async function withGitignore(abs: string, rel: string, scopes: IgnoreScope[]): Promise<IgnoreScope[]> {
  let content: string;
  try {
    content = await readFile(path.join(abs, '.gitignore'), 'utf8');
  } catch {
    return scopes;
  }
  return [...scopes, { base: rel === '' ? '' : `${rel}/`, prefix: '', rules: ignore().add(content) }];
}

/**
 * When the root lies inside a git repository, the .gitignore files between the repository's top and the
 * root apply too (as git sees it). Outside a repository, directories above the root are not consulted.
 */
async function ancestorScopes(root: string): Promise<IgnoreScope[]> {
  const ancestors: string[] = [];
  let dir = path.resolve(root);
  for (;;) {
    if (await exists(path.join(dir, '.git'))) break;
    const parent = path.dirname(dir);
    if (parent === dir) return [];
    dir = parent;
    ancestors.unshift(dir);
  }
  const scopes: IgnoreScope[] = [];
  for (const ancestor of ancestors) {
    let content: string;
    try {
      content = await readFile(path.join(ancestor, '.gitignore'), 'utf8');
    } catch {
      continue;
    }
    const prefix = `${path.relative(ancestor, root).split(path.sep).join('/')}/`;
    scopes.push({ base: '', prefix, rules: ignore().add(content) });
  }
  return scopes;
}

async function exists(file: string): Promise<boolean> {
  try {
    await stat(file);
    return true;
  } catch {
    return false;
  }
}

function isIgnored(scopes: IgnoreScope[], relPath: string): boolean {
  for (const scope of scopes) {
    if (!relPath.startsWith(scope.base)) continue;
    const inner = scope.prefix + relPath.slice(scope.base.length);
    if (inner !== '' && scope.rules.ignores(inner)) return true;
  }
  return false;
}

interface CacheEntry {
  at: number;
  list: Promise<string[]>;
  /** The list once the walk is done. */
  files?: string[];
}

const cache = new Map<string, CacheEntry>();

export function clearFileSearchCache(): void {
  cache.clear();
}

export interface SearchOptions {
  signal?: AbortSignal;
  /** Clock for the cache (tests inject one). */
  now?: () => number;
  limit?: number;
  /**
   * The `@` popup just opened: files may have been added or removed since the cached walk. The answer
   * comes at once from the cached list (the popup's first frame stays fast) while the tree is walked
   * again; `onRefreshed` gets the new answer if the walk changed the list.
   */
  refresh?: boolean;
  onRefreshed?: (paths: string[]) => void;
}

function startWalk(key: string, at: number): CacheEntry {
  const list = listFiles(key).then((r) => r.files);
  const entry: CacheEntry = { at, list };
  cache.set(key, entry);
  list.then(
    (files) => {
      entry.files = files;
    },
    // A failed walk must not stick in the cache.
    () => {
      if (cache.get(key) === entry) cache.delete(key);
    },
  );
  return entry;
}

function sameFiles(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((f, i) => f === b[i]);
}

/**
 * The best MAX_RESULTS paths (relative to `cwd`) for `query`; an empty query gives the shortest paths.
 * Rejects with an AbortError when `signal` aborts (the shared walk itself carries on to fill the cache).
 */
export async function searchFiles(cwd: string, query: string, opts: SearchOptions = {}): Promise<string[]> {
  const now = opts.now ?? Date.now;
  opts.signal?.throwIfAborted();
  const key = path.resolve(cwd);
  const limit = opts.limit ?? MAX_RESULTS;
  let entry = cache.get(key);
  const cached = entry?.files;
  if (entry !== undefined && cached !== undefined && opts.refresh === true && now() - entry.at > REFRESH_AFTER_MS) {
    // Stale while revalidate: the cached answer now, the walked one when it differs.
    const onRefreshed = opts.onRefreshed;
    startWalk(key, now()).list.then(
      (files) => {
        if (onRefreshed !== undefined && !sameFiles(files, cached)) onRefreshed(rankPaths(files, query, limit));
      },
      () => undefined,
    );
    return rankPaths(cached, query, limit);
  }
  if (!entry || now() - entry.at > CACHE_TTL_MS) entry = startWalk(key, now());
  const files = await raceAbort(entry.list, opts.signal);
  return rankPaths(files, query, limit);
}

/** Fuzzy ranking of paths for a query (pure). */
export function rankPaths(files: readonly string[], query: string, limit = MAX_RESULTS): string[] {
  const q = query.trim();
  if (q === '') {
    return [...files].sort((a, b) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0)).slice(0, limit);
  }
  return go(q, files, { limit, threshold: 0 }).map((r) => r.target);
}

function raceAbort<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
