/**
 * A regular turn's checkpoints: the workspace recorded before it and after it (a read-only turn
 * writes nothing, so it records none). The first record runs beside the first request and the
 * turn's tools wait for it (ActiveTurn.toolsReady). The second starts once the turn has ended and
 * is reported after turn/completed, so a slow record (the first of a big workspace) never keeps a
 * turn running after its answer. Both go out in `tiller/turn/checkpoint` (the rollout keeps them);
 * a failed record is a warning and the turn goes on without a checkpoint.
 */
import type { TillerTurnCheckpoint } from '../../protocol/checkpoints.js';
import type { ServerNotification } from '../../protocol/api.js';
import type { FileUpdateChange } from '../../protocol/thread.js';
import type { ActiveTurn, TurnOutcome } from '../core/turn-state.js';
import { ThreadCheckpoints } from './thread-checkpoints.js';

/** Where a thread's checkpoints are reported: outside the turn, which may have ended by then. */
export class CheckpointReports {
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly threadId: string,
    private readonly emit: (notification: ServerNotification) => void,
  ) {}

  checkpoint(turnId: string, checkpoint: TillerTurnCheckpoint, commandChanges: FileUpdateChange[]): void {
    this.emit({ method: 'tiller/turn/checkpoint', params: { threadId: this.threadId, turnId, checkpoint, commandChanges } });
  }

  warning(turnId: string, message: string): void {
    this.emit({ method: 'warning', params: { threadId: this.threadId, turnId, message } });
  }

  /** Keeps a record running past its turn; the thread's shutdown waits for it, so no git outlives `tiller exec`. */
  track(record: Promise<void>): void {
    const settled = record.catch(() => undefined);
    this.pending.add(settled);
    void settled.then(() => this.pending.delete(settled));
  }

  /** Settles when every record tracked so far has. */
  async settled(): Promise<void> {
    await Promise.all([...this.pending]);
  }
}

/**
 * A thread's checkpoints, or null when the config turns them off. A rewind or a redo goes out as
 * the turn's checkpoint again: the rollout keeps the latest, so a resumed thread can still redo.
 */
export function threadCheckpoints(
  config: { checkpoints?: boolean; home: string },
  recorded: readonly TillerTurnCheckpoint[] | undefined,
  reports: CheckpointReports,
  now: () => number,
): ThreadCheckpoints | null {
  if (config.checkpoints !== true) return null;
  return new ThreadCheckpoints(
    config.home,
    recorded,
    undefined,
    (checkpoint) => reports.checkpoint(checkpoint.turnId, checkpoint, []),
    now,
  );
}

export function checkpointedTask(
  checkpoints: ThreadCheckpoints | null,
  turn: ActiveTurn,
  reports: CheckpointReports,
  run: () => Promise<TurnOutcome>,
): Promise<TurnOutcome> {
  if (checkpoints === null || turn.context.sandboxPolicy.type === 'readOnly') return run();
  const recording = checkpoints.begin(turn.id, turn.context.cwd).then((started) => {
    if (started.note !== null) reports.warning(turn.id, started.note);
    else reports.checkpoint(turn.id, started, []);
    return started;
  });
  turn.checkpointStarted = recording;
  turn.toolsReady = recording.then(() => undefined);
  reports.track(recording.then(() => undefined));
  return run();
}

/**
 * Once the turn has ended (turn/completed sent): the workspace it left, and what commands (not
 * apply_patch) changed in it. An interrupted turn keeps its checkpoint before; nothing it did
 * after the interrupt is reported.
 */
export function recordAfterTurn(checkpoints: ThreadCheckpoints | null, turn: ActiveTurn, reports: CheckpointReports): void {
  const started = turn.checkpointStarted;
  if (checkpoints === null || started === null || turn.signal.aborted) return;
  reports.track(
    started.then(async (before) => {
      if (before.before === null) return;
      const { checkpoint, commandChanges } = await checkpoints.end(turn.id, turn.patchedPaths);
      if (checkpoint.after === null && checkpoint.note !== null) reports.warning(turn.id, checkpoint.note);
      reports.checkpoint(turn.id, checkpoint, commandChanges);
    }),
  );
}
