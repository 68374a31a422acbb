/**
 * The input waiting in a running turn (README "Tiller's extensions to the app-server protocol"):
 * steers in arrival order, each with the client's id and a `held` flag. Delivery is FIFO over the
 * inputs with a client id: a held one and every such input behind it wait. Inputs without one (a
 * Codex client's steer, a `!cmd`'s output) are never held back: the client cannot edit them.
 */
import type { PendingInputEditStatus } from '../../protocol/pending-input.js';
import type { TurnInputRequest } from '../../protocol/turn-input.js';
import type { UserInput } from '../../protocol/user-input.js';

interface PendingInput {
  request: TurnInputRequest;
  clientId: string | null;
  held: boolean;
}

export type PendingInputEdit = { action: 'hold' | 'release' | 'retract' } | { action: 'replace'; content: UserInput[] };

function clientIdOf(request: TurnInputRequest): string | null {
  return request.input.type === 'userInput' ? (request.input.clientId ?? null) : null;
}

export class PendingInputs {
  private items: PendingInput[] = [];

  push(request: TurnInputRequest): void {
    this.items.push({ request, clientId: clientIdOf(request), held: false });
  }

  /** Per input, in order: whether a drain may take it now (not held, and not behind a held one). */
  private deliverable(): boolean[] {
    const firstHeld = this.items.findIndex((item) => item.clientId !== null && item.held);
    return this.items.map((item, index) => item.clientId === null || firstHeld === -1 || index < firstHeld);
  }

  /** Whether a drain would take anything now (held input alone does not count: it must not keep a turn going). */
  hasDeliverable(): boolean {
    return this.deliverable().includes(true);
  }

  /** Removes and returns, in order, what may be delivered now; their client ids go into `delivered`. */
  takeDeliverable(delivered: DeliveredClientIds): TurnInputRequest[] {
    const deliverable = this.deliverable();
    const taken = this.items.filter((_, index) => deliverable[index]);
    this.items = this.items.filter((_, index) => !deliverable[index]);
    for (const item of taken) if (item.clientId !== null) delivered.add(item.clientId);
    return taken.map((item) => item.request);
  }

  /** Removes everything; returns the client ids among it, in order. */
  clear(): string[] {
    const ids = this.items.flatMap((item) => (item.clientId === null ? [] : [item.clientId]));
    this.items = [];
    return ids;
  }

  /** Applies an edit to the first input with `clientId`; null when none waits. */
  edit(clientId: string, edit: PendingInputEdit): PendingInputEditStatus | null {
    const index = this.items.findIndex((item) => item.clientId === clientId);
    const item = this.items[index];
    if (item === undefined) return null;
    switch (edit.action) {
      case 'hold':
        item.held = true;
        return 'held';
      case 'release':
        item.held = false;
        return 'released';
      case 'replace':
        item.request = { ...item.request, input: { type: 'userInput', content: edit.content, clientId } };
        item.held = false;
        return 'replaced';
      case 'retract':
        this.items.splice(index, 1);
        return 'retracted';
    }
  }
}

/**
 * An edit as the session loop applies it, so it is ordered with steers and drains: the input still
 * waits (the edit is done), was taken (`alreadyDelivered`), or neither.
 */
export function applyEdit(
  pending: PendingInputs | null,
  delivered: DeliveredClientIds,
  clientId: string,
  edit: PendingInputEdit,
): PendingInputEditStatus {
  const status = pending?.edit(clientId, edit) ?? null;
  if (status !== null) return status;
  return delivered.has(clientId) ? 'alreadyDelivered' : 'notPending';
}

/** How many delivered client ids a session remembers for `alreadyDelivered`. */
export const DELIVERED_IDS_KEPT = 1000;

/** The client ids of the last DELIVERED_IDS_KEPT inputs taken for a sampling request, oldest first. */
export class DeliveredClientIds {
  private readonly ids = new Set<string>();

  constructor(private readonly capacity: number = DELIVERED_IDS_KEPT) {}

  add(id: string): void {
    this.ids.delete(id);
    this.ids.add(id);
    if (this.ids.size > this.capacity) this.ids.delete(this.ids.values().next().value!);
  }

  has(id: string): boolean {
    return this.ids.has(id);
  }
}
