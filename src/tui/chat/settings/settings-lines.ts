/**
 * The rows of the /statusline and /theme pickers, in the place of the composer, in at most `maxRows`
 * rows. The theme picker ends with a sample (a diff, code, a finding's badge) in the theme previewed.
 */
import type { ChalkInstance } from 'chalk';
import { defaultChalk } from '../../components/row-shapes.js';
import { STATUS_LINE_ITEMS } from '../../components/status-line.js';
import { truncateToWidth } from '../../text-width.js';
import { palette, THEME_DESCRIPTIONS, THEME_NAMES, type ThemeName } from '../../theme.js';
import type { StatusLinePickerState } from './status-line-picker.js';
import type { ThemePickerState } from './theme-picker.js';

export const STATUS_LINE_TITLE = 'Configure the status line';
export const STATUS_LINE_PICKER_HINT = 'space ticks · ←/→ order · enter keeps · esc cancels';
export const THEME_TITLE = 'Select a theme';
export const THEME_PICKER_HINT = '↑/↓ to preview · enter keeps · esc goes back';

export type SettingsPickerState = StatusLinePickerState | ThemePickerState;

export function settingsPickerHint(p: SettingsPickerState): string {
  return p.kind === 'statusline' ? STATUS_LINE_PICKER_HINT : THEME_PICKER_HINT;
}

export function settingsPickerLines(p: SettingsPickerState, width: number, c: ChalkInstance = defaultChalk, maxRows = 100): string[] {
  const rows = p.kind === 'statusline' ? statusLineRows(p, c) : themeRows(p, c);
  return rows.slice(0, Math.max(1, maxRows)).map((row) => truncateToWidth(row, width));
}

function statusLineRows(p: StatusLinePickerState, c: ChalkInstance): string[] {
  const width = Math.max(...STATUS_LINE_ITEMS.map((item) => item.id.length));
  const description = new Map<string, string>(STATUS_LINE_ITEMS.map((item) => [item.id, item.description]));
  return [
    c.bold(STATUS_LINE_TITLE),
    c.dim('Select which items the footer shows; it changes as you go.'),
    '',
    ...p.rows.map((row, i) => {
      const text = `${i === p.selected ? '▸' : ' '} [${row.on ? 'x' : ' '}] ${row.id.padEnd(width)}  `;
      const rest = description.get(row.id) ?? '';
      return i === p.selected ? palette(c).accent(text + rest) : `${text}${c.dim(rest)}`;
    }),
  ];
}

function themeRows(p: ThemePickerState, c: ChalkInstance): string[] {
  const width = Math.max(...THEME_NAMES.map((name) => name.length));
  const shown = THEME_NAMES[p.selected]!;
  return [
    c.bold(THEME_TITLE),
    c.dim('Move ↑/↓ to preview a theme; enter keeps it, esc goes back.'),
    '',
    ...THEME_NAMES.map((name, i) => {
      const current = name === p.original ? ' (current)' : '';
      const text = `${i === p.selected ? '▸' : ' '} ${i + 1}. ${name.padEnd(width)}  ${THEME_DESCRIPTIONS[name]}${current}`;
      return i === p.selected ? palette(c, shown).accent(text) : text;
    }),
    '',
    ...themeSample(shown, c),
  ];
}

/** A few rows that use most of the theme's colours, drawn in `theme`. */
export function themeSample(theme: ThemeName, c: ChalkInstance = defaultChalk): string[] {
  const p = palette(c, theme);
  return [
    `  ${p.hunk('@@ -1 +1 @@')}`,
    `  ${p.removed('-const answer = 41;')}`,
    `  ${p.added('+const answer = 42;')}`,
    `  ${p.keyword('const')} ${p.name('greet')} = (${p.name('name')}) => ${p.string('`Hello, ${name}!`')}; ${p.comment('// ')}${p.number('42')}`,
    `  ${p.badgeHigh(' P1 ')} ${c.bold('Off by one')} ${p.muted('src/answer.ts:1')}  ${p.success('✓ done')}  ${p.danger('✗ failed')}  ${p.warning('⚠ note')}`,
  ];
}
