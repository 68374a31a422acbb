/**
 * What /undo and /redo act on, pure: the turn /undo steps back over, why a turn's files cannot be
 * put back, the redo stack of the conversations undone, and the sentences that say what happened.
 */
import type { TillerRestoreChangeKind, TillerTurnCheckpoint } from '../../../protocol/api.js';
import { shownPath } from './rewind-lines.js';

/**
 * The turn /undo rewinds: the last one of the conversation before every turn whose files are put
 * back already (so /undo after /undo steps back one more), or null when there is none.
 */
export function undoTarget(turnIds: readonly string[], checkpoints: readonly TillerTurnCheckpoint[]): string | null {
  const rewound = new Set(checkpoints.filter((c) => c.rewind).map((c) => c.turnId));
  const first = turnIds.findIndex((id) => rewound.has(id));
  const candidates = first < 0 ? turnIds : turnIds.slice(0, first);
  return candidates.at(-1) ?? null;
}

/** Why the files of a turn cannot be put back, or null when they can. */
export function filesUnavailable(checkpoint: TillerTurnCheckpoint | undefined): string | null {
  if (checkpoint === undefined) return 'no checkpoint of this turn: checkpoints are off, or it ran read-only';
  return checkpoint.before === null ? (checkpoint.note ?? 'no checkpoint for this turn') : null;
}

/**
 * Whether the agent may have changed files from turn `from` on (`turnIds`: the conversation's, in
 * order): a turn that ended with changes or whose end is not known, or a rewind not redone. False
 * lets Esc-Esc backtrack go straight to the conversation, as Codex's does, when there is nothing else.
 */
export function filesChangedSince(from: string, turnIds: readonly string[], checkpoints: readonly TillerTurnCheckpoint[]): boolean {
  if (hasRewind(checkpoints)) return true;
  const byTurn = new Map(checkpoints.map((c) => [c.turnId, c]));
  const since = turnIds.slice(Math.max(0, turnIds.indexOf(from)));
  return since.some((id) => {
    const checkpoint = byTurn.get(id);
    return checkpoint !== undefined && checkpoint.before !== null && checkpoint.changedFiles !== 0;
  });
}

/** Whether a thread has a rewind of its files that redo can take back. */
export function hasRewind(checkpoints: readonly TillerTurnCheckpoint[]): boolean {
  return checkpoints.some((c) => c.rewind);
}

/**
 * An undo /redo can take back. `returnTo`: the session the conversation was in before the undo
 * (null: only files were put back); its files are redone in that session, which keeps the rewind.
 */
export interface RedoEntry {
  returnTo: string | null;
  subject: string;
}

/** Newest undo last; a new turn clears it, as an editor forgets its redo once you type. */
export class RedoStack {
  private entries: RedoEntry[] = [];

  push(entry: RedoEntry): void {
    this.entries.push(entry);
  }

  peek(): RedoEntry | null {
    return this.entries.at(-1) ?? null;
  }

  pop(): RedoEntry | null {
    return this.entries.pop() ?? null;
  }

  /** The newest entry's files were redone; its conversation may still be. */
  filesRedone(): void {
    const top = this.entries.at(-1);
    if (top !== undefined && top.returnTo === null) this.entries.pop();
  }

  clear(): void {
    this.entries = [];
  }

  get size(): number {
    return this.entries.length;
  }
}

const KIND_WORDS: Record<TillerRestoreChangeKind, string> = { update: 'changed back', delete: 'removed', add: 'brought back' };

/** `Files put back to before “edit”: a.txt changed back, new.txt removed.` */
export function filesRestoredText(
  direction: 'undo' | 'redo',
  subject: string,
  changes: ReadonlyArray<{ path: string; kind: TillerRestoreChangeKind }>,
  cwd: string,
): string {
  const where = direction === 'undo' ? `Files put back to before “${subject}”` : 'Files put back as they were before the undo';
  if (changes.length === 0) return `${where}: nothing had changed.`;
  const list = changes.map((c) => `${shownPath(c.path, cwd)} ${KIND_WORDS[c.kind]}`).join(', ');
  return `${where}: ${list}.`;
}

export const NOTHING_TO_UNDO = 'Nothing to undo: no turn of this conversation is left to step back over.';
export const NOTHING_TO_REDO = 'Nothing to redo.';
export const REWIND_CANCELLED = 'Rewind cancelled: nothing was changed.';
export const REDO_HINT = '/redo puts it back.';
