/**
 * The notifications of one turn. Every one of them names the thread and the turn, so the emitter adds
 * both; and once the turn has reported its end it stays silent, so a task cut off by an interrupt
 * can no longer reach the client.
 */
import type { ServerNotification, ServerNotificationMap, ServerNotificationMethod, ThreadItem, TurnError } from '../../protocol/api.js';

/** The notifications whose params carry `threadId` and `turnId`. */
export type TurnNotificationMethod = {
  [M in ServerNotificationMethod]: ServerNotificationMap[M] extends { threadId: string; turnId: string } ? M : never;
}[ServerNotificationMethod];

export type TurnNotificationParams<M extends TurnNotificationMethod> = Omit<ServerNotificationMap[M], 'threadId' | 'turnId'>;

export class TurnEvents {
  constructor(
    private readonly threadId: string,
    private readonly turn: { readonly id: string; readonly closed: boolean; readonly patchedPaths?: Set<string> },
    private readonly sink: (notification: ServerNotification) => void,
    private readonly now: () => number,
  ) {}

  emit<M extends TurnNotificationMethod>(method: M, params: TurnNotificationParams<M>): void {
    if (this.turn.closed) return;
    // TypeScript cannot see that the ids and the rest make the method's params; the signature says so.
    const full = { threadId: this.threadId, turnId: this.turn.id, ...params } as ServerNotificationMap[M];
    this.sink({ method, params: full } as ServerNotification);
  }

  itemStarted(item: ThreadItem): void {
    this.emit('item/started', { item, startedAtMs: this.now() });
  }

  itemCompleted(item: ThreadItem): void {
    // What apply_patch wrote is its own item; the turn's checkpoint leaves it out of "changed by commands".
    if (item.type === 'fileChange' && item.status === 'completed' && this.turn.patchedPaths) {
      for (const change of item.changes) {
        this.turn.patchedPaths.add(change.path);
        if (change.kind.type === 'update' && change.kind.move_path !== null) this.turn.patchedPaths.add(change.kind.move_path);
      }
    }
    this.emit('item/completed', { item, completedAtMs: this.now() });
  }

  warning(message: string): void {
    this.emit('warning', { message });
  }

  /** `willRetry`: the request is sent again; false: the turn failed. Params keep the order they always had (ids last). */
  error(error: TurnError, willRetry: boolean): void {
    if (this.turn.closed) return;
    this.sink({ method: 'error', params: { error, willRetry, threadId: this.threadId, turnId: this.turn.id } });
  }

  /** Built without a spread: this runs once per delta, thousands of times per answer. */
  agentMessageDelta(itemId: string, delta: string): void {
    if (this.turn.closed) return;
    this.sink({ method: 'item/agentMessage/delta', params: { threadId: this.threadId, turnId: this.turn.id, itemId, delta } });
  }
}
