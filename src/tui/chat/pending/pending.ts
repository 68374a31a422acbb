/**
 * The three lists above the composer (docs/codex-parity.md#when-input-waits-in-the-client,
 * #pending-steer-rows): pending steers, steers the server refused (sent at the end of the turn), and
 * queued follow-ups. Pure updaters over the store state.
 */
import type { QueuedInputAction, Submission } from '../../composer/types.js';
import { pendingInputFor, pendingPreviewText, type ChatState, type PendingInput } from '../../store.js';

export type PendingList = 'pendingSteers' | 'rejectedSteers' | 'queued';
type Lists = Pick<ChatState, PendingList>;

export interface AddOptions extends Pick<PendingInput, 'clientId' | 'steerState' | 'submittedAtMs'> {
  action?: QueuedInputAction;
  compareKey?: string;
  /** Before everything else in the list (a message typed before the session was ready). */
  front?: boolean;
}

export function addPending(
  state: ChatState,
  list: PendingList,
  sub: Submission,
  opts: AddOptions = {},
): { update: Partial<ChatState>; id: number } {
  const { front: _front, ...extra } = opts;
  const { input, nextPendingId } = pendingInputFor(state, sub, extra);
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

export interface Located {
  list: PendingList;
  index: number;
  item: PendingInput;
}

const DELIVERY_ORDER: readonly PendingList[] = ['pendingSteers', 'rejectedSteers', 'queued'];

/** Every waiting message in the order it will be delivered (the order shown). */
export function waitingInOrder(state: Lists): Located[] {
  return DELIVERY_ORDER.flatMap((list) => state[list].map((item, index) => ({ list, index, item })));
}

export function findPending(state: Lists, id: number): Located | null {
  return waitingInOrder(state).find((l) => l.item.id === id) ?? null;
}

/** The id `by` places from `id` in delivery order, held at the ends; the first one when `id` is gone. */
export function neighbourId(state: Lists, id: number, by: number): number | null {
  const all = waitingInOrder(state);
  if (all.length === 0) return null;
  const at = all.findIndex((l) => l.item.id === id);
  if (at < 0) return all[0]!.item.id;
  return all[Math.max(0, Math.min(all.length - 1, at + by))]!.item.id;
}

export function removePending(state: Lists, id: number): Partial<ChatState> {
  const found = findPending(state, id);
  return found === null ? {} : { [found.list]: state[found.list].filter((p) => p.id !== id) };
}

export function updatePending(state: Lists, id: number, patch: Partial<PendingInput>): Partial<ChatState> {
  const found = findPending(state, id);
  if (found === null) return {};
  const items = [...state[found.list]];
  items[found.index] = { ...found.item, ...patch };
  return { [found.list]: items };
}

/** A waiting message with new content (its preview follows). */
export function withSubmission(submission: Submission): Partial<PendingInput> {
  return { submission, text: pendingPreviewText(submission), attachmentCount: submission.attachments.length };
}

/** Swaps the message with its neighbour in the same list (a list's order is its delivery order). */
export function reorderPending(state: Lists, id: number, by: 1 | -1): Partial<ChatState> {
  const found = findPending(state, id);
  if (found === null) return {};
  const other = found.index + by;
  const items = [...state[found.list]];
  if (other < 0 || other >= items.length) return {};
  [items[found.index], items[other]] = [items[other]!, items[found.index]!];
  return { [found.list]: items };
}

/** Out of its list to the front of the queued follow-ups (first to go once the turn ends), as a plain message. */
export function moveToQueueFront(state: Lists, ids: readonly number[]): Partial<ChatState> {
  const moving = waitingInOrder(state).filter((l) => ids.includes(l.item.id) && l.list !== 'queued');
  if (moving.length === 0) return {};
  const update: Partial<ChatState> = {};
  for (const list of ['pendingSteers', 'rejectedSteers'] as const) update[list] = state[list].filter((p) => !ids.includes(p.id));
  const plain = moving.map(({ item }) => {
    const { compareKey: _key, clientId: _id, steerState: _state, reason: _reason, ...rest } = item;
    return { ...rest, action: item.action ?? ('plain' as const) };
  });
  update.queued = [...plain, ...state.queued];
  return update;
}
