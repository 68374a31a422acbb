/**
 * The three lists above the composer (docs/codex-parity.md#when-input-waits-in-the-client,
 * #pending-steer-rows): pending steers, steers the server refused (sent at the end of the turn), and
 * queued follow-ups. Pure updaters over the store state.
 */
import type { QueuedInputAction, Submission } from '../composer/types.js';
import { pendingInputFor, type ChatState, type PendingInput } from '../store.js';

export type PendingList = 'pendingSteers' | 'rejectedSteers' | 'queued';
type Lists = Pick<ChatState, PendingList>;

export interface AddOptions {
  action?: QueuedInputAction;
  compareKey?: string;
  /** Before everything else in the list (a message typed before the session was ready). */
  front?: boolean;
}

export function addPending(state: ChatState, list: PendingList, sub: Submission, opts: AddOptions = {}): { update: Partial<ChatState>; id: number } {
  const { input, nextPendingId } = pendingInputFor(state, sub, {
    ...(opts.action !== undefined ? { action: opts.action } : {}),
    ...(opts.compareKey !== undefined ? { compareKey: opts.compareKey } : {}),
  });
  const items = opts.front === true ? [input, ...state[list]] : [...state[list], input];
  return { update: { [list]: items, nextPendingId }, id: input.id };
}

export function removePendingSteer(state: Lists, id: number): { update: Partial<ChatState>; removed: PendingInput | null } {
  const removed = state.pendingSteers.find((p) => p.id === id) ?? null;
  return { update: removed === null ? {} : { pendingSteers: state.pendingSteers.filter((p) => p.id !== id) }, removed };
}

/** The server refused to steer with it: it waits for the end of the turn. */
export function rejectPendingSteer(state: Lists, id: number): Partial<ChatState> {
  const { update, removed } = removePendingSteer(state, id);
  return removed === null ? {} : { ...update, rejectedSteers: [...state.rejectedSteers, removed] };
}

/** Alt+Up: the latest queued follow-up, else the latest rejected steer. */
export function popLastQueued(state: Lists): { update: Partial<ChatState>; item: PendingInput } | null {
  const q = state.queued.at(-1);
  if (q !== undefined) return { update: { queued: state.queued.slice(0, -1) }, item: q };
  const r = state.rejectedSteers.at(-1);
  if (r !== undefined) return { update: { rejectedSteers: state.rejectedSteers.slice(0, -1) }, item: r };
  return null;
}

/** The next message to send once idle: rejected steers before queued follow-ups. */
export function shiftNextQueued(state: Lists): { update: Partial<ChatState>; item: PendingInput } | null {
  const r = state.rejectedSteers[0];
  if (r !== undefined) return { update: { rejectedSteers: state.rejectedSteers.slice(1) }, item: r };
  const q = state.queued[0];
  if (q !== undefined) return { update: { queued: state.queued.slice(1) }, item: q };
  return null;
}

/** Everything waiting, in the order a plain interrupt restores it: rejected, pending, queued. */
export function takeAllPending(state: Lists): { update: Partial<ChatState>; items: PendingInput[] } {
  return {
    update: { rejectedSteers: [], pendingSteers: [], queued: [] },
    items: [...state.rejectedSteers, ...state.pendingSteers, ...state.queued],
  };
}
