/**
 * One running turn: its id (the submission id that started it), kind, settings snapshot,
 * cancellation, the steered input waiting to be taken after the current sampling request, and what a
 * delivery receipt reports (its sampling requests so far, the last tool call).
 */
import type { TillerTurnCheckpoint } from '../../protocol/checkpoints.js';
import type {
  ApprovalPolicy,
  ReasoningEffort,
  SandboxPolicy,
  ThreadItem,
  TillerDeliveryAfterItem,
  Turn,
  TurnError,
  TurnStatus,
} from '../../protocol/api.js';
import type { TurnInputRequest } from '../../protocol/turn-input.js';
import { PendingInputs } from './pending-inputs.js';

export type TurnKindOrRegular = 'regular' | 'compact' | 'review';

/** Settings a turn runs with; a steer's settings apply to later turns only. */
export interface TurnContext {
  model: string;
  cwd: string;
  approvalPolicy: ApprovalPolicy;
  sandboxPolicy: SandboxPolicy;
  /** Sent as `reasoning.effort`; null sends none (the model's own default). */
  effort: ReasoningEffort | null;
}

export type TurnOutcome = { status: 'completed' } | { status: 'failed'; error: TurnError };

/** Thrown inside a task when its turn was interrupted: the task ends without an error. */
export class TurnAborted extends Error {
  constructor() {
    super('turn aborted');
    this.name = 'TurnAborted';
  }
}

/** Thrown inside a task to fail its turn with `error`. */
export class TurnFailed extends Error {
  constructor(readonly error: TurnError) {
    super(error.message);
    this.name = 'TurnFailed';
  }
}

export class ActiveTurn {
  readonly controller = new AbortController();
  /** Steered input not yet taken; dropped on interrupt (the client resubmits it). */
  readonly pending = new PendingInputs();
  /** Sampling requests begun so far (a retried one counts once). */
  samplingRequests = 0;
  /** The last tool call completed in this turn, as a delivery receipt names it. */
  lastToolCall: TillerDeliveryAfterItem | null = null;
  /** Set once the turn has reported its end: nothing from its task is emitted or recorded after. */
  closed = false;
  lastAgentMessage: string | null = null;
  task: Promise<void> = Promise.resolve();
  /**
   * Ids of turn/start submissions steered into this turn. The client got such an id back as "its"
   * turn, so an interrupt naming it must reach this turn (else the client waits forever).
   */
  readonly aliases = new Set<string>();
  /**
   * Items started and not yet completed, each in the form to report should the task be cut off
   * by an interrupt: a client must never keep an item that never ends.
   */
  readonly openItems = new Map<string, ThreadItem>();
  /** Absolute paths apply_patch wrote in this turn (the checkpoint's "changed by commands" leaves them out). */
  readonly patchedPaths = new Set<string>();
  /**
   * Settles when the turn's tools may run: the checkpoint before the turn is recorded while the first
   * request is out, so recording never delays the answer, yet precedes any write.
   */
  toolsReady: Promise<void> = Promise.resolve();
  /** The checkpoint before the turn, once asked for (checkpoints/turn-task.ts); the one after follows the turn's end. */
  checkpointStarted: Promise<TillerTurnCheckpoint> | null = null;

  constructor(
    readonly id: string,
    readonly kind: TurnKindOrRegular,
    readonly context: TurnContext,
    readonly startedAtMs: number,
    /** The turn's final output JSON schema; a steer asking for a different one is refused. */
    readonly outputSchema: unknown = null,
  ) {}

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Whether `turnId` names this turn (its own id or a turn/start steered into it). */
  answersTo(turnId: string): boolean {
    return turnId === this.id || this.aliases.has(turnId);
  }

  pushPending(request: TurnInputRequest): void {
    this.pending.push(request);
  }

  /** Input a drain would take now; held input does not count, so it never keeps a loop going. */
  hasPending(): boolean {
    return this.pending.hasDeliverable();
  }

  /** The turn as the wire shows it, at `nowMs`. */
  view(status: TurnStatus, error: TurnError | null, nowMs: number): Turn {
    const done = status !== 'inProgress';
    return {
      id: this.id,
      items: [],
      itemsView: 'notLoaded',
      status,
      error,
      startedAt: Math.floor(this.startedAtMs / 1000),
      completedAt: done ? Math.floor(nowMs / 1000) : null,
      durationMs: done ? Math.max(0, nowMs - this.startedAtMs) : null,
    };
  }

  /** A commandExecution or mcpToolCall item completed (a tool's handle: tools/shell, tools/mcp). */
  toolItemCompleted(item: ThreadItem): void {
    if (item.type === 'commandExecution') this.lastToolCall = { id: item.id, type: 'commandExecution', command: item.command };
    else if (item.type === 'mcpToolCall') this.lastToolCall = { id: item.id, type: 'mcpToolCall', server: item.server, tool: item.tool };
  }
}
