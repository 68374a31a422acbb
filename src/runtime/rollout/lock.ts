/**
 * One writer a thread: a lock file beside the rollout, created exclusively (a hard link fails if
 * it exists, as O_EXCL does), holding the writer's pid. A lock whose process is gone (a crash,
 * kill -9) is stale and taken over.
 */
import { readFileSync, unlinkSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { link, mkdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { lockPathOf } from './paths.js';
import { processAlive } from '../process-alive.js';

/** Another live process writes this thread. */
export class SessionLockedError extends Error {
  constructor(
    readonly threadId: string,
    readonly pid: number,
  ) {
    super(`session ${threadId} is open in another Tiller (pid ${pid})`);
    this.name = 'SessionLockedError';
  }
}

export interface RolloutLock {
  readonly path: string;
  /** Removes the lock (only if it is still this process's). */
  release(): Promise<void>;
  releaseSync(): void;
}

function pidIn(text: string): number | null {
  const pid = Number.parseInt(text.trim(), 10);
  return Number.isInteger(pid) && pid > 0 ? pid : null;
}

/** Creates the lock with its pid already in it (a hard link of a finished file), so no one ever reads it empty. */
async function tryCreate(path: string): Promise<boolean> {
  const tmp = `${path}.${process.pid}-${randomUUID()}`;
  await writeFile(tmp, `${process.pid}\n`, { mode: 0o600 });
  try {
    await link(tmp, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    await unlink(tmp).catch(() => undefined);
  }
}

function lockOf(path: string): RolloutLock {
  const ours = (text: string): boolean => pidIn(text) === process.pid;
  return {
    path,
    async release() {
      try {
        if (ours(await readFile(path, 'utf8'))) await unlink(path);
      } catch {
        // Already gone.
      }
    },
    releaseSync() {
      try {
        if (ours(readFileSync(path, 'utf8'))) unlinkSync(path);
      } catch {
        // Already gone.
      }
    },
  };
}

/**
 * Takes the lock of `rollout` (creating its directory, 0700). Throws SessionLockedError when a live
 * process holds it — this one too, through another writer.
 */
export async function acquireLock(rollout: string, threadId: string): Promise<RolloutLock> {
  const path = lockPathOf(rollout);
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  for (let attempt = 0; attempt < 3; attempt++) {
    if (await tryCreate(path)) return lockOf(path);
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch {
      continue; // released meanwhile
    }
    const pid = pidIn(text);
    if (pid !== null && processAlive(pid)) throw new SessionLockedError(threadId, pid);
    // Stale. Renaming it away claims it: of two processes taking it over, one rename succeeds.
    const claimed = `${path}.stale-${process.pid}`;
    try {
      await rename(path, claimed);
    } catch {
      continue;
    }
    const seen = await readFile(claimed, 'utf8').catch(() => '');
    if (seen !== text) {
      // Someone took it over between our read and the rename: give theirs back (unless a newer one is there).
      await link(claimed, path).catch(() => undefined);
      await unlink(claimed).catch(() => undefined);
      continue;
    }
    await unlink(claimed).catch(() => undefined);
  }
  const pid = pidIn(await readFile(path, 'utf8').catch(() => '')) ?? 0;
  throw new SessionLockedError(threadId, pid);
}
