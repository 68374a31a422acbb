import type { HistoryEntry } from './history.js';
import type { TurnContext, TurnKindOrRegular } from './turn-state.js';

/**
 * Told of every change to the model-visible history, of each turn start and of each change of the
 * settings, in order, as they happen (the rollout recorder). Calls must not throw.
 */
export interface HistorySink {
  /** An entry appended by `turnId`; null: it came from outside a turn (a `!cmd` on an idle thread). */
  appended(entry: HistoryEntry, turnId: string | null): void;
  /** The whole history replaced by a turn (compaction). */
  replaced(entries: readonly HistoryEntry[], turnId: string): void;
  turnStarted(turn: { id: string; kind: TurnKindOrRegular; startedAtMs: number; context: TurnContext }): void;
  settingsChanged(settings: TurnContext): void;
}
