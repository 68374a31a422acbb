/**
 * The messages waiting above the composer (docs/codex-parity.md#when-input-waits-in-the-client,
 * #pending-steer-rows), kept in the store through the updaters of pending.ts, and when a pending
 * steer's prompt reaches the transcript: when the server records it (its userMessage item), or when
 * a turn/start the runtime steered into the running turn begins its own turn after all. Each prompt
 * is shown once.
 */
import type { V2UserInput } from '../../../protocol/api.js';
import type { Submission } from '../../composer/types.js';
import { compareKey } from '../../routing.js';
import type { ChatStore, NewCell, PendingInput } from '../../store.js';
import {
  addPending,
  findPending,
  popLastQueued,
  rejectPendingSteer,
  removePendingSteer,
  shiftNextQueued,
  takeAllPending,
  updatePending,
  type AddOptions,
} from './pending.js';
import type { TillerDelivery } from '../../../protocol/pending-input.js';
import { newClientId, receiptText } from './receipts.js';

/** Where a turn/start's input came from: a typed message (shown as a pending row or not) or none (compact). */
export interface TurnOrigin {
  submission: Submission | null;
  pendingId: number | null;
  /** The pending steer's client id (`tillerClientId`), so the runtime can hold, replace or retract it. */
  clientId?: string | null;
  /** The prompt cell shown for it (a new turn's, not a steer's): it learns its turn id from the answer. */
  cellId?: number;
}

/** The transcript cell of a sent prompt (a steer's with its delivery receipt). */
export function userCell(sub: Submission, receipt?: string): NewCell {
  return {
    kind: 'user',
    text: sub.text,
    textElements: sub.textElements,
    attachmentLabels: sub.attachments.map((a) => `${a.placeholder} ${a.fileName}`),
    turnId: null,
    ...(receipt !== undefined ? { receipt } : {}),
  };
}

export class PendingInputs {
  /** turn/start ids the runtime steered into the running turn → the pending row holding the input. */
  private readonly steeredStarts = new Map<string, number>();
  /** Pending rows whose prompt is already in the transcript (a start that turned out to be a steer). */
  private readonly shownSteers = new Set<number>();

  constructor(
    private readonly store: ChatStore,
    private readonly showPrompt: (sub: Submission, receipt?: string) => void,
    private readonly now: () => number,
  ) {}

  /** Queued from now (or from when it was first submitted): a steer it becomes counts its receipt from then. */
  queue(sub: Submission, opts: AddOptions): void {
    this.add('queued', sub, { submittedAtMs: this.now(), ...opts });
  }

  /**
   * A steer sent to the running turn: a pending row (`sending…`) until its userMessage commits it.
   * `enteredAtMs`: when it was first submitted, for one moved from the queue (else now).
   */
  addSteer(sub: Submission, items: V2UserInput[], enteredAtMs: number = this.now()): number {
    return this.add('pendingSteers', sub, {
      compareKey: compareKey(items),
      clientId: newClientId(),
      steerState: 'sending',
      submittedAtMs: enteredAtMs,
    });
  }

  /** A row sent again (reordered, or re-steered into a new turn): a new client id, `sending…`. */
  resend(id: number, items: V2UserInput[]): string {
    const clientId = newClientId();
    this.store.setState((s) => updatePending(s, id, { clientId, compareKey: compareKey(items), steerState: 'sending' }));
    return clientId;
  }

  /** The runtime holds the steer for its next tool call. */
  steerAccepted(id: number): void {
    this.store.setState((s) => updatePending(s, id, { steerState: 'waiting' }));
  }

  /** The server refused to steer with it: it waits for the end of the turn, saying why. */
  rejectSteer(id: number, reason: string): void {
    this.store.setState((s) => {
      const update = rejectPendingSteer(s, id);
      const rejected = update.rejectedSteers;
      if (rejected === undefined) return update;
      return {
        ...update,
        rejectedSteers: rejected.map((p) => (p.id === id ? { ...p, reason, clientId: null, steerState: undefined } : p)),
      };
    });
  }

  clientIdOf(id: number): string | null {
    return findPending(this.store.getState(), id)?.item.clientId ?? null;
  }

  removeSteer(id: number): PendingInput | null {
    const { update, removed } = removePendingSteer(this.store.getState(), id);
    this.store.setState(update);
    return removed;
  }

  /**
   * The runtime steered a turn/start into the running turn: the input waits as a pending steer, so
   * its userMessage item commits it and an interrupt resubmits or restores it (the server drops it).
   */
  startSteered(turnId: string, items: V2UserInput[], origin: TurnOrigin): void {
    let pendingId = origin.pendingId;
    if (pendingId === null && origin.submission !== null) {
      pendingId = this.addSteer(origin.submission, items);
      this.shownSteers.add(pendingId);
    }
    if (pendingId !== null) this.steeredStarts.set(turnId, pendingId);
  }

  /** A start answered while another turn ran began its own turn after all: its row becomes the prompt. */
  turnStarted(turnId: string): void {
    const pendingId = this.steeredStarts.get(turnId);
    this.steeredStarts.delete(turnId);
    if (pendingId === undefined) return;
    const removed = this.removeSteer(pendingId);
    if (removed !== null && !this.shownSteers.delete(pendingId)) this.showPrompt(removed.submission);
  }

  /**
   * A recorded userMessage commits the pending steer it delivered: the one with its id as client id,
   * else the FRONT one when its compare key matches (docs/codex-parity.md#pending-steer-rows). The
   * prompt cell carries the delivery receipt when the runtime gave one.
   */
  commit(content: V2UserInput[], itemId: string, delivery: TillerDelivery | null): void {
    const steers = this.store.getState().pendingSteers;
    const byId = steers.find((p) => p.clientId === itemId);
    const front = steers[0];
    const match = byId ?? (front !== undefined && front.compareKey === compareKey(content) ? front : undefined);
    if (match === undefined) return;
    this.store.setState((s) => ({ pendingSteers: s.pendingSteers.filter((p) => p.id !== match.id) }));
    if (this.shownSteers.delete(match.id)) return;
    const receipt =
      delivery === null ? undefined : receiptText(delivery, match.submittedAtMs === undefined ? null : this.now() - match.submittedAtMs);
    this.showPrompt(match.submission, receipt);
  }

  /** Alt+Up: the latest queued follow-up, else the latest rejected steer, taken off its list. */
  popLastQueued(): Submission | null {
    const popped = popLastQueued(this.store.getState());
    if (popped === null) return null;
    this.store.setState(popped.update);
    return popped.item.submission;
  }

  /** The next message to send once idle (rejected steers first), taken off its list. */
  shiftNextQueued(): PendingInput | null {
    const next = shiftNextQueued(this.store.getState());
    if (next === null) return null;
    this.store.setState(next.update);
    return next.item;
  }

  /** Empties the pending steers (to resubmit them after an interrupt) and returns them. */
  takeSteers(): Submission[] {
    const steers = this.store.getState().pendingSteers;
    this.store.setState({ pendingSteers: [] });
    return steers.map((p) => p.submission);
  }

  /** Empties every list, in the order a plain interrupt restores them. */
  takeAll(): Submission[] {
    const { update, items } = takeAllPending(this.store.getState());
    this.store.setState(update);
    return items.map((p) => p.submission);
  }

  private add(list: 'queued' | 'pendingSteers', sub: Submission, opts: AddOptions): number {
    const { update, id } = addPending(this.store.getState(), list, sub, opts);
    this.store.setState(update);
    return id;
  }
}
