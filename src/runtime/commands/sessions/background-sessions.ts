/**
 * The thread's background commands as `/ps` and `/stop` see them (`tiller/commandSessions/list` and
 * `/stop`): each running exec session with its command, how long it has run and its last line of
 * output; stopping one or all ends them as an interrupt does.
 */
import type { TillerCommandSession } from '../../../protocol/api.js';
import type { ExecSessionStore } from './session-store.js';

export function listCommandSessions(store: ExecSessionStore, nowMs: number): TillerCommandSession[] {
  return store
    .all()
    .sort((a, b) => a.startedAtMs - b.startedAtMs)
    .map((s) => ({
      id: s.id,
      command: s.command,
      startedAtMs: s.startedAtMs,
      runningMs: Math.max(0, nowMs - s.startedAtMs),
      lastLine: s.tail?.line ?? '',
      exited: s.process.output.exited,
      exitCode: s.process.output.exitCode,
    }));
}

/** Ends the session `id`, or every one when `id` is null; the ids ended, in start order. */
export function stopCommandSessions(store: ExecSessionStore, id: number | null): number[] {
  const ids = id === null ? listCommandSessions(store, 0).map((s) => s.id) : [id];
  return ids.filter((one) => store.stop(one));
}
