/**
 * One thread's checkpoints: the workspace recorded before each turn that may write and again at its
 * end, what commands (not apply_patch) changed in between, and the way back to before a turn. The
 * records go out in `tiller/turn/checkpoint` and the rollout keeps them, so a resumed thread can
 * still rewind.
 */
import { isAbsolute, join, relative, resolve } from 'node:path';
import type { TillerCheckpointsDiffResult, TillerCheckpointsRestoreResult, TillerTurnCheckpoint } from '../../protocol/checkpoints.js';
import type { FileUpdateChange } from '../../protocol/thread.js';
import { type CheckpointCaps, CheckpointStore, DEFAULT_CAPS, type PathChange } from './store.js';

/** A "changed by commands" list names at most this many files, each diff cut at this many characters. */
const MAX_COMMAND_CHANGES = 200;
const MAX_DIFF_CHARS = 64 * 1024;

export class ThreadCheckpoints {
  private readonly stores = new Map<string, CheckpointStore>();
  private readonly turns = new Map<string, TillerTurnCheckpoint>();
  /** Each running turn's workspace as its cwd named it (apply_patch reports paths under that, not the real path). */
  private readonly named = new Map<string, string>();

  constructor(
    private readonly home: string,
    recorded: readonly TillerTurnCheckpoint[] = [],
    private readonly caps: CheckpointCaps = DEFAULT_CAPS,
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
  async begin(turnId: string, workspace: string): Promise<TillerTurnCheckpoint> {
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

  /** Records the workspace the turn left; `patched`: absolute paths apply_patch wrote. */
  async end(
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
    const checkpoint = { ...started, after: result.id };
    this.turns.set(turnId, checkpoint);
    const named = this.named.get(turnId) ?? store.workspace;
    const byPatch = new Set([...patched].map((path) => relative(named, path)));
    const changes = (await store.changes(started.before, result.id)).filter((c) => !byPatch.has(c.path));
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
   * since the agent's last turn ended (the user edited it) and that the rewind would overwrite stops
   * it, named, with nothing written. `paths` (relative to the workspace): only those go back.
   */
  async restore(turnId: string, force = false, paths?: readonly string[]): Promise<TillerCheckpointsRestoreResult> {
    const target = this.turns.get(turnId);
    if (!target || target.before === null) {
      return { status: 'unavailable', message: target?.note ?? 'that turn has no checkpoint' };
    }
    const store = this.store(target.workspace);
    const now = await store.record('before a rewind');
    if (!now.ok) return { status: 'unavailable', message: now.message };
    if (!force) {
      const only = paths === undefined ? null : new Set(paths.map((path) => join(store.workspace, path)));
      const edited = (await this.userEdited(store, target, now.id)).filter((path) => only === null || only.has(path));
      if (edited.length > 0) return { status: 'userEdited', paths: edited };
    }
    const changes = await store.restore(target.before, now.id, paths);
    return { status: 'restored', changes: changes.map((c) => ({ path: join(store.workspace, c.path), kind: c.kind })) };
  }

  /** The turn's patch, before to after (the explorer's session view, `y` and `s` of /diff). */
  async patch(turnId: string): Promise<TillerCheckpointsDiffResult> {
    const turn = this.turns.get(turnId);
    if (!turn || turn.before === null || turn.after === null) return { workspace: turn?.workspace ?? '', patch: null };
    return { workspace: turn.workspace, patch: await this.store(turn.workspace).patch(turn.before, turn.after) };
  }

  private async userEdited(store: CheckpointStore, target: TillerTurnCheckpoint, now: string): Promise<string[]> {
    const left = [...this.turns.values()].reverse().find((c) => c.workspace === target.workspace && c.after !== null);
    if (!left?.after || target.before === null) return [];
    const touched = new Set((await store.changes(target.before, now)).map((c) => c.path));
    return (await store.changes(left.after, now)).filter((c) => touched.has(c.path)).map((c) => join(store.workspace, c.path));
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
