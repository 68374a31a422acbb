/**
 * The keys of the waiting-message list above the composer while it has the keyboard (Ctrl+Q): pure
 * decisions; pending-manager.ts carries them out.
 */
import { isCtrl } from '../../keys/ctrl.js';
import type { KeyEvent } from '../../keys/types.js';

export const PENDING_FOCUS_HINT = '↑↓ select · e edit · d retract · s steer · q queue · n send now · alt+↑↓ move · esc back';
export const PENDING_EDIT_HINT = 'editing a waiting message · enter puts it back · esc keeps the original';

export type PendingKeyAction =
  | { type: 'select'; by: 1 | -1 }
  | { type: 'edit' }
  | { type: 'retract' }
  | { type: 'toSteer' }
  | { type: 'toQueue' }
  | { type: 'reorder'; by: 1 | -1 }
  /** Interrupt the running turn and send only this message. */
  | { type: 'sendNow' }
  | { type: 'leave' }
  | { type: 'ignore' };

/** Ctrl+Q: the list takes the keyboard. */
export function isManageKey(e: KeyEvent): boolean {
  return isCtrl(e, 'q');
}

export function pendingKey(e: KeyEvent): PendingKeyAction {
  const alt = e.alt || e.meta;
  if ((e.name === 'up' || e.name === 'down') && alt && !e.ctrl) return { type: 'reorder', by: e.name === 'up' ? -1 : 1 };
  const plain = !e.ctrl && !alt;
  if ((e.name === 'up' && plain) || isCtrl(e, 'p') || (e.name === 'char' && plain && e.char === 'k')) return { type: 'select', by: -1 };
  if ((e.name === 'down' && plain) || isCtrl(e, 'n') || (e.name === 'char' && plain && e.char === 'j')) return { type: 'select', by: 1 };
  if (e.name === 'escape' || isCtrl(e, 'c') || isManageKey(e)) return { type: 'leave' };
  if (e.name === 'enter' && plain && !e.shift) return { type: 'edit' };
  if (e.name === 'delete' || e.name === 'backspace') return { type: 'retract' };
  if (e.name !== 'char' || !plain) return { type: 'ignore' };
  switch (e.char) {
    case 'e':
      return { type: 'edit' };
    case 'd':
      return { type: 'retract' };
    case 's':
      return { type: 'toSteer' };
    case 'q':
      return { type: 'toQueue' };
    case 'n':
      return { type: 'sendNow' };
    default:
      return { type: 'ignore' };
  }
}
