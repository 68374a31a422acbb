/**
 * The /model picker (first the model, then its reasoning effort) and Alt+, / Alt+. (one effort
 * lower / higher). Pure: the controller keeps the state in the store and carries out a pick.
 */
import { REASONING_EFFORTS, type ReasoningEffort } from '../../../protocol/api.js';
import type { KeyEvent } from '../../keys/types.js';
import type { ModelChoice, ModelPickerState } from '../../store-types.js';
import { isCtrl } from '../../keys/ctrl.js';

export interface EffortChoice {
  effort: ReasoningEffort | null;
  label: string;
  description: string;
}

/** The effort stage's rows, `default` (none sent) first. */
export const EFFORT_CHOICES: readonly EffortChoice[] = [
  { effort: null, label: 'default', description: 'none sent: the model decides' },
  { effort: 'minimal', label: 'minimal', description: 'the least reasoning, the fastest answers' },
  { effort: 'low', label: 'low', description: 'light reasoning, quick answers' },
  { effort: 'medium', label: 'medium', description: 'balanced' },
  { effort: 'high', label: 'high', description: 'deeper reasoning, slower answers' },
  { effort: 'xhigh', label: 'xhigh', description: 'the most reasoning, the slowest answers' },
];

/** Rows PgUp / PgDn move by. */
const PAGE = 10;

/** Open, waiting for model/list. */
export function loadingModelPicker(): ModelPickerState {
  return { stage: 'model', models: null, note: null, filter: '', selected: 0, model: null };
}

/** What the next turn runs on: its model, and the provider /model switched to (null: the thread's own). */
export interface CurrentModel {
  model: string;
  provider: string | null;
}

/** A row of the thread's own provider (a plain model name), or one model/list named the provider of. */
const choice = (m: string | ModelChoice): ModelChoice => (typeof m === 'string' ? { model: m, provider: null, providerName: null } : m);

/** Whether a row is the current model: the same name, on the same provider (a row of the thread's own provider matches none named). */
export function isCurrent(row: ModelChoice, current: CurrentModel, ownProvider: string | null = null): boolean {
  if (row.model !== current.model) return false;
  const provider = current.provider ?? ownProvider;
  return row.provider === null || provider === null || row.provider === provider;
}

/** The models arrived: the current one is among them (first when the list lacks it) and highlighted. */
export function withModels(
  picker: ModelPickerState,
  models: readonly (string | ModelChoice)[],
  note: string | null,
  current: string | CurrentModel,
  ownProvider: string | null = null,
): ModelPickerState {
  const now = typeof current === 'string' ? { model: current, provider: null } : current;
  const unique: ModelChoice[] = [];
  for (const row of models.map(choice)) {
    if (!unique.some((u) => u.model === row.model && u.provider === row.provider)) unique.push(row);
  }
  const list = unique.some((row) => isCurrent(row, now, ownProvider))
    ? unique
    : [{ model: now.model, provider: now.provider, providerName: null }, ...unique];
  const next: ModelPickerState = { ...picker, models: list, note, currentProvider: now.provider ?? ownProvider };
  return {
    ...next,
    selected: Math.max(
      0,
      filteredModels(next).findIndex((row) => isCurrent(row, now, ownProvider)),
    ),
  };
}

/** The models whose name or provider contains the filter (any case), in list order. */
export function filteredModels(picker: Pick<ModelPickerState, 'models' | 'filter'>): ModelChoice[] {
  const query = picker.filter.toLowerCase();
  return (picker.models ?? []).filter((m) => m.model.toLowerCase().includes(query) || (m.providerName ?? '').toLowerCase().includes(query));
}

export interface ModelPickerStep {
  /** The picker after the key; null once closed. */
  picker: ModelPickerState | null;
  /** Set when the key finished a pick; `provider` null: the thread's own. */
  chosen?: { model: string; effort: ReasoningEffort | null; provider: string | null };
}

/**
 * A key while the picker is open (it owns the keys). Model stage: ↑/↓ (Ctrl+P/N), PgUp/PgDn move,
 * typing filters, Backspace unfilters, Enter goes on to the effort stage. Effort stage: ↑/↓, Enter
 * or a row's number picks, Esc goes back. Esc in the model stage, or Ctrl+C, closes.
 */
export function modelPickerKey(e: KeyEvent, picker: ModelPickerState, currentEffort: ReasoningEffort | null): ModelPickerStep {
  const plain = !e.ctrl && !e.alt && !e.meta;
  if (isCtrl(e, 'c')) return { picker: null };
  const up = (e.name === 'up' && plain) || isCtrl(e, 'p');
  const down = (e.name === 'down' && plain) || isCtrl(e, 'n');
  if (picker.stage === 'effort') {
    const count = EFFORT_CHOICES.length;
    if (up || down) return { picker: { ...picker, selected: (picker.selected + (up ? -1 : 1) + count) % count } };
    if (e.name === 'escape') {
      const back = { ...picker, stage: 'model' as const, model: null, provider: null };
      const at = filteredModels(back).findIndex((m) => m.model === picker.model && m.provider === (picker.provider ?? null));
      return { picker: { ...back, selected: Math.max(0, at) } };
    }
    const digit = e.name === 'char' && plain ? Number(e.char) : NaN;
    const index =
      e.name === 'enter' && plain && !e.shift
        ? picker.selected
        : Number.isInteger(digit) && digit >= 1 && digit <= count
          ? digit - 1
          : null;
    if (index === null || picker.model === null) return { picker };
    return { picker: null, chosen: { model: picker.model, effort: EFFORT_CHOICES[index]!.effort, provider: picker.provider ?? null } };
  }
  if (e.name === 'escape') return { picker: null };
  const shown = filteredModels(picker);
  const last = Math.max(0, shown.length - 1);
  if (up || down)
    return { picker: { ...picker, selected: shown.length === 0 ? 0 : (picker.selected + (up ? -1 : 1) + shown.length) % shown.length } };
  if ((e.name === 'pageup' || e.name === 'pagedown') && plain) {
    return { picker: { ...picker, selected: Math.min(last, Math.max(0, picker.selected + (e.name === 'pageup' ? -PAGE : PAGE))) } };
  }
  if (e.name === 'enter' && plain && !e.shift) {
    const row = shown[picker.selected];
    if (row === undefined) return { picker };
    const effortAt = EFFORT_CHOICES.findIndex((c) => c.effort === currentEffort);
    return { picker: { ...picker, stage: 'effort', model: row.model, provider: row.provider, selected: Math.max(0, effortAt) } };
  }
  if (e.name === 'backspace' && plain) return { picker: refilter(picker, [...picker.filter].slice(0, -1).join('')) };
  if (e.name === 'char' && plain && e.char !== undefined && e.char.trim() !== '')
    return { picker: refilter(picker, picker.filter + e.char) };
  return { picker };
}

/** A new filter keeps the highlighted model highlighted while it still matches, else the first row. */
function refilter(picker: ModelPickerState, filter: string): ModelPickerState {
  const highlighted = filteredModels(picker)[picker.selected];
  const next = { ...picker, filter };
  return { ...next, selected: Math.max(0, highlighted === undefined ? 0 : filteredModels(next).indexOf(highlighted)) };
}

/**
 * Alt+. (`by` 1) / Alt+, (-1): the next effort up or down. With none set the model's default is
 * taken as `medium`; at either end the effort stays (`moved` false).
 */
export function stepEffort(current: ReasoningEffort | null, by: 1 | -1): { effort: ReasoningEffort; moved: boolean } {
  const at = REASONING_EFFORTS.indexOf(current ?? 'medium');
  const next = REASONING_EFFORTS[at + by];
  if (current === null) return { effort: next ?? 'medium', moved: true };
  return next === undefined ? { effort: current, moved: false } : { effort: next, moved: true };
}

const FROM_NEXT_TURN = ' — from the next turn';

/** The cell after a pick in /model; `providerName` when the pick moves the thread to another provider. */
export function modelChangedText(
  model: string,
  effort: ReasoningEffort | null,
  turnRunning: boolean,
  providerName: string | null = null,
): string {
  const on = providerName === null ? '' : ` on ${providerName}`;
  return `Model: ${model}${on}, reasoning effort ${effort ?? 'default (none sent)'}${turnRunning ? FROM_NEXT_TURN : ''}`;
}

/** The cell after Alt+, / Alt+. */
export function effortChangedText(step: { effort: ReasoningEffort; moved: boolean }, by: 1 | -1, turnRunning: boolean): string {
  if (!step.moved) return `Reasoning effort: ${step.effort} (already the ${by > 0 ? 'highest' : 'lowest'})`;
  return `Reasoning effort: ${step.effort}${turnRunning ? FROM_NEXT_TURN : ''}`;
}
