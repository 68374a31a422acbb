/**
 * `chat/pending/`: the messages that wait above the composer (pending steers, refused steers,
 * queued follow-ups). They are their own capability because a waiting message may still change
 * (be edited, retracted, moved, sent now) until the runtime delivers it, and every such change must
 * keep it in the list, in the transcript or in the composer, never lost and never sent twice. Here:
 * the lists (pending.ts), their store updates and prompt cells (pending-inputs.ts), their keys,
 * rows and receipts, and the merge of several into one draft (merge.ts).
 *
 * Control of the messages waiting above the composer: the list takes the keyboard (Ctrl+Q), and any
 * message can be edited in the composer, retracted, moved between
 * "steer this turn" and "queue for after it", reordered or sent alone at once. A steer the runtime
 * already holds is changed there by its client id (`tiller/pendingInput/edit`), in order behind the
 * requests sent before, so it is never lost and never delivered twice: an edit that comes too late
 * says so and the message stays in the transcript. While it is edited a message is held back (the
 * runtime's hold for a steer; the queue stops at it for a follow-up).
 */
import type { AppServerClient, V2UserInput } from '../../../protocol/api.js';
import { errorMessage } from '../../../error-message.js';
import type {
  PendingInputEditAction as PendingEditAction,
  PendingInputEditStatus as PendingEditStatus,
} from '../../../protocol/pending-input.js';
import { restorableDraft } from '../../composer/selectors.js';
import type { ComposerEvent, Submission } from '../../composer/types.js';
import type { ChatState, ChatStore, NewCell, PendingInput } from '../../store.js';
import {
  findPending,
  moveToQueueFront,
  neighbourId,
  removePending,
  reorderPending,
  updatePending,
  waitingInOrder,
  withSubmission,
  type Located,
} from './pending.js';
import { pendingKey } from './pending-keys.js';
import { collapsePastes } from '../sessions/prompt-draft.js';

export const ALREADY_DELIVERED_MESSAGE = 'That message already reached the model: it stays in the conversation.';
/** Ctrl+Q with an empty list: it said nothing before, so the key seemed broken. */
export const NOTHING_WAITING_MESSAGE = 'Nothing is waiting: Ctrl+Q opens the list of queued and pending messages once there are some.';
export const NOT_RUNNING_TO_STEER_MESSAGE = 'No turn is running to steer: the message stays queued.';

export interface PendingManagerHost {
  store: ChatStore;
  /** Asks the runtime to change a steer it holds (behind every request already sent). */
  editPending(clientId: string, action: PendingEditAction, input?: V2UserInput[]): Promise<PendingEditStatus>;
  /** Runs after the requests already sent (the controller's chain). */
  serialize(task: () => Promise<void>): void;
  dispatchComposer(event: ComposerEvent): void;
  turnRunning(): boolean;
  /**
   * Sends a message as a steer of the running turn (a new row at the end of the pending steers);
   * `enteredAtMs`: when it was first submitted (its receipt counts from then).
   */
  steer(sub: Submission, enteredAtMs?: number): void;
  /** Re-sends steers the runtime no longer holds, in this order, keeping their rows. */
  resteer(items: PendingInput[]): void;
  /** Interrupts the running turn and starts a new one with only this message. */
  sendNow(sub: Submission): void;
  buildInputs(sub: Submission): V2UserInput[];
  compareKey(items: V2UserInput[]): string;
  maybeSendNextQueued(): void;
  cell(cell: NewCell): void;
}

export class PendingManager {
  constructor(private readonly host: PendingManagerHost) {}

  get focused(): boolean {
    return this.state().pendingFocus !== null;
  }

  get editing(): boolean {
    return this.state().pendingEdit !== null;
  }

  /** Whether the message `id` is being edited (the queue stops at it). */
  isLocked(id: number): boolean {
    return this.state().pendingEdit?.id === id;
  }

  /** The list takes the keyboard on its last message; with nothing waiting a line says so. False while a message is edited. */
  focus(): boolean {
    if (this.editing) return false;
    const last = waitingInOrder(this.state()).at(-1);
    if (last === undefined) {
      this.host.cell({ kind: 'info', text: NOTHING_WAITING_MESSAGE });
      return true;
    }
    this.set({ pendingFocus: { selectedId: last.item.id } });
    return true;
  }

  /** A key while the list has the keyboard. */
  key(e: Parameters<typeof pendingKey>[0]): void {
    const focus = this.state().pendingFocus;
    if (focus === null) return;
    const id = focus.selectedId;
    const action = pendingKey(e);
    switch (action.type) {
      case 'select':
        return this.select(neighbourId(this.state(), id, action.by));
      case 'leave':
        return this.set({ pendingFocus: null });
      case 'edit':
        return this.edit(id);
      case 'retract':
        return this.retract(id);
      case 'toQueue':
        return this.toQueue(id);
      case 'toSteer':
        return this.toSteer(id);
      case 'reorder':
        return this.reorder(id, action.by);
      case 'sendNow':
        return this.sendNow(id);
      case 'ignore':
        return;
    }
  }

  /** The composer's Enter or Tab while a message is edited: the edited version goes back in its place. */
  saveEdit(sub: Submission): void {
    const edit = this.state().pendingEdit;
    if (edit === null) return;
    const found = findPending(this.state(), edit.id);
    this.endEdit();
    if (found === null) return;
    this.set((s) => updatePending(s, edit.id, withSubmission(sub)));
    const clientId = found.item.clientId;
    if (found.list === 'pendingSteers' && clientId != null) {
      const items = this.host.buildInputs(sub);
      this.set((s) => updatePending(s, edit.id, { compareKey: this.host.compareKey(items) }));
      this.host.serialize(async () => {
        const status = await this.ask(clientId, 'replace', items);
        // Returned meanwhile (the turn ended): it waits in the queue with the edit applied.
        if (status === 'alreadyDelivered') this.host.cell({ kind: 'info', text: ALREADY_DELIVERED_MESSAGE });
      });
    }
    this.host.maybeSendNextQueued();
  }

  /** Esc while a message is edited: the original goes back in its place, the draft comes back. */
  cancelEdit(): void {
    const edit = this.state().pendingEdit;
    if (edit === null) return;
    const found = findPending(this.state(), edit.id);
    this.endEdit();
    const clientId = found?.item.clientId;
    if (found?.list === 'pendingSteers' && clientId != null) this.host.serialize(async () => void (await this.ask(clientId, 'release')));
    this.host.maybeSendNextQueued();
  }

  /**
   * The turn was interrupted while a message was edited: what the composer holds now becomes that
   * message (the runtime dropped the held steer anyway), and the displaced draft comes back, so the
   * interrupt's restore puts everything into the composer once.
   */
  settleEditForInterrupt(current: Submission | null): void {
    const edit = this.state().pendingEdit;
    if (edit === null) return;
    const found = findPending(this.state(), edit.id);
    this.endEdit();
    if (found !== null && current !== null) this.set((s) => updatePending(s, edit.id, withSubmission(current)));
  }

  /** The runtime ended its turn without these held steers: they wait first in the queue, in order. */
  returned(clientIds: readonly string[]): void {
    const ids = this.state()
      .pendingSteers.filter((p) => p.clientId != null && clientIds.includes(p.clientId))
      .map((p) => p.id);
    if (ids.length > 0) this.set((s) => moveToQueueFront(s, ids));
  }

  /** Keeps the selection on a message that is still there (the front steer was just delivered). */
  reconcileFocus(): void {
    const s = this.state();
    if (s.pendingFocus === null || findPending(s, s.pendingFocus.selectedId) !== null) return;
    this.select(neighbourId(s, s.pendingFocus.selectedId, 0));
  }

  private select(id: number | null): void {
    this.set({ pendingFocus: id === null ? null : { selectedId: id } });
  }

  private edit(id: number): void {
    if (this.editing) return;
    const found = findPending(this.state(), id);
    if (found === null) return;
    const clientId = found.item.clientId;
    if (found.list !== 'pendingSteers' || clientId == null) return this.beginEdit(found);
    this.host.serialize(async () => {
      const status = await this.ask(clientId, 'hold');
      if (status === 'alreadyDelivered') return this.tooLate();
      if (status === 'failed') return;
      const now = findPending(this.state(), id);
      // Dropped by the runtime (the turn ended or was interrupted meanwhile): edit it where it is now.
      if (now !== null && !this.editing) this.beginEdit(now);
      else if (status === 'held') await this.ask(clientId, 'release');
    });
  }

  private beginEdit(found: Located): void {
    const displaced = restorableDraft(this.state().composer);
    this.set({ pendingEdit: { id: found.item.id, displaced }, pendingFocus: null });
    const { draft, pendingPastes } = collapsePastes(found.item.submission);
    this.host.dispatchComposer({ type: 'restoreDraft', draft, pendingPastes });
  }

  private endEdit(): void {
    const edit = this.state().pendingEdit;
    if (edit === null) return;
    this.set({ pendingEdit: null });
    this.host.dispatchComposer({ type: 'restoreDraft', draft: edit.displaced.draft, pendingPastes: edit.displaced.pendingPastes });
  }

  private retract(id: number): void {
    const found = findPending(this.state(), id);
    if (found === null || this.isLocked(id)) return;
    // The selection moves to the next message, else the one before, else the list lets go.
    const after = neighbourId(this.state(), id, 1);
    const next = after !== id ? after : neighbourId(this.state(), id, -1);
    this.afterTakingBack(found, () => {
      this.set((s) => removePending(s, id));
      if (this.state().pendingFocus?.selectedId === id) this.select(next === id ? null : next);
    });
  }

  private toQueue(id: number): void {
    const found = findPending(this.state(), id);
    if (found === null || found.list === 'queued' || this.isLocked(id)) return;
    this.afterTakingBack(found, () => this.set((s) => moveToQueueFront(s, [id])));
  }

  private toSteer(id: number): void {
    const found = findPending(this.state(), id);
    if (found === null || found.list === 'pendingSteers' || this.isLocked(id)) return;
    if (!this.host.turnRunning()) return this.host.cell({ kind: 'info', text: NOT_RUNNING_TO_STEER_MESSAGE });
    this.set((s) => removePending(s, id));
    this.host.steer(found.item.submission, found.item.submittedAtMs);
    const last = this.state().pendingSteers.at(-1);
    if (last !== undefined) this.select(last.id);
  }

  /**
   * Within its list. The runtime delivers steers in the order it got them, so steers it holds from
   * the upper of the two on are retracted and sent again in the new order.
   */
  private reorder(id: number, by: 1 | -1): void {
    const found = findPending(this.state(), id);
    if (found === null || this.editing) return;
    const update = reorderPending(this.state(), id, by);
    if (Object.keys(update).length === 0) return;
    if (found.list !== 'pendingSteers') return this.set(update);
    const from = Math.min(found.index, found.index + by);
    const affected = this.state().pendingSteers.slice(from);
    if (affected.some((p) => p.clientId == null)) return this.set(update);
    this.host.serialize(async () => {
      const taken = new Set<number>();
      let late = false;
      for (const item of affected) {
        const status = await this.ask(item.clientId!, 'retract');
        if (status === 'alreadyDelivered' || status === 'failed') late = true;
        else taken.add(item.id);
      }
      // A steer delivered meanwhile went first: the rest go again in the order shown, unswapped.
      if (!late) this.set((s) => reorderPending(s, id, by));
      const order = this.state().pendingSteers.filter((p) => taken.has(p.id));
      if (order.length > 0) this.host.resteer(order);
      if (late) this.tooLate();
    });
  }

  private sendNow(id: number): void {
    const found = findPending(this.state(), id);
    if (found === null || this.isLocked(id)) return;
    this.afterTakingBack(found, () => {
      this.set((s) => ({ ...removePending(s, id), pendingFocus: null }));
      this.host.sendNow(found.item.submission);
    });
  }

  /**
   * Runs `act` once the message is no longer the runtime's to deliver: at once for one the client
   * keeps, after a retract for a steer the runtime holds, and not at all when the model was first
   * (the user is told) or the runtime could not say.
   */
  private afterTakingBack(found: Located, act: () => void): void {
    const clientId = found.item.clientId;
    if (found.list !== 'pendingSteers' || clientId == null) return act();
    this.host.serialize(async () => {
      const status = await this.ask(clientId, 'retract');
      if (status === 'alreadyDelivered') this.tooLate();
      else if (status !== 'failed') act();
    });
  }

  private tooLate(): void {
    this.host.cell({ kind: 'info', text: ALREADY_DELIVERED_MESSAGE });
    this.reconcileFocus();
  }

  /** The runtime's answer; when it could not say, the user is told and the message stays as shown ('failed'). */
  private async ask(clientId: string, action: PendingEditAction, input?: V2UserInput[]): Promise<PendingEditStatus | 'failed'> {
    try {
      return await this.host.editPending(clientId, action, input);
    } catch (error) {
      this.host.cell({ kind: 'error', text: `Could not change the waiting message: ${errorMessage(error)}` });
      return 'failed';
    }
  }

  private state(): ChatState {
    return this.host.store.getState();
  }

  private set(update: Partial<ChatState> | ((s: ChatState) => Partial<ChatState>)): void {
    this.host.store.setState(update);
  }
}

/** An edit of a waiting message, asked of the app server (tiller/pendingInput/edit); with no thread, nothing is waiting. */
export async function editPendingInput(
  client: AppServerClient,
  threadId: string | null,
  clientId: string,
  action: PendingEditAction,
  input?: V2UserInput[],
): Promise<PendingEditStatus> {
  if (threadId === null) return 'notPending';
  const res = await client.request('tiller/pendingInput/edit', { threadId, clientId, action, ...(input !== undefined ? { input } : {}) });
  return res.status;
}
