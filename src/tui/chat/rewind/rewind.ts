/**
 * Rewinding, as the chat does it: Esc-Esc backtrack's pick, /undo and /redo open the rewind menu
 * (conversation and files, conversation only, files only) and carry out the choice. The files go
 * back through the runtime's checkpoints (`tiller/checkpoints/restore` / `redo`); a file changed
 * outside Tiller since is named and overwritten only when the user says so. The conversation goes
 * back as Esc-Esc backtrack always did (a fork before the turn, its prompt in the composer), and
 * /redo returns to the session it was in. When the agent changed no file since the turn (or it has
 * no checkpoint), backtrack is what Codex's is: the conversation, no menu.
 */
import { errorMessage } from '../../../error-message.js';
import type { AppServerClient, TillerCheckpointsRestoreResult, TillerTurnCheckpoint } from '../../../protocol/api.js';
import type { InputEvent } from '../../keys/types.js';
import { withCells, type ChatStore, type NewCell } from '../../store.js';
import type { RewindScope, TranscriptCell } from '../../store-types.js';
import { backtrackTargets } from '../sessions/backtrack.js';
import { askOverwrite, openRewindMenu, rewindMenuKey } from './rewind-menu.js';
import {
  filesChangedSince,
  filesRestoredText,
  filesUnavailable,
  hasRewind,
  NOTHING_TO_REDO,
  NOTHING_TO_UNDO,
  REDO_HINT,
  RedoStack,
  REWIND_CANCELLED,
  undoTarget,
} from './rewind-plan.js';

export interface RewindHost {
  client: AppServerClient;
  store: ChatStore;
  cwd: string;
  threadId(): string | null;
  /** Esc-Esc backtrack's conversation rewind: a fork before the prompt cell's turn. */
  backtrackTo(cellId: number): void;
  /** The chat goes back into this session (as /resume would), the screen showing it. */
  returnTo(threadId: string, notice: string): void;
  /** Runs after the requests already sent. */
  serialize(task: () => Promise<void>): void;
}

/** What the open menu acts on. */
type Pending =
  | { direction: 'undo'; threadId: string; turnId: string; cellId: number; subject: string }
  | { direction: 'redo'; threadId: string; filesThread: string; subject: string };

const SUBJECT_CHARS = 60;

/** A prompt as the menu names it: its first line, cut. */
export function subjectOf(text: string): string {
  const line = (text.split('\n').find((l) => l.trim() !== '') ?? '').trim();
  return line.length <= SUBJECT_CHARS ? line : `${line.slice(0, SUBJECT_CHARS - 1)}…`;
}

export function backToSessionText(threadId: string): string {
  return `Back in session ${threadId}, the conversation as it was before the undo.`;
}

export class Rewinds {
  private readonly redoStack = new RedoStack();
  private pending: Pending | null = null;

  constructor(private readonly host: RewindHost) {}

  get open(): boolean {
    return (this.host.store.getState().rewind ?? null) !== null;
  }

  /** A turn started: what it writes builds on the workspace as it is, so nothing is left to redo. */
  turnStarted(): void {
    this.redoStack.clear();
  }

  /** Esc-Esc backtrack's Enter on a prompt: the menu, or straight to the conversation when its turn has no checkpoint. */
  backtrack(cellId: number): void {
    const cell = this.host.store.getState().cells.find((c) => c.id === cellId);
    const threadId = this.host.threadId();
    if (cell?.kind !== 'user' || cell.turnId === null || threadId === null) return;
    const turnId = cell.turnId;
    this.host.serialize(async () => {
      const checkpoints = await this.list(threadId);
      const turnIds = promptCells(this.host.store.getState().cells).map((p) => p.turnId);
      const checkpoint = checkpoints.find((c) => c.turnId === turnId);
      if (filesUnavailable(checkpoint) !== null || !filesChangedSince(turnId, turnIds, checkpoints)) return this.host.backtrackTo(cellId);
      this.openMenu({ direction: 'undo', threadId, turnId, cellId, subject: subjectOf(cell.text) }, { conversation: null, files: null });
    });
  }

  /** /undo: the menu for the turn before the last one put back (the last turn, the first time). */
  undo(): void {
    const threadId = this.host.threadId();
    if (threadId === null) return this.cell({ kind: 'info', text: NOTHING_TO_UNDO });
    this.host.serialize(async () => {
      const cells = this.host.store.getState().cells;
      const prompts = promptCells(cells);
      const checkpoints = await this.list(threadId);
      const turnId = undoTarget(
        prompts.map((p) => p.turnId),
        checkpoints,
      );
      const prompt = prompts.find((p) => p.turnId === turnId);
      if (turnId === null || prompt === undefined) return this.cell({ kind: 'info', text: NOTHING_TO_UNDO });
      const why = { conversation: null, files: filesUnavailable(checkpoints.find((c) => c.turnId === turnId)) };
      this.openMenu({ direction: 'undo', threadId, turnId, cellId: prompt.id, subject: subjectOf(prompt.text) }, why);
    });
  }

  /** /redo: the menu for the newest undo (its conversation, its files); after a restart only the files are known. */
  redo(): void {
    const threadId = this.host.threadId();
    if (threadId === null) return this.cell({ kind: 'info', text: NOTHING_TO_REDO });
    this.host.serialize(async () => {
      const entry = this.redoStack.peek();
      const filesThread = entry?.returnTo ?? threadId;
      const files = hasRewind(await this.list(filesThread)) ? null : 'nothing of the files to redo';
      const conversation = entry?.returnTo ? null : 'no conversation undone to return to';
      if (files !== null && conversation !== null) return this.cell({ kind: 'info', text: NOTHING_TO_REDO });
      this.openMenu({ direction: 'redo', threadId, filesThread, subject: entry?.subject ?? '' }, { conversation, files });
    });
  }

  /** A key while the menu is open (it takes them all; a paste is ignored). */
  input(event: InputEvent): void {
    const state = this.host.store.getState().rewind ?? null;
    if (state === null || event.type !== 'key') return;
    const step = rewindMenuKey(state, event);
    if (step.type === 'stay') return this.host.store.setState({ rewind: step.state });
    if (step.type === 'cancel') {
      this.close();
      return this.cell({ kind: 'info', text: REWIND_CANCELLED });
    }
    this.carryOut(step.scope, step.type === 'overwrite');
  }

  private openMenu(pending: Pending, why: { conversation: string | null; files: string | null }): void {
    const menu = openRewindMenu(pending.direction, pending.subject, why);
    if (menu === null) return this.cell({ kind: 'info', text: pending.direction === 'undo' ? NOTHING_TO_UNDO : NOTHING_TO_REDO });
    this.pending = pending;
    this.host.store.setState({ rewind: menu });
  }

  private close(): void {
    this.pending = null;
    this.host.store.setState({ rewind: null });
  }

  /** The picked scope: the files first (they may need asking), then the conversation. */
  private carryOut(scope: RewindScope, force: boolean): void {
    const pending = this.pending;
    const state = this.host.store.getState().rewind ?? null;
    if (pending === null || state === null) return;
    this.host.store.setState({ rewind: null });
    this.host.serialize(async () => {
      let said: { kind: 'info'; text: string; hint: string } | null = null;
      if (scope !== 'conversation') {
        const result = await this.files(pending, force);
        if (result.status === 'userEdited') {
          this.host.store.setState({ rewind: askOverwrite(state, scope, result.paths) });
          return;
        }
        if (result.status === 'unavailable') {
          this.pending = null;
          return this.cell({ kind: 'error', text: `Could not put the files back: ${result.message}` });
        }
        said = {
          kind: 'info',
          text: filesRestoredText(pending.direction, pending.subject, result.changes, this.host.cwd),
          hint: REDO_HINT,
        };
      }
      this.pending = null;
      if (pending.direction === 'undo') {
        this.redoStack.push({ returnTo: scope === 'files' ? null : pending.threadId, subject: pending.subject });
        if (scope !== 'files') this.host.backtrackTo(pending.cellId);
      } else if (scope === 'files') this.redoStack.filesRedone();
      else {
        const entry = this.redoStack.pop();
        if (entry?.returnTo) this.host.returnTo(entry.returnTo, backToSessionText(entry.returnTo));
      }
      // After the thread switch, if any: it prints the screen anew, and this must be on it.
      if (said !== null) {
        const cell: NewCell = pending.direction === 'undo' ? said : { kind: 'info', text: said.text };
        this.host.serialize(async () => this.cell(cell));
      }
    });
  }

  private async files(pending: Pending, force: boolean): Promise<TillerCheckpointsRestoreResult> {
    try {
      return pending.direction === 'undo'
        ? await this.host.client.request('tiller/checkpoints/restore', { threadId: pending.threadId, turnId: pending.turnId, force })
        : await this.host.client.request('tiller/checkpoints/redo', { threadId: pending.filesThread, force });
    } catch (error) {
      return { status: 'unavailable', message: errorMessage(error) };
    }
  }

  private async list(threadId: string): Promise<TillerTurnCheckpoint[]> {
    try {
      return (await this.host.client.request('tiller/checkpoints/list', { threadId })).checkpoints;
    } catch {
      return [];
    }
  }

  private cell(cell: NewCell): void {
    this.host.store.setState((s) => withCells(s, [cell]));
  }
}

/** The first prompt cell of each turn on screen, oldest first. */
function promptCells(cells: readonly TranscriptCell[]): Array<{ id: number; turnId: string; text: string }> {
  const ids = new Set(backtrackTargets(cells));
  return cells.flatMap((c) =>
    c.kind === 'user' && c.turnId !== null && ids.has(c.id) ? [{ id: c.id, turnId: c.turnId, text: c.text }] : [],
  );
}
