/**
 * Session names (/rename, Codex's `thread/name/set`): appended to `$TILLER_HOME/session_index.jsonl`
 * as Codex keeps them, one `{ id, thread_name, updated_at }` a line, the last line for an id winning.
 * An append never rewrites a rollout, so naming a session another Tiller has open is safe.
 */
import { appendFile, mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

export const SESSION_INDEX_FILE = 'session_index.jsonl';
export const MAX_THREAD_NAME_CHARS = 100;

/** The name as stored, or why it cannot be one. */
export function checkThreadName(raw: string): { ok: true; name: string } | { ok: false; message: string } {
  const name = raw.trim().replace(/\s+/gu, ' ');
  if (name === '') return { ok: false, message: 'thread name must not be empty' };
  if ([...name].length > MAX_THREAD_NAME_CHARS)
    return { ok: false, message: `thread name must be at most ${MAX_THREAD_NAME_CHARS} characters` };
  return { ok: true, name };
}

export async function appendThreadName(home: string, threadId: string, name: string, nowMs: number): Promise<void> {
  await mkdir(home, { recursive: true, mode: 0o700 });
  const line = JSON.stringify({ id: threadId.toLowerCase(), thread_name: name, updated_at: new Date(nowMs).toISOString() });
  await appendFile(join(home, SESSION_INDEX_FILE), `${line}\n`, { mode: 0o600 });
}

/** Thread id → its latest name; a torn or foreign line is skipped. */
export async function readThreadNames(home: string): Promise<Map<string, string>> {
  let text: string;
  try {
    text = await readFile(join(home, SESSION_INDEX_FILE), 'utf8');
  } catch {
    return new Map();
  }
  const names = new Map<string, string>();
  for (const line of text.split('\n')) {
    try {
      const entry = JSON.parse(line) as { id?: unknown; thread_name?: unknown };
      if (typeof entry.id !== 'string' || typeof entry.thread_name !== 'string') continue;
      // Re-inserted, so the map is in order of naming (threadIdByName wants the latest).
      names.delete(entry.id.toLowerCase());
      names.set(entry.id.toLowerCase(), entry.thread_name);
    } catch {
      // A torn last line (a crash mid-append) or an empty one.
    }
  }
  return names;
}

/** The id of the session most recently given `name` (exact, then case-insensitive); null when none has it. */
export function threadIdByName(names: ReadonlyMap<string, string>, name: string): string | null {
  const entries = [...names.entries()].reverse();
  const exact = entries.find(([, n]) => n === name);
  if (exact !== undefined) return exact[0];
  const folded = name.toLowerCase();
  return entries.find(([, n]) => n.toLowerCase() === folded)?.[0] ?? null;
}

/** The thread with its name from the index (Codex's `Thread.name`), if it has one. */
export function withName<T extends { id: string; name: string | null }>(thread: T, names: ReadonlyMap<string, string>): T {
  const name = names.get(thread.id.toLowerCase());
  return name === undefined ? thread : { ...thread, name };
}
