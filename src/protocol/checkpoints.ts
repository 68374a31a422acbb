/**
 * Tiller's checkpoints on the wire (`tiller/turn/checkpoint`, `tiller/checkpoints/list`,
 * `tiller/checkpoints/restore`, `tiller/checkpoints/redo`, `tiller/checkpoints/diff`): a Codex client never sees them.
 */
import type { FileUpdateChange } from './thread.js';

/** The workspace as one turn found and left it: ids of the store's checkpoints (null: none recorded). */
export interface TillerTurnCheckpoint {
  turnId: string;
  workspace: string;
  before: string | null;
  after: string | null;
  /** Why there is no checkpoint (too big, a full disk), or null. */
  note: string | null;
  /** How many files the turn changed (known once it ended; absent: not known). */
  changedFiles?: number;
  /** The workspace was put back to before this turn and not redone since; absent or null: it was not. */
  rewind?: TillerRewind | null;
}

/** A rewind of a turn's files that `tiller/checkpoints/redo` can take back. */
export interface TillerRewind {
  /** The checkpoint of the workspace just before the rewind: what a redo puts back. */
  redo: string;
  /** When the rewind ran (ms since the epoch): the newest one is redone first. */
  at: number;
}

/** Sent when the record before a turn is done, and when the one after it is (after turn/completed); `commandChanges`: files changed by commands, not apply_patch. */
export interface TillerTurnCheckpointNotification {
  threadId: string;
  turnId: string;
  checkpoint: TillerTurnCheckpoint;
  commandChanges: FileUpdateChange[];
}

export interface TillerCheckpointsListParams {
  threadId: string;
}

export interface TillerCheckpointsListResult {
  checkpoints: TillerTurnCheckpoint[];
}

export type TillerRestoreChangeKind = 'add' | 'delete' | 'update';

export interface TillerCheckpointsRestoreParams {
  threadId: string;
  /** The workspace goes back to how it was before this turn. */
  turnId: string;
  /** Overwrite files the user changed since the agent's last turn. */
  force?: boolean;
  /** Only these paths (relative to the workspace) go back; absent: the whole workspace. */
  paths?: string[];
}

export interface TillerCheckpointsRedoParams {
  threadId: string;
  /** Overwrite files changed since the rewind being taken back. */
  force?: boolean;
}

/** Restore's and redo's answer. */
export type TillerCheckpointsRestoreResult =
  | { status: 'restored'; changes: Array<{ path: string; kind: TillerRestoreChangeKind }> }
  /** Nothing written: these files changed outside the agent since its last turn; ask, then send `force`. */
  | { status: 'userEdited'; paths: string[] }
  | { status: 'unavailable'; message: string };

export interface TillerCheckpointsDiffParams {
  threadId: string;
  turnId: string;
}

/** The turn's patch (its checkpoint before to after), paths relative to `workspace`, as `git apply` takes it; null when the turn has none. */
export interface TillerCheckpointsDiffResult {
  workspace: string;
  patch: string | null;
}
