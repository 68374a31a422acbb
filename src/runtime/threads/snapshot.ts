/** Reading a thread's lines for the thread methods: as a JSON-RPC refusal when unreadable; the first lines of a fork's file. */
import type { RolloutSettings } from '../rollout/format.js';
import type { RolloutSummary } from '../rollout/meta.js';
import type { Turn } from '../../protocol/api.js';
import { type ReadResult, readRollout, readRolloutDeferred, RolloutReadError } from '../rollout/reader.js';
import type { DeferredSnapshot, ReplayStop, ThreadSnapshot } from '../rollout/reducer.js';
import type { RolloutSource } from '../rollout/source.js';
import type { RolloutSink } from '../rollout/writer.js';
import { threadRequestError } from './view.js';

async function refusing<T>(read: Promise<T>): Promise<T> {
  try {
    return await read;
  } catch (error) {
    if (error instanceof RolloutReadError) throw threadRequestError(error.message);
    throw error;
  }
}

export function readOrRefuse(source: RolloutSource, stop?: ReplayStop): Promise<ReadResult> {
  return refusing(readRollout(source, stop ? { stop } : {}));
}

/** A resume's read: history and item lines left in the file (lazy.ts). */
export function readDeferredOrRefuse(path: string): Promise<ReadResult<DeferredSnapshot>> {
  return refusing(readRolloutDeferred(path));
}

/** The turns with only the last `limit` keeping their items (thread/resume's `tillerTurnsLimit`); earlier ones `notLoaded`. */
export function limitTurns(turns: Turn[], limit: number | null | undefined): Turn[] {
  if (limit === null || limit === undefined || limit >= turns.length) return turns;
  const from = turns.length - limit;
  return turns.map((turn, i) => (i < from ? { ...turn, items: [], itemsView: 'notLoaded' } : turn));
}

export function summaryOf(snapshot: Omit<ThreadSnapshot, 'history'>): RolloutSummary {
  const { header } = snapshot;
  return {
    header,
    model: snapshot.settings?.model ?? header.model,
    cwd: snapshot.settings?.cwd ?? header.cwd,
    preview: snapshot.preview,
    turnCount: snapshot.turns.length,
    updatedAt: snapshot.updatedAt,
  };
}

/** A fork's rollout starts with the source's turns (as shown) and its history, whole. */
export function copyTurns(sink: RolloutSink, snapshot: ThreadSnapshot, settings: RolloutSettings): void {
  sink.append({ type: 'settings', settings });
  const last = snapshot.turns.at(-1);
  for (const turn of snapshot.turns) {
    const at = (turn.startedAt ?? 0) * 1000;
    const kind = snapshot.compactTurnIds.has(turn.id) ? 'compact' : 'regular';
    sink.append({ type: 'turnStarted', turnId: turn.id, at, kind, settings });
    for (const item of turn.items) sink.append({ type: 'item', turnId: turn.id, item });
    sink.append({
      type: 'turnCompleted',
      turnId: turn.id,
      at: (turn.completedAt ?? turn.startedAt ?? 0) * 1000,
      status: turn.status === 'inProgress' ? 'interrupted' : turn.status,
      error: turn.error,
      durationMs: turn.durationMs,
      usage: turn === last ? snapshot.usage : null,
    });
  }
  if (snapshot.history.length === 0) return;
  sink.append({
    type: 'replaceHistory',
    turnId: null,
    history: snapshot.history.map((entry, i) => ({ turnId: snapshot.historyTurnIds[i] ?? null, entry })),
  });
}
