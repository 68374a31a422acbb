/**
 * Where rollouts live: `$TILLER_HOME/sessions/YYYY/MM/DD/rollout-<YYYY-MM-DDTHH-MM-SS>-<threadId>.jsonl`,
 * dated in UTC from the thread id's own time (ids are UUIDv7), so the path follows from the id and
 * names sort newest last. Beside each: `<name>.meta.json` (the listing's summary) and `<name>.jsonl.lock`.
 */
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

const SESSIONS_DIR = 'sessions';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
const FILE = /^rollout-(\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2})-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/i;

function isThreadId(id: string): boolean {
  return UUID.test(id);
}

function sessionsRoot(home: string): string {
  return join(home, SESSIONS_DIR);
}

/** A UUIDv7's millisecond timestamp; other ids have none. */
function idTime(threadId: string): number | null {
  if (!UUID_V7.test(threadId)) return null;
  return Number.parseInt(threadId.replace(/-/g, '').slice(0, 12), 16);
}

function stamp(ms: number): { day: string[]; time: string } {
  const iso = new Date(ms).toISOString(); // 2025-01-02T03:04:05.678Z
  return {
    day: [iso.slice(0, 4), iso.slice(5, 7), iso.slice(8, 10)],
    time: `${iso.slice(0, 10)}T${iso.slice(11, 13)}-${iso.slice(14, 16)}-${iso.slice(17, 19)}`,
  };
}

/** The rollout of a thread created at `createdAtMs` (used when the id carries no time). */
export function rolloutPath(home: string, threadId: string, createdAtMs: number): string {
  const { day, time } = stamp(idTime(threadId) ?? createdAtMs);
  return join(sessionsRoot(home), ...day, `rollout-${time}-${threadId}.jsonl`);
}

export function metaPathOf(rollout: string): string {
  return rollout.replace(/\.jsonl$/, '.meta.json');
}

export function lockPathOf(rollout: string): string {
  return `${rollout}.lock`;
}

/** A listing position: the file name's stamp and id, which sort as the threads were created. */
export function sortKey(createdAtMs: number, threadId: string): string {
  return `${stamp(idTime(threadId) ?? createdAtMs).time}-${threadId.toLowerCase()}`;
}

export interface RolloutFile {
  path: string;
  threadId: string;
  key: string;
}

async function entries(dir: string, pattern: RegExp): Promise<string[]> {
  try {
    return (await readdir(dir))
      .filter((name) => pattern.test(name))
      .sort()
      .reverse();
  } catch {
    return [];
  }
}

/**
 * Every rollout under the home, newest first, lazily (a page of a listing reads only the
 * directories it reaches). `before`: only keys sorting before it (a listing cursor).
 */
export async function* rolloutFiles(home: string, before: string | null = null): AsyncGenerator<RolloutFile> {
  const root = sessionsRoot(home);
  const beforeDay = before?.slice(0, 10) ?? null;
  for (const year of await entries(root, /^\d{4}$/)) {
    if (beforeDay !== null && year > beforeDay.slice(0, 4)) continue;
    for (const month of await entries(join(root, year), /^\d{2}$/)) {
      if (beforeDay !== null && `${year}-${month}` > beforeDay.slice(0, 7)) continue;
      for (const day of await entries(join(root, year, month), /^\d{2}$/)) {
        if (beforeDay !== null && `${year}-${month}-${day}` > beforeDay) continue;
        for (const name of await entries(join(root, year, month, day), FILE)) {
          const match = FILE.exec(name)!;
          const threadId = match[2]!.toLowerCase();
          const key = `${match[1]}-${threadId}`;
          if (before !== null && key >= before) continue;
          yield { path: join(root, year, month, day, name), threadId, key };
        }
      }
    }
  }
}

/** The rollout of `threadId`, if there is one: where its id says, else wherever it is. */
export async function findRollout(home: string, threadId: string): Promise<string | null> {
  if (!isThreadId(threadId)) return null;
  const time = idTime(threadId);
  if (time !== null) {
    const expected = rolloutPath(home, threadId, time);
    if (existsSync(expected)) return expected;
  }
  const id = threadId.toLowerCase();
  for await (const file of rolloutFiles(home)) if (file.threadId === id) return file.path;
  return null;
}
