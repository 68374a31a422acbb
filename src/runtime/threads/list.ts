/**
 * thread/list: the threads of this server and those on disk, newest first, filtered by cwd, source
 * and a search over the preview, a page at a time. Each file is known by its meta file (or header),
 * read only until the page is full. A thread without a user message is not listed.
 */
import { resolve } from 'node:path';
import { JSONRPC_INVALID_PARAMS, JsonRpcError, type Thread, type ThreadListParams, type ThreadListResult } from '../../protocol/api.js';
import { readSummary, type RolloutSummary } from '../rollout/meta.js';
import { type RolloutFile, rolloutFiles } from '../rollout/paths.js';
import { threadView } from './view.js';

const DEFAULT_LIST_LIMIT = 50;
const MAX_LIST_LIMIT = 500;
/** Meta files read at once while filling a page. */
const READ_AHEAD = 16;

const CURSOR = /^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A thread loaded in this server, as a listing sees it (its file may not be written yet). */
export interface ListedThread {
  key: string;
  thread: Thread;
}

interface Filter {
  cwds: Set<string> | null;
  sources: Set<string> | null;
  search: string | null;
}

function filterOf(params: ThreadListParams): Filter {
  const cwd = params.cwd ?? null;
  const cwds = cwd === null ? null : new Set((Array.isArray(cwd) ? cwd : [cwd]).map((dir) => resolve(dir)));
  const sources = params.sourceKinds && params.sourceKinds.length > 0 ? new Set<string>(params.sourceKinds) : null;
  const search = params.searchTerm && params.searchTerm.length > 0 ? params.searchTerm.toLowerCase() : null;
  return { cwds, sources, search };
}

function matches(filter: Filter, thread: { preview: string; cwd: string; source: string }): boolean {
  if (thread.preview.length === 0) return false;
  if (filter.cwds !== null && !filter.cwds.has(thread.cwd)) return false;
  if (filter.sources !== null && !filter.sources.has(thread.source)) return false;
  return filter.search === null || thread.preview.toLowerCase().includes(filter.search);
}

/** The files on disk that match, newest first, read a few at a time. */
async function* diskThreads(home: string, before: string | null, skip: ReadonlySet<string>, filter: Filter): AsyncGenerator<ListedThread> {
  const files = rolloutFiles(home, before);
  for (;;) {
    const batch: RolloutFile[] = [];
    while (batch.length < READ_AHEAD) {
      const next = await files.next();
      if (next.done) break;
      if (!skip.has(next.value.threadId)) batch.push(next.value);
    }
    if (batch.length === 0) return;
    const summaries = await Promise.all(batch.map((file) => readSummary(file.path, file.threadId)));
    for (let i = 0; i < batch.length; i++) {
      const summary: RolloutSummary | null = summaries[i]!;
      // Unreadable, or deleted while listed: left out.
      if (summary === null) continue;
      const file = batch[i]!;
      const thread = threadView(summary, { status: { type: 'notLoaded' }, path: file.path, ephemeral: false });
      if (matches(filter, { preview: thread.preview, cwd: thread.cwd, source: thread.source })) yield { key: file.key, thread };
    }
  }
}

export async function listThreads(home: string, loaded: readonly ListedThread[], params: ThreadListParams): Promise<ThreadListResult> {
  const cursor = params.cursor ?? null;
  if (cursor !== null && !CURSOR.test(cursor)) throw new JsonRpcError(JSONRPC_INVALID_PARAMS, `invalid cursor: ${cursor}`);
  const limit = Math.min(MAX_LIST_LIMIT, params.limit && params.limit > 0 ? params.limit : DEFAULT_LIST_LIMIT);
  const filter = filterOf(params);
  const mine = loaded
    .filter((entry) => (cursor === null || entry.key < cursor) && matches(filter, entry.thread))
    .sort((a, b) => (a.key < b.key ? 1 : a.key > b.key ? -1 : 0));
  const disk = diskThreads(home, cursor, new Set(loaded.map((entry) => entry.thread.id)), filter);
  const page: ListedThread[] = [];
  let fromDisk = await disk.next();
  let i = 0;
  // One more than the page: whether there is a next page.
  while (page.length <= limit) {
    const a = mine[i];
    const b = fromDisk.done ? undefined : fromDisk.value;
    if (a === undefined && b === undefined) break;
    if (b === undefined || (a !== undefined && a.key > b.key)) {
      page.push(a!);
      i++;
    } else {
      page.push(b);
      fromDisk = await disk.next();
    }
  }
  await disk.return(undefined);
  const more = page.length > limit;
  const data = page.slice(0, limit);
  return { data: data.map((entry) => entry.thread), nextCursor: more ? data.at(-1)!.key : null };
}
