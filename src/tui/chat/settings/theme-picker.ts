/**
 * The /theme picker: the themes of theme.ts, with a live preview. Pure: each move names the theme to
 * draw with at once (the whole live area and the picker's own sample take its colours); Enter keeps
 * it, Esc and Ctrl+C go back to the theme the picker opened on.
 */
import { isCtrl } from '../../keys/ctrl.js';
import type { KeyEvent } from '../../keys/types.js';
import { THEME_NAMES, type ThemeName } from '../../theme.js';

export interface ThemePickerState {
  kind: 'theme';
  selected: number;
  /** The theme when the picker opened, for Esc. */
  original: ThemeName;
}

export type ThemeStep =
  | { type: 'preview'; picker: ThemePickerState; theme: ThemeName }
  | { type: 'confirm'; theme: ThemeName }
  | { type: 'cancel'; theme: ThemeName };

export function openThemePicker(current: ThemeName): ThemePickerState {
  return { kind: 'theme', selected: Math.max(0, THEME_NAMES.indexOf(current)), original: current };
}

/** ↑/↓ (Ctrl+P/N) preview the next theme; a row's number picks it; Enter keeps; Esc, Ctrl+C restore. */
export function themePickerKey(e: KeyEvent, p: ThemePickerState): ThemeStep {
  const plain = !e.ctrl && !e.alt && !e.meta;
  if (isCtrl(e, 'c') || (e.name === 'escape' && plain)) return { type: 'cancel', theme: p.original };
  const count = THEME_NAMES.length;
  if (e.name === 'enter' && plain && !e.shift) return { type: 'confirm', theme: THEME_NAMES[p.selected]! };
  const digit = e.name === 'char' && plain ? Number(e.char) : Number.NaN;
  if (Number.isInteger(digit) && digit >= 1 && digit <= count) return { type: 'confirm', theme: THEME_NAMES[digit - 1]! };
  let selected = p.selected;
  if ((e.name === 'up' && plain) || isCtrl(e, 'p')) selected = (selected - 1 + count) % count;
  if ((e.name === 'down' && plain) || isCtrl(e, 'n')) selected = (selected + 1) % count;
  return { type: 'preview', picker: { ...p, selected }, theme: THEME_NAMES[selected]! };
}
