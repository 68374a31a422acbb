/**
 * A regular turn's task between two checkpoints: the workspace recorded before it and after it (a
 * read-only turn writes nothing, so it records none). The first record runs beside the first request
 * and the turn's tools wait for it (ActiveTurn.toolsReady). Both records go out in
 * `tiller/turn/checkpoint` (the rollout keeps them); a failed record is a warning and the turn goes
 * on without a checkpoint.
 */
import type { TurnServices } from '../core/turn-services.js';
import type { ActiveTurn, TurnOutcome } from '../core/turn-state.js';
import type { ThreadCheckpoints } from './thread-checkpoints.js';

export async function checkpointedTask(
  checkpoints: ThreadCheckpoints | null,
  turn: ActiveTurn,
  services: TurnServices,
  run: () => Promise<TurnOutcome>,
): Promise<TurnOutcome> {
  if (checkpoints === null || turn.context.sandboxPolicy.type === 'readOnly') return run();
  const recording = checkpoints.begin(turn.id, turn.context.cwd).then((started) => {
    if (started.note !== null) services.events.warning(started.note);
    else services.events.emit('tiller/turn/checkpoint', { checkpoint: started, commandChanges: [] });
    return started;
  });
  turn.toolsReady = recording.then(() => undefined);
  const outcome = await run();
  const started = await recording;
  // An interrupted turn keeps its checkpoint before; nothing it does after the interrupt is reported.
  if (started.before === null || turn.signal.aborted) return outcome;
  const { checkpoint, commandChanges } = await checkpoints.end(turn.id, turn.patchedPaths);
  services.events.emit('tiller/turn/checkpoint', { checkpoint, commandChanges });
  return outcome;
}
