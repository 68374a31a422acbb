/**
 * Binds a session item to the turn whose call opened it: its notifications go out as the turn's,
 * and its completion is the turn's last tool call and no longer one of its open items. Shared by
 * exec_command and write_stdin; the turn is described by what is used of it.
 */
import type { ThreadItem } from '../../../protocol/api.js';
import type { SessionItemSink } from './session-item.js';

export interface SinkEvents {
  itemStarted(item: ThreadItem): void;
  itemCompleted(item: ThreadItem): void;
  emit(method: 'item/commandExecution/outputDelta', params: { itemId: string; delta: string }): void;
}

export interface SinkTurn {
  readonly openItems: Map<string, ThreadItem>;
  toolItemCompleted(item: ThreadItem): void;
}

export function turnSink(events: SinkEvents, turn: SinkTurn): SessionItemSink {
  return {
    started: (item) => events.itemStarted(item),
    delta: (itemId, delta) => events.emit('item/commandExecution/outputDelta', { itemId, delta }),
    completed: (item) => {
      turn.openItems.delete(item.id);
      turn.toolItemCompleted(item);
      events.itemCompleted(item);
    },
  };
}
