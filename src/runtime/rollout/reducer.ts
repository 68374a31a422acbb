/**
 * Rebuilds a thread from its rollout lines, one at a time: the model's history (replacements and
 * reverts applied), the turns with their items, the latest settings and token usage. A replay can
 * stop at a turn boundary, which gives the thread as it was then (fork, revert). A deferred replay
 * (a resume) takes history and item lines as places in the file (LineRef), read back later.
 */
import type { TillerInstructionFile, TillerTurnCheckpoint, Turn } from '../../protocol/api.js';
import type { ResponseItem } from '../../protocol/response-items.js';
import type { HistoryEntry } from '../core/history.js';
import { type HistorySlot, type ItemSlot, LineRef } from './lazy.js';
import { previewOf, type RolloutHeader, type RolloutLine, type RolloutSettings, type TokenUsageRecord } from './format.js';

/** Where a replay stops: after a turn ended (its last line), or before a turn started. */
export type ReplayStop = { afterTurn: string } | { beforeTurn: string };

export interface ThreadSnapshot {
  header: RolloutHeader;
  history: HistoryEntry[];
  /** For each history entry, its turn (see TaggedEntry). */
  historyTurnIds: Array<string | null>;
  turns: Turn[];
  /** Turns the file never saw end (a crash): `turns` shows them as interrupted. */
  unfinishedTurnIds: string[];
  /** Turn ids of compactions among `turns`: a revert before one cannot be a plain cut of the history. */
  compactTurnIds: Set<string>;
  settings: RolloutSettings | null;
  context: { items: ResponseItem[]; files: TillerInstructionFile[] } | null;
  usage: TokenUsageRecord | null;
  /** The first user message, '' when there is none. */
  preview: string;
  /** The last recorded time (Unix ms). */
  updatedAt: number;
  /** The checkpoints of the turns in `turns`, in turn order. */
  checkpoints: TillerTurnCheckpoint[];
}

/**
 * A deferred replay's thread: history entries may be places in the file, and the turns' items are
 * in `itemSlots` (each turn's `items` is empty until read back).
 */
export interface DeferredSnapshot extends Omit<ThreadSnapshot, 'history'> {
  history: HistorySlot[];
  itemSlots: Map<string, ItemSlot[]>;
}

export class RolloutReducer {
  private readonly history: HistorySlot[] = [];
  /** A deferred replay's items, by turn id. */
  private readonly itemSlots = new Map<string, ItemSlot[]>();
  private deferredEntries = 0;
  private tags: Array<string | null> = [];
  private turns: Turn[] = [];
  private readonly turnIndex = new Map<string, number>();
  private readonly compact = new Set<string>();
  private settings: RolloutSettings | null = null;
  private readonly checkpoints = new Map<string, TillerTurnCheckpoint>();
  private context: ThreadSnapshot['context'] = null;
  private usage: TokenUsageRecord | null = null;
  private preview = '';
  private updatedAt: number;
  private lastStarted: string | null = null;
  private stopped = false;
  /** The stop's turn was seen (so the replay can tell an unknown turn from a reached one). */
  reached = false;
  readonly warnings: string[] = [];

  constructor(
    readonly header: RolloutHeader,
    private readonly stop: ReplayStop | null = null,
    private readonly deferred = false,
  ) {
    this.updatedAt = header.createdAt;
  }

  get done(): boolean {
    return this.stopped;
  }

  /** The first user message was seen: history lines no longer need reading for it. */
  get hasPreview(): boolean {
    return this.preview !== '';
  }

  /** A history line left unread (a deferred replay). */
  historyRef(turnId: string | null, ref: LineRef): void {
    this.history.push(ref);
    this.tags.push(turnId ?? this.lastStarted);
    this.deferredEntries++;
  }

  /** An item line left unread (a deferred replay); an item of an unknown turn is dropped, as a read one is. */
  itemRef(turnId: string, ref: LineRef): void {
    this.itemSlots.get(turnId)?.push(ref);
  }

  /** Applies one line; false once the replay has reached its stop (the line is then not applied). */
  apply(line: RolloutLine): boolean {
    if (this.stopped) return false;
    const stop = this.stop;
    if (stop !== null && line.type === 'turnStarted') {
      if ('beforeTurn' in stop && line.turnId === stop.beforeTurn) return this.halt();
      if ('afterTurn' in stop && this.reached && line.turnId !== stop.afterTurn) return this.halt();
    }
    switch (line.type) {
      case 'header':
        this.warnings.push('a second header line was skipped');
        break;
      case 'context':
        this.context = { items: line.items, files: line.files };
        break;
      case 'settings':
        this.settings = line.settings;
        break;
      case 'history':
        this.push(line.entry, line.turnId ?? this.lastStarted);
        break;
      case 'replaceHistory':
        this.history.length = 0;
        this.tags = [];
        this.deferredEntries = 0;
        for (const tagged of line.history) this.push(tagged.entry, tagged.turnId);
        break;
      case 'turnStarted':
        this.startTurn(line);
        break;
      case 'item':
        if (this.deferred) this.itemSlots.get(line.turnId)?.push(line.item);
        else this.turnOf(line.turnId)?.items.push(line.item);
        break;
      case 'turnCompleted': {
        const turn = this.turnOf(line.turnId);
        if (turn) {
          turn.status = line.status;
          turn.error = line.error;
          turn.completedAt = Math.floor(line.at / 1000);
          turn.durationMs = line.durationMs;
        }
        if (line.usage !== null) this.usage = line.usage;
        this.updatedAt = Math.max(this.updatedAt, line.at);
        if (stop !== null && 'afterTurn' in stop && line.turnId === stop.afterTurn) {
          this.stopped = true;
          return true;
        }
        break;
      }
      case 'revert':
        this.revert(line.beforeTurnId);
        this.updatedAt = Math.max(this.updatedAt, line.at);
        break;
      case 'checkpoint':
        this.checkpoints.set(line.checkpoint.turnId, line.checkpoint);
        break;
    }
    return true;
  }

  private halt(): false {
    this.stopped = true;
    return false;
  }

  private push(entry: HistorySlot, turnId: string | null): void {
    this.history.push(entry);
    this.tags.push(turnId);
    if (this.preview === '' && !(entry instanceof LineRef)) this.preview = previewOf(entry) ?? '';
  }

  private startTurn(line: Extract<RolloutLine, { type: 'turnStarted' }>): void {
    const turn: Turn = {
      id: line.turnId,
      items: [],
      itemsView: 'full',
      status: 'inProgress',
      error: null,
      startedAt: Math.floor(line.at / 1000),
      completedAt: null,
      durationMs: null,
    };
    this.turnIndex.set(line.turnId, this.turns.length);
    this.turns.push(turn);
    if (this.deferred) this.itemSlots.set(line.turnId, []);
    if (line.kind === 'compact') this.compact.add(line.turnId);
    this.settings = line.settings;
    this.lastStarted = line.turnId;
    this.updatedAt = Math.max(this.updatedAt, line.at);
    const stop = this.stop;
    if (stop !== null && 'afterTurn' in stop && line.turnId === stop.afterTurn) this.reached = true;
  }

  private turnOf(turnId: string): Turn | undefined {
    const index = this.turnIndex.get(turnId);
    return index === undefined ? undefined : this.turns[index];
  }

  /** Drops the turn and every later one, and the history recorded since it started. */
  private revert(beforeTurnId: string): void {
    const cut = this.turnIndex.get(beforeTurnId);
    if (cut === undefined) {
      this.warnings.push(`a revert to an unknown turn (${beforeTurnId}) was skipped`);
      return;
    }
    const dropped = new Set(this.turns.slice(cut).map((turn) => turn.id));
    for (const id of dropped) {
      this.turnIndex.delete(id);
      this.compact.delete(id);
      this.itemSlots.delete(id);
    }
    this.turns = this.turns.slice(0, cut);
    const keep = (tag: string | null): boolean => tag === null || !dropped.has(tag);
    let write = 0;
    for (let read = 0; read < this.history.length; read++) {
      if (!keep(this.tags[read]!)) {
        if (this.history[read] instanceof LineRef) this.deferredEntries--;
        continue;
      }
      this.history[write] = this.history[read]!;
      this.tags[write] = this.tags[read]!;
      write++;
    }
    this.history.length = write;
    this.tags.length = write;
    this.lastStarted = this.turns.at(-1)?.id ?? null;
    // The first message stays the preview through compactions; a revert of every turn takes it back.
    if (cut === 0)
      this.preview =
        this.history.map((entry) => (entry instanceof LineRef ? null : previewOf(entry))).find((preview) => preview !== null) ?? '';
  }

  /** The history of a replay that read every line. */
  private readHistory(): HistoryEntry[] {
    if (this.deferredEntries > 0) throw new Error('the history holds lines not read yet');
    return this.history as HistoryEntry[];
  }

  /** The thread as replayed (every line read). A turn the file never saw end (a crash) ends as interrupted. */
  snapshot(): ThreadSnapshot {
    const { itemSlots: _items, ...thread } = this.deferredSnapshot();
    return { ...thread, history: this.readHistory() };
  }

  /** The thread as a deferred replay left it. */
  deferredSnapshot(): DeferredSnapshot {
    const unfinished: string[] = [];
    for (const turn of this.turns) {
      if (turn.status !== 'inProgress') continue;
      unfinished.push(turn.id);
      turn.status = 'interrupted';
    }
    return {
      header: this.header,
      history: this.history,
      itemSlots: this.itemSlots,
      historyTurnIds: this.tags,
      turns: this.turns,
      unfinishedTurnIds: unfinished,
      compactTurnIds: this.compact,
      settings: this.settings,
      context: this.context,
      usage: this.usage,
      preview: this.preview,
      updatedAt: this.updatedAt,
      checkpoints: this.turns.flatMap((turn) => {
        const checkpoint = this.checkpoints.get(turn.id);
        return checkpoint ? [checkpoint] : [];
      }),
    };
  }
}
