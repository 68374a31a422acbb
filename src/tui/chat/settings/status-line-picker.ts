/**
 * The /statusline picker: a checklist of the footer's items (components/status-line.ts), the chosen
 * ones first in their order. Pure: each key gives the next picker and the items the footer shows
 * meanwhile, so the footer below changes as the user ticks; Enter keeps the choice, Esc restores.
 */
import { isCtrl } from '../../keys/ctrl.js';
import type { KeyEvent } from '../../keys/types.js';
import { DEFAULT_STATUS_LINE, STATUS_LINE_ITEMS, type StatusLineItemId } from '../../components/status-line.js';

export interface StatusLinePickerState {
  kind: 'statusline';
  rows: Array<{ id: StatusLineItemId; on: boolean }>;
  selected: number;
  /** What the footer showed when the picker opened (null: the default), for Esc. */
  original: StatusLineItemId[] | null;
}

export type StatusLineStep =
  | { type: 'move'; picker: StatusLinePickerState; items: StatusLineItemId[] }
  | { type: 'confirm'; items: StatusLineItemId[] }
  | { type: 'cancel'; items: StatusLineItemId[] | null };

/** Opens on the current choice: its items ticked, first, in order; the rest after, unticked. */
export function openStatusLinePicker(current: readonly StatusLineItemId[] | null): StatusLinePickerState {
  const on = current ?? DEFAULT_STATUS_LINE;
  const rest = STATUS_LINE_ITEMS.map((item) => item.id).filter((id) => !on.includes(id));
  return {
    kind: 'statusline',
    rows: [...on.map((id) => ({ id, on: true })), ...rest.map((id) => ({ id, on: false }))],
    selected: 0,
    original: current === null ? null : [...current],
  };
}

export function chosenItems(p: StatusLinePickerState): StatusLineItemId[] {
  return p.rows.filter((row) => row.on).map((row) => row.id);
}

/** ↑/↓ (Ctrl+P/N) move; Space ticks; ←/→ move the row up / down the order; Enter keeps; Esc, Ctrl+C restore. */
export function statusLinePickerKey(e: KeyEvent, p: StatusLinePickerState): StatusLineStep {
  const plain = !e.ctrl && !e.alt && !e.meta;
  if (isCtrl(e, 'c') || (e.name === 'escape' && plain)) return { type: 'cancel', items: p.original };
  if (e.name === 'enter' && plain && !e.shift) return { type: 'confirm', items: chosenItems(p) };
  const count = p.rows.length;
  const move = (picker: StatusLinePickerState): StatusLineStep => ({ type: 'move', picker, items: chosenItems(picker) });
  if ((e.name === 'up' && plain) || isCtrl(e, 'p')) return move({ ...p, selected: (p.selected - 1 + count) % count });
  if ((e.name === 'down' && plain) || isCtrl(e, 'n')) return move({ ...p, selected: (p.selected + 1) % count });
  if (e.name === 'char' && e.char === ' ' && plain) {
    return move({ ...p, rows: p.rows.map((row, i) => (i === p.selected ? { ...row, on: !row.on } : row)) });
  }
  if ((e.name === 'left' || e.name === 'right') && plain) {
    const to = p.selected + (e.name === 'left' ? -1 : 1);
    if (to < 0 || to >= count) return move(p);
    const rows = [...p.rows];
    [rows[p.selected], rows[to]] = [rows[to]!, rows[p.selected]!];
    return move({ ...p, rows, selected: to });
  }
  return move(p);
}
