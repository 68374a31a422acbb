/**
 * The app server's threads and their rollouts: thread/start records a new one; thread/resume loads
 * one from disk into a Session with its whole history; thread/fork copies one (through a turn)
 * into a new thread; thread/revert drops a loaded thread's last turns; thread/read and thread/list
 * look without loading. Every thread but an ephemeral one is written as it happens.
 */
import {
  JSONRPC_INVALID_PARAMS,
  JsonRpcError,
  type ServerNotification,
  type Thread,
  type ThreadForkParams,
  type ThreadListParams,
  type ThreadListResult,
  type ThreadReadParams,
  type ThreadReadResult,
  type ThreadResumeParams,
  type ThreadResumeResult,
  type ThreadRevertParams,
  type ThreadRevertResult,
  type ThreadSetNameParams,
  type ThreadSetNameResult,
  type TillerInstructionFile,
  type TokenUsageBreakdown,
  type Turn,
} from '../../protocol/api.js';
import type { TillerTurnCheckpoint } from '../../protocol/checkpoints.js';
import type { ResponseItem } from '../../protocol/response-items.js';
import type { TillerConfig } from '../config.js';
import { closeDanglingCalls, type HistoryEntry } from '../core/history.js';
import { newId } from '../core/ids.js';
import { loadThreadContext, type ThreadContext } from '../context/thread-context.js';
import type { HistorySink } from '../core/history-sink.js';
import type { Session } from '../core/session.js';
import type { TurnContext } from '../core/turn-state.js';
import type { ThreadSource } from '../rollout/format.js';
import { acquireLock, SessionLockedError } from '../rollout/lock.js';
import { readSummary } from '../rollout/meta.js';
import { findRollout, rolloutPath, sortKey } from '../rollout/paths.js';
import { loadHistory, loadItems } from '../rollout/lazy.js';
import type { ReadResult } from '../rollout/reader.js';
import type { RolloutTail } from '../rollout/source.js';
import type { DeferredSnapshot, ReplayStop, ThreadSnapshot } from '../rollout/reducer.js';
import { FileRolloutWriter, MemoryRollout, prepareForAppend, type RolloutSink } from '../rollout/writer.js';
import { listThreads } from './list.js';
import { appendThreadName, checkThreadName, readThreadNames, withName } from './names.js';
import { recorderFor, settingsOf, type ThreadRecorder } from './recorder.js';
import { defaultSettings, newHeader, type SettingsOverrides, withOverrides } from './settings.js';
import { copyTurns, limitTurns, readDeferredOrRefuse, readOrRefuse, summaryOf } from './snapshot.js';
import { noSessionError, sessionLockedError, threadRequestError, threadView } from './view.js';

export interface SessionInit {
  threadId: string;
  context: TurnContext;
  initialContext: ResponseItem[];
  historySink: HistorySink;
  initialHistory?: HistoryEntry[] | Promise<HistoryEntry[]>;
  initialUsage?: TokenUsageBreakdown;
  initialCheckpoints?: TillerTurnCheckpoint[];
}

export interface ThreadStoreOptions {
  config: TillerConfig;
  source: ThreadSource;
  /** The thread's Session, with the app server's shared options. */
  createSession(init: SessionInit): Session;
  /** The model provider's label (`offline`, the base URL's host, …). */
  providerLabel(): string;
  emit(notification: ServerNotification): void;
}

interface LoadedThread {
  session: Session;
  recorder: ThreadRecorder;
  ephemeral: boolean;
  files: TillerInstructionFile[];
}

const DANGLING_CALL_OUTPUT = 'aborted: the session ended before the call finished';

export class ThreadStore {
  private readonly loaded = new Map<string, LoadedThread>();
  /** Resumes under way, so two requests for one thread load it once. */
  private readonly opening = new Map<string, Promise<ThreadResumeResult>>();

  constructor(private readonly options: ThreadStoreOptions) {}

  private get home(): string {
    return this.options.config.home;
  }

  session(threadId: string): Session | undefined {
    return this.loaded.get(threadId.toLowerCase())?.session;
  }

  /** Records what the thread's notifications tell (items, turn ends, usage). */
  observe(notification: ServerNotification): void {
    const threadId = (notification.params as { threadId?: unknown }).threadId;
    if (typeof threadId === 'string') this.loaded.get(threadId)?.recorder.observe(notification);
  }

  start(settings: TurnContext, context: ThreadContext, ephemeral: boolean): { session: Session; thread: Thread } {
    const threadId = newId();
    const header = newHeader({
      threadId,
      sessionId: threadId,
      forkedFromId: null,
      settings,
      provider: this.options.providerLabel(),
      source: this.options.source,
    });
    const sink = this.sink(threadId, header.createdAt, ephemeral);
    sink.append(header);
    sink.append({ type: 'context', items: context.initialContext, files: context.files });
    sink.append({ type: 'settings', settings: settingsOf(settings) });
    const recorder = recorderFor(sink, header, settingsOf(settings), null, (error) => this.writeFailed(threadId, error));
    const session = this.options.createSession({
      threadId,
      context: settings,
      initialContext: context.initialContext,
      historySink: recorder,
    });
    const loaded: LoadedThread = { session, recorder, ephemeral, files: context.files };
    this.loaded.set(threadId, loaded);
    return { session, thread: this.view(loaded) };
  }

  async list(params: ThreadListParams): Promise<ThreadListResult> {
    const mine = [...this.loaded.values()].map((t) => ({
      key: sortKey(t.recorder.header.createdAt, t.recorder.header.threadId),
      thread: this.view(t),
    }));
    const [page, names] = await Promise.all([listThreads(this.home, mine, params), readThreadNames(this.home)]);
    return { ...page, data: page.data.map((thread) => withName(thread, names)) };
  }

  /** Codex's thread/name/set: the session's name, kept in the session index (names.ts). */
  async setName(params: ThreadSetNameParams): Promise<ThreadSetNameResult> {
    const checked = checkThreadName(params.name);
    if (!checked.ok) throw new JsonRpcError(JSONRPC_INVALID_PARAMS, `Invalid params: name: ${checked.message}`);
    const threadId = params.threadId.toLowerCase();
    const loaded = this.loaded.get(threadId);
    if (loaded?.ephemeral === true) throw threadRequestError('an ephemeral session cannot be named');
    if (loaded === undefined) await this.pathOf(params.threadId);
    await appendThreadName(this.home, threadId, checked.name, Date.now());
    this.options.emit({ method: 'thread/name/updated', params: { threadId, threadName: checked.name } });
    return {};
  }

  async read(params: ThreadReadParams): Promise<ThreadReadResult> {
    const [result, names] = await Promise.all([this.readUnnamed(params), readThreadNames(this.home)]);
    return { thread: withName(result.thread, names) };
  }

  private async readUnnamed(params: ThreadReadParams): Promise<ThreadReadResult> {
    const loaded = this.loaded.get(params.threadId.toLowerCase());
    if (loaded) return { thread: this.view(loaded, params.includeTurns ? (await this.replay(loaded)).snapshot.turns : []) };
    const path = await this.pathOf(params.threadId);
    const view = { status: { type: 'notLoaded' as const }, path, ephemeral: false };
    if (params.includeTurns) {
      const { snapshot } = await readOrRefuse({ kind: 'file', path });
      return { thread: threadView(summaryOf(snapshot), { ...view, turns: snapshot.turns }) };
    }
    const summary = await readSummary(path, params.threadId.toLowerCase());
    if (summary === null) throw threadRequestError(`session ${params.threadId} cannot be read`);
    return { thread: threadView(summary, view) };
  }

  resume(params: ThreadResumeParams): Promise<ThreadResumeResult> {
    const threadId = params.threadId.toLowerCase();
    const loaded = this.loaded.get(threadId);
    if (loaded) return this.loadedResult(loaded, params);
    let opening = this.opening.get(threadId);
    if (!opening) {
      opening = this.open(threadId, params).finally(() => this.opening.delete(threadId));
      this.opening.set(threadId, opening);
    }
    return opening;
  }

  private async loadedResult(loaded: LoadedThread, params: ThreadResumeParams): Promise<ThreadResumeResult> {
    return this.result(
      loaded,
      params.excludeTurns ? [] : limitTurns((await this.replay(loaded)).snapshot.turns, params.tillerTurnsLimit),
      [],
      [],
    );
  }

  private async open(threadId: string, params: ThreadResumeParams): Promise<ThreadResumeResult> {
    const path = await this.pathOf(threadId);
    let lock;
    try {
      lock = await acquireLock(path, threadId);
    } catch (error) {
      if (error instanceof SessionLockedError) throw sessionLockedError(threadId, error.pid);
      throw error;
    }
    try {
      const read = await this.readForResume(threadId, path, params);
      const size = await prepareForAppend(path, read.tail);
      const sink = new FileRolloutWriter({
        path,
        threadId,
        existing: { lock, size },
        onError: (error) => this.writeFailed(threadId, error),
      });
      const { loaded, warnings } = await this.attach(read.snapshot, read.history, sink, params, { copy: null, ephemeral: false });
      return this.result(loaded, read.shown, read.warnings, warnings);
    } catch (error) {
      await lock.release();
      throw error;
    }
  }

  async fork(params: ThreadForkParams): Promise<ThreadResumeResult> {
    const sourceId = params.threadId.toLowerCase();
    const loaded = this.loaded.get(sourceId);
    const stop: ReplayStop | undefined = params.lastTurnId
      ? { afterTurn: params.lastTurnId }
      : params.tillerBeforeTurnId
        ? { beforeTurn: params.tillerBeforeTurnId }
        : undefined;
    if (loaded && params.lastTurnId && loaded.recorder.activeTurnId === params.lastTurnId) {
      throw threadRequestError(`turn ${params.lastTurnId} is still running`);
    }
    const read = loaded ? await this.replay(loaded, stop) : await readOrRefuse({ kind: 'file', path: await this.pathOf(sourceId) }, stop);
    if (!read.reached) throw threadRequestError(`no turn ${params.lastTurnId ?? params.tillerBeforeTurnId} in session ${sourceId}`);
    const ephemeral = params.ephemeral ?? false;
    const { loaded: forked, warnings } = await this.attach(read.snapshot, read.snapshot.history, null, params, {
      copy: read.snapshot,
      ephemeral,
    });
    return this.result(
      forked,
      params.excludeTurns ? [] : limitTurns(read.snapshot.turns, params.tillerTurnsLimit),
      read.warnings,
      warnings,
    );
  }

  async revert(params: ThreadRevertParams): Promise<ThreadRevertResult> {
    const threadId = params.threadId.toLowerCase();
    const loaded = this.loaded.get(threadId);
    if (!loaded) {
      await this.pathOf(threadId);
      throw threadRequestError(`session ${threadId} is not loaded: resume it first`);
    }
    const running = (): Error => threadRequestError(`session ${threadId} has a turn running: interrupt it first`);
    await loaded.session.historyLoaded;
    if (!loaded.session.isIdle) throw running();
    const { recorder } = loaded;
    if (!recorder.turnIds.includes(params.beforeTurnId)) throw threadRequestError(`no turn ${params.beforeTurnId} in session ${threadId}`);
    const { snapshot } = await this.replay(loaded, { beforeTurn: params.beforeTurnId });
    if (!loaded.session.resetHistory(snapshot.history)) throw running();
    const replacement = recorder.compactionSince(params.beforeTurnId)
      ? snapshot.history.map((entry, i) => ({ turnId: snapshot.historyTurnIds[i] ?? null, entry }))
      : null;
    recorder.reverted(params.beforeTurnId, replacement, snapshot.preview);
    return { thread: this.view(loaded) };
  }

  /** Shuts every thread down, then writes and releases their rollouts. */
  async close(): Promise<void> {
    const all = [...this.loaded.values()];
    await Promise.all(all.map((t) => t.session.shutdown()));
    // Only now: a checkpoint recorded after its turn, reported during the shutdown, still reaches the rollout.
    this.loaded.clear();
    await Promise.all(all.map((t) => t.recorder.close()));
  }

  // ---- loading ----------------------------------------------------------------------------------

  /**
   * A resume's read. When only some turns' items are wanted (`tillerTurnsLimit`, `excludeTurns`),
   * history and item lines are left in the file: those items are read back now and the history
   * behind the answer. Else every line is read at once, as the whole thread is answered anyway.
   */
  private async readForResume(
    threadId: string,
    path: string,
    params: ThreadResumeParams,
  ): Promise<{
    snapshot: Omit<ThreadSnapshot, 'history'>;
    history: HistoryEntry[] | Promise<HistoryEntry[]>;
    shown: Turn[];
    warnings: string[];
    tail: RolloutTail;
  }> {
    const limit = params.tillerTurnsLimit ?? null;
    if (!params.excludeTurns && limit === null) {
      const { snapshot, warnings, tail } = await readOrRefuse({ kind: 'file', path });
      return { snapshot, history: snapshot.history, shown: snapshot.turns, warnings, tail };
    }
    const { snapshot, warnings, tail } = await readDeferredOrRefuse(path);
    const shown = params.excludeTurns ? [] : limitTurns(snapshot.turns, limit);
    const itemWarnings = await loadItems(
      path,
      shown.filter((turn) => turn.itemsView === 'full'),
      snapshot.itemSlots,
    );
    return { snapshot, history: this.historyBehind(threadId, path, snapshot), shown, warnings: [...warnings, ...itemWarnings], tail };
  }

  /**
   * A resumed thread's history, read back from its file once the turns are shown. It never fails:
   * what cannot be read is told as a warning (the thread goes on without it).
   */
  private historyBehind(threadId: string, path: string, snapshot: DeferredSnapshot): Promise<HistoryEntry[]> {
    const warn = (message: string): void => this.options.emit({ method: 'warning', params: { threadId, turnId: '', message } });
    return loadHistory(path, snapshot.history).then(
      ({ entries, warnings }) => {
        for (const warning of warnings) warn(`${path}: ${warning}`);
        return entries;
      },
      (error: unknown) => {
        const reason = (error as NodeJS.ErrnoException).code ?? String(error);
        warn(`the history of this session could not be read (${reason}): the next turn is sent without it`);
        return [];
      },
    );
  }

  /**
   * A Session for a snapshot and its history (a resumed one's may still be read). `copy` (a fork):
   * a new thread whose rollout starts with that snapshot's turns and history; else (a resume)
   * `sink` is the snapshot's own file, appended to.
   */
  private async attach(
    snapshot: Omit<ThreadSnapshot, 'history'>,
    history: HistoryEntry[] | Promise<HistoryEntry[]>,
    existing: RolloutSink | null,
    overrides: SettingsOverrides,
    options: { copy: ThreadSnapshot | null; ephemeral: boolean },
  ): Promise<{ loaded: LoadedThread; warnings: string[] }> {
    const recorded = snapshot.settings ?? defaultSettings(snapshot.header, this.options.config);
    const settings = withOverrides(recorded, overrides, this.options.config);
    let context = snapshot.context;
    let warnings: string[] = [];
    if (context === null) {
      const fresh = await this.context(settings.cwd);
      context = { items: fresh.initialContext, files: fresh.files };
      warnings = fresh.warnings;
    }
    const source = snapshot.header;
    const threadId = options.copy !== null ? newId() : source.threadId;
    const header =
      options.copy !== null
        ? newHeader({
            threadId,
            sessionId: source.sessionId,
            forkedFromId: source.threadId,
            settings,
            provider: this.options.providerLabel(),
            source: this.options.source,
          })
        : source;
    const sink = existing ?? this.sink(threadId, header.createdAt, options.ephemeral);
    const recorder = recorderFor(sink, header, settingsOf(recorded), snapshot, (error) => this.writeFailed(threadId, error));
    if (options.copy !== null) {
      sink.append(header);
      sink.append({ type: 'context', items: context.items, files: context.files });
      copyTurns(sink, options.copy, settingsOf(recorded));
      for (const checkpoint of options.copy.checkpoints) sink.append({ type: 'checkpoint', checkpoint });
    } else {
      if (snapshot.context === null) sink.append({ type: 'context', items: context.items, files: context.files });
      for (const turnId of snapshot.unfinishedTurnIds) recorder.closeUnfinished(turnId);
    }
    if (JSON.stringify(settingsOf(settings)) !== JSON.stringify(settingsOf(recorded))) recorder.settingsChanged(settings);
    const lastTurnId = snapshot.turns.at(-1)?.id ?? null;
    const closeCalls = (entries: HistoryEntry[]): HistoryEntry[] => {
      const before = entries.length;
      closeDanglingCalls(entries, DANGLING_CALL_OUTPUT);
      for (const entry of entries.slice(before)) recorder.appended(entry, lastTurnId);
      return entries;
    };
    const session = this.options.createSession({
      threadId,
      context: settings,
      initialContext: context.items,
      historySink: recorder,
      initialHistory: Array.isArray(history) ? closeCalls(history) : history.then(closeCalls),
      ...(snapshot.usage ? { initialUsage: snapshot.usage.total } : {}),
      initialCheckpoints: snapshot.checkpoints,
    });
    const loaded: LoadedThread = { session, recorder, ephemeral: options.ephemeral, files: context.files };
    this.loaded.set(threadId, loaded);
    void recorder.checkpoint();
    this.options.emit({ method: 'thread/started', params: { thread: this.view(loaded) } });
    return { loaded, warnings };
  }

  private context(cwd: string): Promise<ThreadContext> {
    const config = this.options.config;
    return loadThreadContext({ cwd, home: config.home, projectDocMaxBytes: config.projectDocMaxBytes });
  }

  private sink(threadId: string, createdAt: number, ephemeral: boolean): RolloutSink {
    if (ephemeral) return new MemoryRollout();
    const path = rolloutPath(this.home, threadId, createdAt);
    return new FileRolloutWriter({ path, threadId, onError: (error) => this.writeFailed(threadId, error) });
  }

  private writeFailed(threadId: string, error: Error): void {
    const reason = (error as NodeJS.ErrnoException).code ?? error.message;
    this.options.emit({
      method: 'warning',
      params: { threadId, turnId: '', message: `this session could not be saved (${reason}); it will not be resumable` },
    });
  }

  // ---- views ------------------------------------------------------------------------------------

  private async pathOf(threadId: string): Promise<string> {
    const path = await findRollout(this.home, threadId);
    if (path === null) throw noSessionError(threadId);
    return path;
  }

  /** The loaded thread's lines as recorded so far (written out first). */
  private async replay(loaded: LoadedThread, stop?: ReplayStop): Promise<ReadResult> {
    await loaded.recorder.flush();
    return readOrRefuse(loaded.recorder.source(), stop);
  }

  private view(loaded: LoadedThread, turns: Turn[] = []): Thread {
    const summary = { ...loaded.recorder.summary(), model: loaded.session.currentSettings.model, cwd: loaded.session.currentSettings.cwd };
    const view = threadView(summary, {
      status: loaded.session.isIdle ? { type: 'idle' } : { type: 'active', activeFlags: [] },
      path: loaded.recorder.path,
      ephemeral: loaded.ephemeral,
      turns,
    });
    // The provider this server sends to now (a thread recorded with another keeps going here).
    return { ...view, modelProvider: this.options.providerLabel() };
  }

  private result(loaded: LoadedThread, turns: Turn[], rolloutWarnings: string[], contextWarnings: string[]): ThreadResumeResult {
    const settings = loaded.session.currentSettings;
    return {
      thread: this.view(loaded, turns),
      model: settings.model,
      modelProvider: this.options.providerLabel(),
      cwd: settings.cwd,
      approvalPolicy: settings.approvalPolicy,
      approvalsReviewer: 'user',
      sandbox: settings.sandboxPolicy,
      reasoningEffort: settings.effort,
      tillerInstructions: loaded.files,
      tillerWarnings: contextWarnings,
      tillerTokenUsage: loaded.recorder.usage,
      tillerRolloutWarnings: rolloutWarnings,
    };
  }
}
