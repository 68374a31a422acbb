/**
 * `tiller resume NAME`: a word that is not a thread id is looked up among the sessions' names
 * (/rename, Codex's `Thread.name`), newest session first, exact before case-insensitive, as Codex's
 * resume by name does. An id is taken as it is.
 */
import type { AppServerClient, Thread, ThreadListResult } from '../../../protocol/api.js';

const THREAD_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const PAGE = 100;

export function nameMatch(threads: readonly Thread[], name: string): Thread | undefined {
  return threads.find((t) => t.name === name) ?? threads.find((t) => t.name?.toLowerCase() === name.toLowerCase());
}

/** The id of the session `idOrName` names; the word itself when no session has that name (the resume then says it is unknown). */
export async function resolveSessionName(client: AppServerClient, idOrName: string): Promise<string> {
  if (THREAD_ID.test(idOrName)) return idOrName;
  const named: Thread[] = [];
  let cursor: string | null = null;
  do {
    const page: ThreadListResult = await client.request('thread/list', { limit: PAGE, cursor, sourceKinds: [] });
    named.push(...page.data.filter((t) => t.name !== null));
    cursor = page.nextCursor;
  } while (cursor !== null);
  return nameMatch(named, idOrName)?.id ?? idOrName;
}
