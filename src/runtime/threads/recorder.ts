/**
 * Records one loaded thread into its rollout: the Session tells it of every history change, turn
 * start and settings change (HistorySink); the app server's notifications give it the completed
 * items and turn ends. At each turn end the lines are flushed and the meta file replaced.
 */
import type { ServerNotification, ThreadItem } from '../../protocol/api.js';
import type { HistoryEntry } from '../core/history.js';
import type { HistorySink } from '../core/history-sink.js';
import type { TurnContext, TurnKindOrRegular } from '../core/turn-state.js';
import {
  displayCopy,
  previewOf,
  type RolloutHeader,
  type RolloutLine,
  type RolloutSettings,
  type TaggedEntry,
  type TokenUsageRecord,
} from '../rollout/format.js';
import { type RolloutSummary, writeMeta } from '../rollout/meta.js';
import type { ThreadSnapshot } from '../rollout/reducer.js';
import type { RolloutSource } from '../rollout/source.js';
import type { RolloutSink } from '../rollout/writer.js';

export function settingsOf(context: TurnContext): RolloutSettings {
  return {
    model: context.model,
    effort: context.effort,
    approvalPolicy: context.approvalPolicy,
    sandboxPolicy: context.sandboxPolicy,
    cwd: context.cwd,
  };
}

export interface RecorderState {
  header: RolloutHeader;
  settings: RolloutSettings;
  preview: string;
  /** The thread's turns, in order, and which of them were compactions. */
  turnIds: string[];
  compactTurnIds: Set<string>;
  usage: TokenUsageRecord | null;
  updatedAt: number;
}

export class ThreadRecorder implements HistorySink {
  private active: string | null = null;
  private metaChain: Promise<void> = Promise.resolve();

  constructor(
    private readonly sink: RolloutSink,
    private readonly state: RecorderState,
    private readonly onMetaError: (error: Error) => void = () => undefined,
    private readonly now: () => number = Date.now,
  ) {}

  get header(): RolloutHeader {
    return this.state.header;
  }
  get path(): string | null {
    return this.sink.path;
  }
  get usage(): TokenUsageRecord | null {
    return this.state.usage;
  }
  get turnIds(): readonly string[] {
    return this.state.turnIds;
  }
  get activeTurnId(): string | null {
    return this.active;
  }

  summary(): RolloutSummary {
    const { header, settings, preview, turnIds, updatedAt } = this.state;
    return { header, model: settings.model, cwd: settings.cwd, preview, turnCount: turnIds.length, updatedAt };
  }

  source(): RolloutSource {
    return this.sink.source();
  }

  append(line: RolloutLine): void {
    this.sink.append(line);
    this.state.updatedAt = this.now();
  }

  // ---- HistorySink ----------------------------------------------------------------------------

  appended(entry: HistoryEntry, turnId: string | null): void {
    this.append({ type: 'history', turnId, entry });
    if (this.state.preview === '') this.state.preview = previewOf(entry) ?? '';
  }

  replaced(entries: readonly HistoryEntry[], turnId: string): void {
    this.append({ type: 'replaceHistory', turnId, history: entries.map((entry) => ({ turnId, entry })) });
  }

  turnStarted(turn: { id: string; kind: TurnKindOrRegular; startedAtMs: number; context: TurnContext }): void {
    this.state.settings = settingsOf(turn.context);
    this.state.turnIds.push(turn.id);
    if (turn.kind === 'compact') this.state.compactTurnIds.add(turn.id);
    this.active = turn.id;
    this.append({ type: 'turnStarted', turnId: turn.id, at: turn.startedAtMs, kind: turn.kind, settings: this.state.settings });
  }

  settingsChanged(settings: TurnContext): void {
    this.state.settings = settingsOf(settings);
    this.append({ type: 'settings', settings: this.state.settings });
  }

  // ---- notifications ----------------------------------------------------------------------------

  observe(notification: ServerNotification): void {
    switch (notification.method) {
      case 'item/completed':
        this.item(notification.params.turnId, notification.params.item);
        break;
      case 'tiller/turn/checkpoint':
        this.append({ type: 'checkpoint', checkpoint: notification.params.checkpoint });
        break;
      case 'thread/tokenUsage/updated':
        this.state.usage = { total: notification.params.tokenUsage.total, last: notification.params.tokenUsage.last };
        break;
      case 'turn/completed': {
        const turn = notification.params.turn;
        if (turn.status === 'inProgress') break;
        this.append({
          type: 'turnCompleted',
          turnId: turn.id,
          at: this.now(),
          status: turn.status,
          error: turn.error,
          durationMs: turn.durationMs,
          usage: this.state.usage,
        });
        if (this.active === turn.id) this.active = null;
        void this.checkpoint();
        break;
      }
      default:
        break;
    }
  }

  private item(turnId: string, item: ThreadItem): void {
    if (turnId.length > 0) this.append({ type: 'item', turnId, item: displayCopy(item) });
  }

  /** A turn a crash left open ends, in the file too, as interrupted. */
  closeUnfinished(turnId: string): void {
    this.append({ type: 'turnCompleted', turnId, at: this.now(), status: 'interrupted', error: null, durationMs: null, usage: null });
  }

  /**
   * Records thread/revert: `beforeTurnId` and later turns dropped. `replacement`: the history after
   * it, written out when replaying the revert as a cut of the history would be wrong (a compaction
   * at or after that turn replaced the entries that came before it).
   */
  reverted(beforeTurnId: string, replacement: TaggedEntry[] | null, preview: string): void {
    const cut = this.state.turnIds.indexOf(beforeTurnId);
    for (const id of this.state.turnIds.splice(cut)) this.state.compactTurnIds.delete(id);
    this.append({ type: 'revert', beforeTurnId, at: this.now() });
    if (replacement !== null) this.append({ type: 'replaceHistory', turnId: null, history: replacement });
    this.state.preview = preview;
    void this.checkpoint();
  }

  /** Whether a compaction at `turnId` or after it would make a plain cut of the history wrong. */
  compactionSince(turnId: string): boolean {
    const cut = this.state.turnIds.indexOf(turnId);
    return this.state.turnIds.slice(cut).some((id) => this.state.compactTurnIds.has(id));
  }

  flush(): Promise<void> {
    return this.sink.flush();
  }

  /** Writes what is buffered, then the meta file (when the thread has a file). */
  checkpoint(): Promise<void> {
    this.metaChain = this.metaChain.then(async () => {
      await this.sink.flush();
      if (this.sink.path === null || !this.sink.materialized) return;
      try {
        await writeMeta(this.sink.path, this.summary());
      } catch (error) {
        this.onMetaError(error instanceof Error ? error : new Error(String(error)));
      }
    });
    return this.metaChain;
  }

  async close(): Promise<void> {
    await this.checkpoint();
    await this.sink.close();
  }
}

/** The recorder of a new thread (no snapshot) or of a loaded one, continuing from its snapshot. */
export function recorderFor(
  sink: RolloutSink,
  header: RolloutHeader,
  settings: RolloutSettings,
  snapshot: Omit<ThreadSnapshot, 'history'> | null,
  onMetaError: (error: Error) => void,
): ThreadRecorder {
  return new ThreadRecorder(
    sink,
    {
      header,
      settings,
      preview: snapshot?.preview ?? '',
      turnIds: snapshot?.turns.map((turn) => turn.id) ?? [],
      compactTurnIds: new Set(snapshot?.compactTurnIds ?? []),
      usage: snapshot?.usage ?? null,
      updatedAt: snapshot?.updatedAt ?? header.createdAt,
    },
    onMetaError,
  );
}
