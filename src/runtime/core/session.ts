/**
 * A thread's Session (docs/codex-parity.md#submission-queue, #turn-input-modes): a bounded submission queue drained by one
 * loop; turn input routed by TurnInputMode (start, steer, start-if-idle); settings previewed and
 * applied only when input was Started or Steered; interrupts with a 100 ms grace. Edits of pending
 * input and the turn's taking of it are submissions too, so each sees every steer sent before it.
 */
import { errorMessage } from '../../error-message.js';
import type {
  CommandApprovalDecision,
  FileChangeApprovalResult,
  PendingInputEditStatus,
  ServerNotification,
  ServerRequestMap,
  TokenUsageBreakdown,
  ToolRequestUserInputResponse,
  TurnError,
} from '../../protocol/api.js';
import type { NotSubmittedReason, TurnInputMode, TurnInputRequest, TurnInputSubmission } from '../../protocol/turn-input.js';
import { describeNotSubmittedReason, notSubmitted, started, steered, turnInputRequest } from '../../protocol/turn-input.js';
import { fromUserInput, type ResponseItem } from '../../protocol/response-items.js';
import type { UserInput } from '../../protocol/user-input.js';
import type { TillerConfig } from '../config.js';
import type { McpManager } from '../mcp/manager.js';
import { ExecSessionStore } from '../commands/sessions/session-store.js';
import { backoffMs as defaultBackoff } from '../model/retry.js';
import type { ModelClient } from '../model/types.js';
import { runReviewTask } from '../review/review-task.js';
import { runCompactTask } from './compact-task.js';
import type { HistorySink } from './history-sink.js';
import { closeDanglingCalls, type HistoryEntry, TURN_ABORTED_MARKER, userTextItem } from './history.js';
import { newId } from './ids.js';
import { applyEdit, DeliveredClientIds, type PendingInputEdit } from './pending-inputs.js';
import type { TillerTurnCheckpoint } from '../../protocol/checkpoints.js';
import { CheckpointReports, checkpointedTask, recordAfterTurn, threadCheckpoints } from '../checkpoints/turn-task.js';
import type { ThreadCheckpoints } from '../checkpoints/thread-checkpoints.js';
import { recordLeftoverInput, runRegularTask } from './run-turn.js';
import { SubmissionQueue } from './submission-queue.js';
import { addTokenUsage, ZERO_USAGE } from './token-usage.js';
import { TurnEvents } from './turn-events.js';
import type { SessionOptions } from './session-options.js';
import type { ApprovalParams, FileChangeApprovalParams, SentContext, SessionApprovals, TurnServices } from './turn-services.js';
import { ActiveTurn, type TurnContext, type TurnOutcome } from './turn-state.js';

/** How long an interrupted task gets to finish on its own before it is cut off. */
export const INTERRUPT_GRACE_MS = 100;

export type { SessionOptions } from './session-options.js';

/** Preparation slower than this is announced, so the UI can show a spinner. */
export const MEDIA_PREPARATION_NOTICE_MS = 100;

function prepareWithLocalMedia(content: UserInput[]): Promise<ResponseItem[]> {
  return fromUserInput(content, { localImagePreparation: 'process' });
}

/** What an interrupt found: the turn it ended, no turn at all, or another turn than the one named. */
export type InterruptOutcome = { type: 'interrupted'; turnId: string } | { type: 'noActiveTurn' } | { type: 'mismatch'; actual: string };

type Op =
  | { type: 'turnInput'; id: string; request: TurnInputRequest; mode: TurnInputMode; done: (r: TurnInputSubmission) => void }
  | { type: 'interrupt'; id: string; turnId: string | null; done: (r: InterruptOutcome) => void }
  | { type: 'editPending'; id: string; clientId: string; edit: PendingInputEdit; done: (r: PendingInputEditStatus) => void }
  | { type: 'takePending'; id: string; turn: ActiveTurn; done: (r: TurnInputRequest[]) => void }
  | { type: 'shutdown'; id: string; done: () => void };

function isEmptyInput(request: TurnInputRequest): boolean {
  const input = request.input;
  if (input.type === 'userInput') return input.content.length === 0;
  if (input.type === 'developerInput') return input.content.length === 0;
  return false;
}

export class Session {
  readonly threadId: string;
  config: TillerConfig;
  /** Converts user input to model items, reading local media (also what /inspect shows). */
  readonly prepareUserInput: (content: UserInput[]) => Promise<ResponseItem[]>;
  /** Settles once the history is in (a resumed thread's may still be read from its file). */
  readonly historyLoaded: Promise<void>;
  readonly history: HistoryEntry[];
  private readonly now: () => number;
  private readonly sentContext: SentContext = { model: null };
  /** Commands still running after their exec_command call (Codex's unified exec processes). */
  private readonly execSessions = new ExecSessionStore();

  /** The background commands, for /ps and /stop (tiller/commandSessions/*). */
  get commandSessions(): ExecSessionStore {
    return this.execSessions;
  }
  private readonly approvals: SessionApprovals = {
    commands: [],
    outsideSandbox: [],
    mcpTools: new Set(),
    patchPaths: new Set(),
    sandboxUnavailableTold: false,
  };
  private settings: TurnContext;
  /** The workspace before and after each turn that may write; null: checkpoints are off. */
  readonly checkpoints: ThreadCheckpoints | null;
  /** Checkpoint records outlive their turn: reported on their own, waited for at shutdown. */
  private readonly checkpointReports: CheckpointReports;
  private active: ActiveTurn | null = null;
  private readonly queue: SubmissionQueue<Op>;
  private readonly loopDone: Promise<void>;
  private totalUsage: TokenUsageBreakdown;
  private readonly sink: HistorySink | null;
  /** Client ids of inputs already taken for a sampling request (`alreadyDelivered`). */
  private readonly delivered = new DeliveredClientIds();

  constructor(private readonly options: SessionOptions) {
    this.threadId = options.threadId ?? newId();
    this.config = options.config;
    this.now = options.now ?? Date.now;
    this.prepareUserInput = options.prepareUserInput ?? prepareWithLocalMedia;
    this.settings = { ...options.context };
    this.checkpointReports = new CheckpointReports(this.threadId, (n) => options.emit(n));
    this.checkpoints = threadCheckpoints(options.config, options.initialCheckpoints, this.checkpointReports, this.now);
    const initial = options.initialHistory ?? [];
    this.history = Array.isArray(initial) ? initial : [];
    this.historyLoaded = Array.isArray(initial)
      ? Promise.resolve()
      : initial.then((entries) => {
          for (const entry of entries) this.history.push(entry);
        });
    this.totalUsage = { ...(options.initialUsage ?? ZERO_USAGE) };
    this.sink = options.historySink ?? null;
    this.queue = new SubmissionQueue<Op>(options.queueCapacity);
    this.loopDone = this.loop();
  }

  get currentSettings(): TurnContext {
    return { ...this.settings };
  }

  /**
   * Queues turn input; resolves once it is in the queue (a full queue waits) with the submission id
   * — the turn id if it starts a turn — and the eventual outcome.
   */
  async enqueueTurnInput(
    request: TurnInputRequest,
    mode: TurnInputMode,
    id: string = newId(),
  ): Promise<{ id: string; outcome: Promise<TurnInputSubmission> }> {
    let done!: (r: TurnInputSubmission) => void;
    const outcome = new Promise<TurnInputSubmission>((resolve) => (done = resolve));
    await this.queue.push({ type: 'turnInput', id, request, mode, done });
    return { id, outcome };
  }

  async submitTurnInput(request: TurnInputRequest, mode: TurnInputMode): Promise<TurnInputSubmission> {
    return (await this.enqueueTurnInput(request, mode)).outcome;
  }

  /**
   * Interrupts the active turn — only if `turnId` (when given) names it: its id, or the id of a
   * turn/start steered into it. Resolves once turn/completed (interrupted) was emitted. Queued
   * behind earlier submissions, so it sees a turn they just started.
   */
  interrupt(turnId: string | null = null): Promise<InterruptOutcome> {
    return new Promise<InterruptOutcome>(
      (done) => void this.queue.push({ type: 'interrupt', id: newId(), turnId, done }).catch(() => done({ type: 'noActiveTurn' })),
    );
  }

  /** Edits the pending input with `clientId` (tiller/pendingInput/edit); queued behind earlier submissions. */
  editPendingInput(clientId: string, edit: PendingInputEdit): Promise<PendingInputEditStatus> {
    return new Promise<PendingInputEditStatus>(
      (done) => void this.queue.push({ type: 'editPending', id: newId(), clientId, edit, done }).catch(() => done('notPending')),
    );
  }

  /**
   * Takes the turn's deliverable pending input, in the loop, so an edit queued before it applies
   * first. An interrupt answers at once with nothing (its loop turn may be waiting on this task).
   */
  private takePendingInput(turn: ActiveTurn): Promise<TurnInputRequest[]> {
    if (turn.signal.aborted) return Promise.resolve([]);
    return new Promise<TurnInputRequest[]>((resolve) => {
      const done = (taken: TurnInputRequest[]): void => {
        turn.signal.removeEventListener('abort', onAbort);
        resolve(taken);
      };
      const onAbort = (): void => done([]);
      turn.signal.addEventListener('abort', onAbort, { once: true });
      void this.queue.push({ type: 'takePending', id: newId(), turn, done }).catch(() => done([]));
    });
  }

  /** Ends the running turn, then waits for the checkpoint records still running (no git outlives the thread). */
  async shutdown(): Promise<void> {
    await new Promise<void>((done) => void this.queue.push({ type: 'shutdown', id: newId(), done }).catch(() => done()));
    await this.loopDone;
    await this.checkpointReports.settled();
  }

  private async loop(): Promise<void> {
    await this.historyLoaded;
    for (;;) {
      const op = await this.queue.take();
      if (op === undefined) return;
      switch (op.type) {
        case 'turnInput':
          op.done(this.handleTurnInput(op.id, op.request, op.mode));
          break;
        case 'interrupt': {
          const active = this.active;
          if (!active) op.done({ type: 'noActiveTurn' });
          else if (op.turnId !== null && !active.answersTo(op.turnId)) op.done({ type: 'mismatch', actual: active.id });
          else {
            await this.abortActiveTurn();
            op.done({ type: 'interrupted', turnId: active.id });
          }
          break;
        }
        case 'editPending':
          op.done(applyEdit(this.active?.pending ?? null, this.delivered, op.clientId, op.edit));
          break;
        case 'takePending':
          op.done(op.turn.closed || op.turn.signal.aborted ? [] : op.turn.pending.takeDeliverable(this.delivered));
          break;
        case 'shutdown':
          await this.abortActiveTurn();
          this.execSessions.terminateAll();
          this.queue.close();
          op.done();
          return;
      }
    }
  }

  private handleTurnInput(id: string, request: TurnInputRequest, mode: TurnInputMode): TurnInputSubmission {
    // Preview: the settings this input would run with; applied below only if it is accepted.
    const preview: TurnContext = {
      model: request.threadSettings.model ?? this.settings.model,
      cwd: request.threadSettings.cwd ?? this.settings.cwd,
      approvalPolicy: request.threadSettings.approvalPolicy ?? this.settings.approvalPolicy,
      sandboxPolicy: request.threadSettings.sandboxPolicy ?? this.settings.sandboxPolicy,
      effort: request.threadSettings.effort === undefined ? this.settings.effort : request.threadSettings.effort,
    };
    const kind = request.start.kind ?? 'regular';
    let result: TurnInputSubmission;
    switch (mode.type) {
      case 'steer':
        result = this.steerInput(request, mode.expectedTurnId);
        break;
      case 'startIfIdle':
        result = this.active ? notSubmitted({ type: 'notIdle' }) : this.startTurn(id, kind, request, preview);
        break;
      case 'startOrSteer': {
        if (kind !== 'regular') {
          result = this.active ? notSubmitted({ type: 'notIdle' }) : this.startTurn(id, kind, request, preview);
          break;
        }
        const steer = this.steerInput(request, null);
        // Empty input on an idle thread is the recovery path: start a turn that only drains pending work.
        const idleEmpty = steer.type === 'notSubmitted' && steer.reason.type === 'emptyInput' && !this.active;
        result =
          (steer.type === 'notSubmitted' && steer.reason.type === 'noActiveTurn') || idleEmpty
            ? this.startTurn(id, kind, request, preview)
            : steer;
        break;
      }
    }
    if (result.type === 'steered' && result.turnId !== id) this.active?.aliases.add(id);
    if (result.type !== 'notSubmitted') {
      const changed = JSON.stringify(preview) !== JSON.stringify(this.settings);
      this.settings = preview;
      if (changed) this.sink?.settingsChanged({ ...preview });
    } else if (mode.type === 'startOrSteer') this.reportNotSubmitted(id, result.reason);
    return result;
  }

  /** Order of docs/codex-parity.md#steer-validation-order: empty → no active turn → expected id → turn kind → output schema. */
  private steerInput(request: TurnInputRequest, expectedTurnId: string | null): TurnInputSubmission {
    if (isEmptyInput(request)) return notSubmitted({ type: 'emptyInput' });
    const active = this.active;
    if (!active) return notSubmitted({ type: 'noActiveTurn' });
    if (expectedTurnId !== null && expectedTurnId !== active.id) {
      return notSubmitted({ type: 'expectedTurnMismatch', expected: expectedTurnId, actual: active.id });
    }
    if (active.kind !== 'regular') return notSubmitted({ type: 'activeTurnNotSteerable', turnKind: active.kind });
    const schema = request.start.finalOutputJsonSchema;
    if (schema !== undefined && JSON.stringify(schema) !== JSON.stringify(active.outputSchema)) {
      return notSubmitted({ type: 'activeTurnOutputSchemaMismatch' });
    }
    active.pushPending(request);
    return steered(active.id);
  }

  /** turn/start input that could not be submitted surfaces as an `error` notification (as Codex). */
  private reportNotSubmitted(turnId: string, reason: NotSubmittedReason): void {
    const error: TurnError = {
      message: describeNotSubmittedReason(reason),
      codexErrorInfo: reason.type === 'activeTurnNotSteerable' ? { activeTurnNotSteerable: { turnKind: reason.turnKind } } : 'badRequest',
      additionalDetails: null,
    };
    this.options.emit({ method: 'error', params: { error, willRetry: false, threadId: this.threadId, turnId } });
  }

  private startTurn(id: string, kind: ActiveTurn['kind'], request: TurnInputRequest, context: TurnContext): TurnInputSubmission {
    const turn = new ActiveTurn(id, kind, context, this.now(), request.start.finalOutputJsonSchema ?? null);
    this.active = turn;
    if (request.input.type === 'userInput' && request.input.clientId) this.delivered.add(request.input.clientId);
    this.sink?.turnStarted({ id, kind, startedAtMs: turn.startedAtMs, context: { ...context } });
    this.options.emit({ method: 'turn/started', params: { threadId: this.threadId, turn: turn.view('inProgress', null, this.now()) } });
    const services = this.servicesFor(turn);
    this.runTask(turn, services, this.taskFor(kind, services, turn, request));
    return started(id);
  }

  private taskFor(kind: ActiveTurn['kind'], services: TurnServices, turn: ActiveTurn, request: TurnInputRequest): Promise<TurnOutcome> {
    if (kind === 'compact') return runCompactTask(services, turn);
    const review = request.start.review ?? { type: 'uncommittedChanges' as const };
    if (kind === 'review') return runReviewTask(services, turn, { target: review, checkpoints: this.checkpoints });
    return checkpointedTask(this.checkpoints, turn, this.checkpointReports, () => runRegularTask(services, turn, request));
  }

  private runTask(turn: ActiveTurn, services: TurnServices, run: Promise<TurnOutcome>): void {
    turn.task = run.then(
      (outcome) => this.finishTurn(turn, services, outcome),
      (error: unknown) =>
        this.finishTurn(turn, services, {
          status: 'failed',
          error: { message: errorMessage(error), codexErrorInfo: 'other', additionalDetails: null },
        }),
    );
  }

  /** Runs synchronously, so no steer can slip in between the last pending check and the turn's end. */
  private finishTurn(turn: ActiveTurn, services: TurnServices, outcome: TurnOutcome): void {
    if (turn.closed) return;
    if (turn.signal.aborted) return; // the interrupt path reports this turn
    if (turn.kind === 'regular' && turn.hasPending()) {
      // A steer accepted while the task was wrapping up still belongs to this turn: a completed
      // turn samples it; a failed one records it (as Codex does), so accepted input is never lost.
      const run =
        outcome.status === 'completed' ? runRegularTask(services, turn, null) : recordLeftoverInput(services, turn).then(() => outcome);
      this.runTask(turn, services, run);
      return;
    }
    // Held input (and what waits behind it) never keeps a turn open: it goes back to the client.
    const returned = turn.pending.clear();
    if (returned.length > 0) services.events.emit('tiller/pendingInputsReturned', { clientIds: returned });
    if (outcome.status === 'failed') services.events.error(outcome.error, false);
    // Sessions outlive the turn (write_stdin in a later one continues them); their items in it end here.
    this.execSessions.endTurn(turn.id);
    const view = turn.view(outcome.status, outcome.status === 'failed' ? outcome.error : null, this.now());
    turn.closed = true;
    if (this.active === turn) this.active = null;
    this.options.emit({ method: 'turn/completed', params: { threadId: this.threadId, turn: view } });
    recordAfterTurn(this.checkpoints, turn, this.checkpointReports);
  }

  private async abortActiveTurn(): Promise<void> {
    const turn = this.active;
    if (!turn) return;
    turn.controller.abort();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([turn.task, new Promise<void>((resolve) => (timer = setTimeout(resolve, INTERRUPT_GRACE_MS)))]);
    clearTimeout(timer);
    // Past the grace period the task is cut off: whatever it still does is neither emitted nor recorded.
    turn.pending.clear();
    const before = this.history.length;
    closeDanglingCalls(this.history, 'aborted: the user interrupted the turn');
    if (this.config.interruptMarker) this.history.push({ type: 'item', item: userTextItem(TURN_ABORTED_MARKER) });
    for (const entry of this.history.slice(before)) this.sink?.appended(entry, turn.id);
    // As Codex, an interrupt ends every exec session of the thread.
    this.execSessions.terminateAll();
    const events = this.eventsFor(turn);
    for (const item of turn.openItems.values()) events.itemCompleted(item);
    turn.openItems.clear();
    const view = turn.view('interrupted', null, this.now());
    turn.closed = true;
    if (this.active === turn) this.active = null;
    this.options.emit({ method: 'turn/completed', params: { threadId: this.threadId, turn: view } });
  }

  /**
   * Context from outside a turn (a `!cmd` the user ran): a running turn takes it with its next
   * request, as a steer; an idle thread keeps it for the next turn.
   */
  recordOutOfTurn(item: ResponseItem): void {
    if (this.active && !this.active.closed) this.active.pushPending(turnInputRequest({ type: 'responseItem', item }));
    else {
      const entry: HistoryEntry = { type: 'item', item };
      this.history.push(entry);
      this.sink?.appended(entry, null);
    }
  }

  /**
   * Replaces the history of an idle thread (thread/revert); the caller records the change. False
   * when a turn is running.
   */
  resetHistory(entries: HistoryEntry[]): boolean {
    if (this.active) return false;
    this.history.length = 0;
    for (const entry of entries) this.history.push(entry);
    return true;
  }

  /** /model switched provider: turns that start from now on get this client and config (a running one keeps its own). */
  useProvider(config: TillerConfig, modelClient: ModelClient): void {
    this.config = config;
    this.options.modelClient = modelClient;
  }

  get isIdle(): boolean {
    return this.active === null;
  }

  private eventsFor(turn: ActiveTurn): TurnEvents {
    return new TurnEvents(this.threadId, turn, this.options.emit, this.now);
  }

  /** What the turn's task may use of this thread (turn-services.ts); whatever comes after the turn closed is dropped. */
  private servicesFor(turn: ActiveTurn): TurnServices {
    const options = this.options;
    const events = this.eventsFor(turn);
    return {
      threadId: this.threadId,
      config: this.config,
      now: this.now,
      events,
      modelClient: options.modelClient,
      sentContext: this.sentContext,
      initialContext: options.initialContext ?? [],
      history: this.history,
      backoffMs: options.backoffMs ?? ((attempt) => defaultBackoff(attempt)),
      addUsage: (usage) => {
        const { total, last } = addTokenUsage(this.totalUsage, usage);
        this.totalUsage = total;
        events.emit('thread/tokenUsage/updated', { tokenUsage: { total: { ...total }, last } });
      },
      record: (entry) => {
        if (turn.closed) return;
        this.history.push(entry);
        this.sink?.appended(entry, turn.id);
      },
      replaceHistory: (entries) => {
        if (turn.closed) return;
        this.history.splice(0, this.history.length, ...entries);
        this.sink?.replaced(entries, turn.id);
      },
      takePendingInput: () => this.takePendingInput(turn),
      prepareUserInput: this.prepareUserInput,
      mediaPreparationNoticeMs: options.mediaPreparationNoticeMs ?? MEDIA_PREPARATION_NOTICE_MS,
      requestApproval: (request) => options.requestApproval({ threadId: this.threadId, turnId: turn.id, ...request }, turn.signal),
      requestFileChangeApproval: (request) => {
        const ask = options.requestFileChangeApproval;
        if (ask === undefined) return Promise.reject(new Error('no client to approve a patch'));
        return ask({ threadId: this.threadId, turnId: turn.id, ...request }, turn.signal);
      },
      approvals: this.approvals,
      execSessions: this.execSessions,
      requestUserInput: (request) =>
        options.requestUserInput
          ? options.requestUserInput({ threadId: this.threadId, turnId: turn.id, ...request }, turn.signal)
          : Promise.reject(new Error('nobody can answer')),
      // The signal is aborted at once so the task cannot report the turn as completed before the interrupt runs.
      requestInterrupt: () => {
        turn.controller.abort();
        void this.interrupt(turn.id);
      },
      mcp: options.mcp ?? null,
      mcpAwaitStartup: options.mcpAwaitStartup ?? false,
    };
  }
}
