/** Tiller's checkpoint methods of the app server: a thread's checkpoints listed, diffed, restored and redone. */
import type { MethodHandlers } from '../app-server-params.js';
import type { ThreadCheckpoints } from './thread-checkpoints.js';

type CheckpointMethod = 'tiller/checkpoints/list' | 'tiller/checkpoints/restore' | 'tiller/checkpoints/diff' | 'tiller/checkpoints/redo';

const OFF = 'checkpoints are off (config.toml: checkpoints = false)';

export function checkpointHandlers(checkpointsOf: (threadId: string) => ThreadCheckpoints | null): Pick<MethodHandlers, CheckpointMethod> {
  return {
    'tiller/checkpoints/list': async (params) => ({ checkpoints: checkpointsOf(params.threadId)?.list() ?? [] }),
    'tiller/checkpoints/restore': async (params) => {
      const checkpoints = checkpointsOf(params.threadId);
      if (checkpoints === null) return { status: 'unavailable', message: OFF };
      return checkpoints.restore(params.turnId, params.force ?? false, params.paths);
    },
    'tiller/checkpoints/diff': async (params) => {
      const checkpoints = checkpointsOf(params.threadId);
      return checkpoints === null ? { workspace: '', patch: null } : checkpoints.patch(params.turnId);
    },
    'tiller/checkpoints/redo': async (params) => {
      const checkpoints = checkpointsOf(params.threadId);
      if (checkpoints === null) return { status: 'unavailable', message: OFF };
      return checkpoints.redo(params.force ?? false);
    },
  };
}
