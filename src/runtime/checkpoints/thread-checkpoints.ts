/**
 * One thread's checkpoints: the workspace recorded before each turn that may write and again at its
 * end, what commands (not apply_patch) changed in between, and the way back to before a turn. The
 * records go out in `tiller/turn/checkpoint` and the rollout keeps them, so a resumed thread can
 * still rewind. A rewind keeps the workspace as it was, so redo can put it back (newest rewind first)
 * until the next turn starts.
 */
import { isAbsolute, join, relative, resolve } from 'node:path';
import type { TillerCheckpointsDiffResult, TillerCheckpointsRestoreResult, TillerTurnCheckpoint } from '../../protocol/checkpoints.js';
import type { FileUpdateChange } from '../../protocol/thread.js';
import { type CheckpointCaps, CheckpointStore, DEFAULT_CAPS, describeStoreFailure, type PathChange } from './store.js';

/** A "changed by commands" list names at most this many files, each diff cut at this many characters. */
const MAX_COMMAND_CHANGES = 200;
const MAX_DIFF_CHARS = 64 * 1024;

export class ThreadCheckpoints {
  private readonly stores = new Map<string, CheckpointStore>();
  private readonly turns = new Map<string, TillerTurnCheckpoint>();
  /** Each running turn's workspace as its cwd named it (apply_patch reports paths under that, not the real path). */
  private readonly named = new Map<string, string>();
  /** Records still running: the one after a turn outlives it, and a rewind must see what it left. */
  private readonly recording = new Set<Promise<unknown>>();

  /**
   * `onChange`: a checkpoint changed outside a turn (a rewind or a redo), to go out in
   * `tiller/turn/checkpoint` so the rollout keeps it; `now`: the clock rewinds are ordered by.
   */
  constructor(
    private readonly home: string,
    recorded: readonly TillerTurnCheckpoint[] = [],
    private readonly caps: CheckpointCaps = DEFAULT_CAPS,
    private readonly onChange: (checkpoint: TillerTurnCheckpoint) => void = () => undefined,
    private readonly now: () => number = Date.now,
  ) {
    for (const checkpoint of recorded) this.turns.set(checkpoint.turnId, checkpoint);
  }

  private store(workspace: string): CheckpointStore {
    let store = this.stores.get(workspace);
    if (!store) {
      store = new CheckpointStore(this.home, workspace, this.caps);
      this.stores.set(workspace, store);
    }
    return store;
  }

  list(): TillerTurnCheckpoint[] {
    return [...this.turns.values()];
  }

  get(turnId: string): TillerTurnCheckpoint | undefined {
    return this.turns.get(turnId);
  }

  /** Records the workspace before the turn; a refusal or failure becomes the checkpoint's note. */
  begin(turnId: string, workspace: string): Promise<TillerTurnCheckpoint> {
    return this.tracked(this.recordBefore(turnId, workspace));
  }

  /** Records the workspace the turn left; `patched`: absolute paths apply_patch wrote. */
  end(turnId: string, patched: ReadonlySet<string>): Promise<{ checkpoint: TillerTurnCheckpoint; commandChanges: FileUpdateChange[] }> {
    return this.tracked(this.recordAfter(turnId, patched));
  }

  /** Settles once every record started so far has. */
  async idle(): Promise<void> {
    while (this.recording.size > 0) await Promise.all([...this.recording]);
  }

  private tracked<T>(work: Promise<T>): Promise<T> {
    const settled = work.then(
      () => undefined,
      () => undefined,
    );
    this.recording.add(settled);
    void settled.then(() => this.recording.delete(settled));
    return work;
  }

  private async recordBefore(turnId: string, workspace: string): Promise<TillerTurnCheckpoint> {
    this.forgetRewinds();
    const store = this.store(workspace);
    const result = await store.record(`before ${turnId}`);
    const checkpoint: TillerTurnCheckpoint = {
      turnId,
      workspace: store.workspace,
      before: result.ok ? result.id : null,
      after: null,
      note: result.ok ? null : `no checkpoint for this turn: ${result.message}`,
    };
    this.turns.set(turnId, checkpoint);
    this.named.set(turnId, workspace);
    return checkpoint;
  }

  private async recordAfter(
    turnId: string,
    patched: ReadonlySet<string>,
  ): Promise<{ checkpoint: TillerTurnCheckpoint; commandChanges: FileUpdateChange[] }> {
    const started = this.turns.get(turnId);
    if (!started || started.before === null) return { checkpoint: started ?? this.missing(turnId), commandChanges: [] };
    const store = this.store(started.workspace);
    const result = await store.record(`after ${turnId}`);
    if (!result.ok) {
      const checkpoint = { ...started, note: `the workspace after this turn was not recorded: ${result.message}` };
      this.turns.set(turnId, checkpoint);
      return { checkpoint, commandChanges: [] };
    }
    const all = await store.changes(started.before, result.id);
    const checkpoint = { ...started, after: result.id, changedFiles: all.length };
    this.turns.set(turnId, checkpoint);
    const named = this.named.get(turnId) ?? store.workspace;
    const byPatch = new Set([...patched].map((path) => relative(named, path)));
    const changes = all.filter((c) => !byPatch.has(c.path));
    const commandChanges: FileUpdateChange[] = [];
    for (const change of changes.slice(0, MAX_COMMAND_CHANGES)) {
      commandChanges.push(await this.describe(store, started.before, result.id, change));
    }
    return { checkpoint, commandChanges };
  }

  private missing(turnId: string): TillerTurnCheckpoint {
    return { turnId, workspace: '', before: null, after: null, note: 'no checkpoint for this turn' };
  }

  /** Codex's FileUpdateChange: an added or deleted file's text, an update's unified diff; binary files named as such. */
  private async describe(store: CheckpointStore, before: string, after: string, change: PathChange): Promise<FileUpdateChange> {
    const path = join(store.workspace, change.path);
    if (change.kind === 'update') {
      const patch = await store.patch(before, after, [change.path]);
      return { path, kind: { type: 'update', move_path: null }, diff: cut(patch) };
    }
    const bytes = await store.fileAt(change.kind === 'add' ? after : before, change.path);
    const diff = bytes.includes(0) ? `(binary file, ${bytes.length} bytes)` : cut(bytes.toString('utf8'));
    return { path, kind: { type: change.kind }, diff };
  }

  /**
   * Puts the workspace back to how it was before `turnId`. Unless `force`, a file that changed
   * since Tiller last left the workspace (the user edited it) and that the rewind would overwrite
   * stops it, named, with nothing written. The workspace as it was is kept, so redo() can put it back.
   * `paths` (relative to the workspace; the /diff explorer's `r`): only those files go back, only they
   * are asked about, and it is no rewind (nothing for redo).
   */
  async restore(turnId: string, force = false, paths?: readonly string[]): Promise<TillerCheckpointsRestoreResult> {
    await this.idle();
    const target = this.turns.get(turnId);
    if (!target || target.before === null) {
      return { status: 'unavailable', message: target?.note ?? 'that turn has no checkpoint' };
    }
    const result = await this.putBack(target, target.before, force, paths);
    if (result.ok && paths === undefined) {
      this.update({ ...target, rewind: { redo: result.was, at: Math.max(this.now(), this.newestRewindAt() + 1) } });
    }
    return result.answer;
  }

  /** The turn's patch, before to after (the /diff explorer's session view, its `y` and `s`). */
  async patch(turnId: string): Promise<TillerCheckpointsDiffResult> {
    await this.idle();
    const turn = this.turns.get(turnId);
    if (!turn || turn.before === null || turn.after === null) return { workspace: turn?.workspace ?? '', patch: null };
    return { workspace: turn.workspace, patch: await this.store(turn.workspace).patch(turn.before, turn.after) };
  }

  /**
   * Takes back the newest rewind not redone yet: the workspace as it was just before it. Unless
   * `force`, a file changed since that rewind (by the user or a later turn) that the redo would
   * overwrite stops it, named, with nothing written.
   */
  async redo(force = false): Promise<TillerCheckpointsRestoreResult> {
    await this.idle();
    const target = this.rewound().at(-1);
    if (!target?.rewind) return { status: 'unavailable', message: 'nothing to redo' };
    const result = await this.putBack(target, target.rewind.redo, force);
    if (result.ok) this.update({ ...target, rewind: null });
    return result.answer;
  }

  /** A new turn forgets the rewinds: what it writes is built on the workspace as it is. */
  private forgetRewinds(): void {
    for (const checkpoint of this.rewound()) this.update({ ...checkpoint, rewind: null });
  }

  /** The turns put back and not redone, oldest rewind first. */
  private rewound(): TillerTurnCheckpoint[] {
    return [...this.turns.values()].filter((c) => c.rewind).sort((a, b) => a.rewind!.at - b.rewind!.at);
  }

  private newestRewindAt(): number {
    return this.rewound().at(-1)?.rewind?.at ?? 0;
  }

  private update(checkpoint: TillerTurnCheckpoint): void {
    this.turns.set(checkpoint.turnId, checkpoint);
    this.onChange(checkpoint);
  }

  /** The workspace to checkpoint `to`; `was`: the checkpoint of it just before. */
  private async putBack(
    target: TillerTurnCheckpoint,
    to: string,
    force: boolean,
    paths?: readonly string[],
  ): Promise<{ ok: true; was: string; answer: TillerCheckpointsRestoreResult } | { ok: false; answer: TillerCheckpointsRestoreResult }> {
    const store = this.store(target.workspace);
    const now = await store.record('before a rewind');
    if (!now.ok) return { ok: false, answer: { status: 'unavailable', message: now.message } };
    try {
      if (!force) {
        const only = paths === undefined ? null : new Set(paths.map((path) => join(store.workspace, path)));
        const edited = (await this.userEdited(store, target.workspace, to, now.id)).filter((path) => only === null || only.has(path));
        if (edited.length > 0) return { ok: false, answer: { status: 'userEdited', paths: edited } };
      }
      const changes = await store.restore(to, now.id, paths);
      const answer: TillerCheckpointsRestoreResult = {
        status: 'restored',
        changes: changes.map((c) => ({ path: join(store.workspace, c.path), kind: c.kind })),
      };
      return { ok: true, was: now.id, answer };
    } catch (error) {
      // A failed checkout (a full disk, a file in the way) is said as the store's failure, not a protocol error.
      return { ok: false, answer: { status: 'unavailable', message: describeStoreFailure(error) } };
    }
  }

  /**
   * The files going to `to` would overwrite that changed since Tiller last left the workspace: the
   * newest rewind's result (the state before its turn), else the last turn's end.
   */
  private async userEdited(store: CheckpointStore, workspace: string, to: string, now: string): Promise<string[]> {
    const mine = [...this.turns.values()].filter((c) => c.workspace === workspace);
    const rewound = mine
      .filter((c) => c.rewind)
      .sort((a, b) => a.rewind!.at - b.rewind!.at)
      .at(-1);
    const left = rewound?.before ?? mine.reverse().find((c) => c.after !== null)?.after ?? null;
    if (left === null) return [];
    const touched = new Set((await store.changes(to, now)).map((c) => c.path));
    return (await store.changes(left, now)).filter((c) => touched.has(c.path)).map((c) => join(store.workspace, c.path));
  }
}

function cut(text: string): string {
  return text.length <= MAX_DIFF_CHARS
    ? text
    : `${text.slice(0, MAX_DIFF_CHARS)}\n[… ${text.length - MAX_DIFF_CHARS} characters not shown …]\n`;
}

/** A fileChange path as apply_patch reports it, made absolute against the turn's cwd. */
export function absolutePatchPath(path: string, cwd: string): string {
  return isAbsolute(path) ? path : resolve(cwd, path);
}
