/**
 * What the chat layer does with a key before and after the composer (docs/codex-parity.md#key-dispatch-order,
 * #clearing-quitting-and-esc, #interrupts-in-the-client). Pure decisions; the controller carries them out.
 */
import type { CommandApprovalDecision } from '../../../protocol/api.js';
import { isCtrl } from '../../keys/ctrl.js';
import type { KeyEvent } from '../../keys/types.js';

/** Alt+, (-1) lowers the reasoning effort and Alt+. (1) raises it, as in Codex; 0 for any other key. */
export function effortKeyStep(e: KeyEvent): 1 | -1 | 0 {
  if (e.name !== 'char' || e.ctrl || !(e.alt || e.meta)) return 0;
  return e.char === '.' ? 1 : e.char === ',' ? -1 : 0;
}

/** Alt+Up or Shift+Left: take the last queued message back into the composer. */
export function isEditQueuedKey(e: KeyEvent): boolean {
  return (e.name === 'up' && (e.alt || e.meta) && !e.ctrl) || (e.name === 'left' && e.shift && !e.ctrl && !e.alt);
}

export type ModalKeyAction = { type: 'answer'; decision: CommandApprovalDecision; quitHint: boolean } | { type: 'ignore' };

/** The approval modal: y approve, a approve for the session, n or Esc decline, Ctrl+C dismiss (decline). */
export function approvalKey(e: KeyEvent): ModalKeyAction {
  if (isCtrl(e, 'c')) return { type: 'answer', decision: 'decline', quitHint: true };
  if (e.name === 'escape') return { type: 'answer', decision: 'decline', quitHint: false };
  if (e.name !== 'char' || e.ctrl || e.alt) return { type: 'ignore' };
  const decision = ({ y: 'accept', a: 'acceptForSession', n: 'decline' } as const)[e.char?.toLowerCase() ?? ''];
  return decision === undefined ? { type: 'ignore' } : { type: 'answer', decision, quitHint: false };
}

export type PickerKeyAction =
  | { type: 'move'; by: 1 | -1 }
  /** `index` null: the highlighted row. */
  | { type: 'pick'; index: number | null }
  | { type: 'close' }
  | { type: 'ignore' };

/**
 * The /approvals picker of `count` rows: ↑/↓ (Ctrl+P/N) move, Enter picks, a row's number picks it,
 * Esc or Ctrl+C closes; it owns the keys.
 */
export function pickerKey(e: KeyEvent, count: number): PickerKeyAction {
  const plain = !e.ctrl && !e.alt && !e.meta;
  if ((e.name === 'up' && plain) || isCtrl(e, 'p')) return { type: 'move', by: -1 };
  if ((e.name === 'down' && plain) || isCtrl(e, 'n')) return { type: 'move', by: 1 };
  if (e.name === 'enter' && plain && !e.shift) return { type: 'pick', index: null };
  const digit = e.name === 'char' && plain ? Number(e.char) : NaN;
  if (Number.isInteger(digit) && digit >= 1 && digit <= count) return { type: 'pick', index: digit - 1 };
  if (e.name === 'escape' || isCtrl(e, 'c')) return { type: 'close' };
  return { type: 'ignore' };
}

export type UnhandledKeyAction =
  | 'interrupt'
  | 'interruptAndResubmitSteers'
  | 'quit'
  | 'clearScreen'
  | 'copyLastAnswer'
  | 'openTranscript'
  | 'cycleApprovalMode'
  | 'lowerEffort'
  | 'raiseEffort'
  | 'none';

/**
 * A key the composer left to the app: Ctrl+C on an empty draft interrupts a running turn, else
 * quits; Ctrl+D on an empty draft quits; Esc with nothing to close interrupts a running turn and,
 * with pending steers, sends them right after; Ctrl+L clears the screen (the conversation stays);
 * Ctrl+O copies the last answer; Ctrl+T opens the transcript pager; Shift+Tab moves to the next
 * approval mode; Alt+, / Alt+. lower / raise the reasoning effort.
 */
export function unhandledKey(e: KeyEvent, turnRunning: boolean, pendingSteers: number): UnhandledKeyAction {
  if (isCtrl(e, 'c')) return turnRunning ? 'interrupt' : 'quit';
  if (isCtrl(e, 'd')) return 'quit';
  if (isCtrl(e, 'l')) return 'clearScreen';
  if (isCtrl(e, 'o')) return 'copyLastAnswer';
  if (isCtrl(e, 't')) return 'openTranscript';
  if (e.name === 'backtab') return 'cycleApprovalMode';
  const effort = effortKeyStep(e);
  if (effort !== 0) return effort > 0 ? 'raiseEffort' : 'lowerEffort';
  if (e.name === 'escape' && turnRunning) return pendingSteers > 0 ? 'interruptAndResubmitSteers' : 'interrupt';
  return 'none';
}
