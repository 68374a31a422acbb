/**
 * The app server's threads and their rollouts: thread/start records a new one; thread/resume loads
 * one from disk into a Session with its whole history; thread/fork copies one (through a turn)
 * into a new thread; thread/revert drops a loaded thread's last turns; thread/read and thread/list
 * look without loading. Every thread but an ephemeral one is written as it happens.
 */
import type {
  ServerNotification,
  Thread,
  ThreadForkParams,
  ThreadListParams,
  ThreadListResult,
  ThreadReadParams,
  ThreadReadResult,
  ThreadResumeParams,
  ThreadResumeResult,
  ThreadRevertParams,
  ThreadRevertResult,
  TillerInstructionFile,
  TokenUsageBreakdown,
  Turn,
} from '../../protocol/api.js';
import type { ResponseItem } from '../../protocol/response-items.js';
import type { TillerConfig } from '../config.js';
import { closeDanglingCalls, type HistoryEntry } from '../core/history.js';
import { newId } from '../core/ids.js';
import { loadThreadContext, type ThreadContext } from '../core/instructions.js';
import type { HistorySink, Session } from '../core/session.js';
import type { TurnContext } from '../core/turn-state.js';
import type { ThreadSource } from '../rollout/format.js';
import { acquireLock, SessionLockedError } from '../rollout/lock.js';
import { readSummary } from '../rollout/meta.js';
import { findRollout, rolloutPath, sortKey } from '../rollout/paths.js';
import type { ReadResult } from '../rollout/reader.js';
import type { ReplayStop, ThreadSnapshot } from '../rollout/reducer.js';
import { FileRolloutWriter, MemoryRollout, prepareForAppend, type RolloutSink } from '../rollout/writer.js';
import { listThreads } from './list.js';
import { recorderFor, settingsOf, type ThreadRecorder } from './recorder.js';
import { defaultSettings, newHeader, type SettingsOverrides, withOverrides } from './settings.js';
import { copyTurns, readOrRefuse, summaryOf } from './snapshot.js';
import { noSessionError, sessionLockedError, threadRequestError, threadView } from './view.js';

export interface SessionInit {
  threadId: string;
  context: TurnContext;
  initialContext: ResponseItem[];
  historySink: HistorySink;
  initialHistory?: HistoryEntry[];
  initialUsage?: TokenUsageBreakdown;
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
    const header = newHeader({ threadId, sessionId: threadId, forkedFromId: null, settings, provider: this.options.providerLabel(), source: this.options.source });
    const sink = this.sink(threadId, header.createdAt, ephemeral);
    sink.append(header);
    sink.append({ type: 'context', items: context.initialContext, files: context.files });
    sink.append({ type: 'settings', settings: settingsOf(settings) });
    const recorder = recorderFor(sink, header, settingsOf(settings), null, (error) => this.writeFailed(threadId, error));
    const session = this.options.createSession({ threadId, context: settings, initialContext: context.initialContext, historySink: recorder });
    const loaded: LoadedThread = { session, recorder, ephemeral, files: context.files };
    this.loaded.set(threadId, loaded);
    return { session, thread: this.view(loaded) };
  }

  async list(params: ThreadListParams): Promise<ThreadListResult> {
    const mine = [...this.loaded.values()].map((t) => ({ key: sortKey(t.recorder.header.createdAt, t.recorder.header.threadId), thread: this.view(t) }));
    return listThreads(this.home, mine, params);
  }

  async read(params: ThreadReadParams): Promise<ThreadReadResult> {
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
    if (loaded) return this.loadedResult(loaded, params.excludeTurns ?? false);
    let opening = this.opening.get(threadId);
    if (!opening) {
      opening = this.open(threadId, params).finally(() => this.opening.delete(threadId));
      this.opening.set(threadId, opening);
    }
    return opening;
  }

  private async loadedResult(loaded: LoadedThread, excludeTurns: boolean): Promise<ThreadResumeResult> {
    return this.result(loaded, excludeTurns ? [] : (await this.replay(loaded)).snapshot.turns, [], []);
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
      const read = await readOrRefuse({ kind: 'file', path });
      const size = await prepareForAppend(path, read.tail);
      const sink = new FileRolloutWriter({ path, threadId, existing: { lock, size }, onError: (error) => this.writeFailed(threadId, error) });
      const { loaded, warnings } = await this.attach(read.snapshot, sink, params, { copy: false, ephemeral: false });
      return this.result(loaded, params.excludeTurns ? [] : read.snapshot.turns, read.warnings, warnings);
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
    const { loaded: forked, warnings } = await this.attach(read.snapshot, null, params, { copy: true, ephemeral });
    return this.result(forked, params.excludeTurns ? [] : read.snapshot.turns, read.warnings, warnings);
  }

  async revert(params: ThreadRevertParams): Promise<ThreadRevertResult> {
    const threadId = params.threadId.toLowerCase();
    const loaded = this.loaded.get(threadId);
    if (!loaded) {
      await this.pathOf(threadId);
      throw threadRequestError(`session ${threadId} is not loaded: resume it first`);
    }
    const running = (): Error => threadRequestError(`session ${threadId} has a turn running: interrupt it first`);
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
    this.loaded.clear();
    await Promise.all(all.map((t) => t.session.shutdown()));
    await Promise.all(all.map((t) => t.recorder.close()));
  }

  // ---- loading ----------------------------------------------------------------------------------

  /**
   * A Session for a snapshot. `copy` (a fork): a new thread whose rollout starts with the
   * snapshot's turns and history; else (a resume) `sink` is the snapshot's own file, appended to.
   */
  private async attach(
    snapshot: ThreadSnapshot,
    existing: RolloutSink | null,
    overrides: SettingsOverrides,
    options: { copy: boolean; ephemeral: boolean },
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
    const threadId = options.copy ? newId() : source.threadId;
    const header = options.copy ? newHeader({ threadId, sessionId: source.sessionId, forkedFromId: source.threadId, settings, provider: this.options.providerLabel(), source: this.options.source }) : source;
    const sink = existing ?? this.sink(threadId, header.createdAt, options.ephemeral);
    const recorder = recorderFor(sink, header, settingsOf(recorded), snapshot, (error) => this.writeFailed(threadId, error));
    if (options.copy) {
      sink.append(header);
      sink.append({ type: 'context', items: context.items, files: context.files });
      copyTurns(sink, snapshot, settingsOf(recorded));
    } else {
      if (snapshot.context === null) sink.append({ type: 'context', items: context.items, files: context.files });
      for (const turnId of snapshot.unfinishedTurnIds) recorder.closeUnfinished(turnId);
    }
    if (JSON.stringify(settingsOf(settings)) !== JSON.stringify(settingsOf(recorded))) recorder.settingsChanged(settings);
    const history = snapshot.history;
    const before = history.length;
    closeDanglingCalls(history, DANGLING_CALL_OUTPUT);
    for (const entry of history.slice(before)) recorder.appended(entry, snapshot.turns.at(-1)?.id ?? null);
    const session = this.options.createSession({
      threadId,
      context: settings,
      initialContext: context.items,
      historySink: recorder,
      initialHistory: history,
      ...(snapshot.usage ? { initialUsage: snapshot.usage.total } : {}),
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
    this.options.emit({ method: 'warning', params: { threadId, turnId: '', message: `this session could not be saved (${reason}); it will not be resumable` } });
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
