/** The `?` overlay: every key the README's "In the composer" names, in two columns that fit 60 cells, then every slash command. */
import { Chalk } from 'chalk';
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { composerView, SHORTCUT_COLUMN_WIDTH, SHORTCUT_ROWS } from '../../../src/tui/components/composer-view.js';
import { composerReducer, initialComposerState } from '../../../src/tui/composer/reducer.js';
import { SLASH_COMMANDS } from '../../../src/tui/composer/slash-commands.js';
import { charKey } from '../../../src/tui/keys/types.js';

const plain = new Chalk({ level: 0 });

function overlayAll(width: number): string[] {
  const empty = initialComposerState({ vimEnabled: false, probeMedia: () => null, disablePasteBurst: true });
  return composerView(composerReducer(empty, charKey('?'), 0).state, width, plain).popupRows;
}

/** The keys' rows: those above the blank row before the commands. */
function overlayRows(width: number): string[] {
  const rows = overlayAll(width);
  return rows.slice(0, rows.indexOf(''));
}

/** The keys of the README's "In the composer" section, as the overlay names them. */
const README_KEYS = [
  'enter',
  'tab',
  'ctrl + enter',
  'alt + ↑',
  'ctrl + q',
  'ctrl + q, n',
  'esc',
  'esc esc',
  'shift + enter',
  'ctrl + c',
  'ctrl + v',
  'ctrl + x',
  '/',
  '@',
  '$',
  '!',
  '↑ / ↓',
  'ctrl + r',
  'ctrl + g',
  'ctrl + l',
  'ctrl + o',
  'ctrl + t',
  '/findings',
  'y / a / n',
  'shift + tab',
  'alt + , / .',
  'ctrl + z',
  'ctrl + shift + z',
  'ctrl + k / u / w',
  'ctrl + y',
  'alt + y',
  'ctrl + s',
];

describe('the shortcuts overlay', () => {
  it('names every key of the README', () => {
    expect(SHORTCUT_ROWS.map(([k]) => k).sort()).toEqual([...README_KEYS].sort());
  });

  it('keeps each entry within a column, so two columns fit 60 cells', () => {
    for (const [k, what] of SHORTCUT_ROWS) expect(stringWidth(`${k} ${what}`)).toBeLessThanOrEqual(SHORTCUT_COLUMN_WIDTH);
    const rows = overlayRows(60);
    expect(rows).toHaveLength(Math.ceil(SHORTCUT_ROWS.length / 2));
    expect(rows.every((row) => stringWidth(row) <= 60 && !row.includes('…'))).toBe(true);
    const [key, what] = SHORTCUT_ROWS[rows.length]!;
    expect(rows[0]).toBe(`  / for commands${' '.repeat(SHORTCUT_COLUMN_WIDTH + 2 - '/ for commands'.length)}${key} ${what}`);
  });

  it('lists every slash command of the registry, at any width', () => {
    for (const width of [40, 60, 120]) {
      const rows = overlayAll(width);
      const listed = rows.slice(rows.indexOf('') + 1).join(' ');
      for (const command of SLASH_COMMANDS) expect(listed.split(/\s+/)).toContain(`/${command.name}`);
      expect(rows.every((row) => stringWidth(row) <= width)).toBe(true);
    }
  });

  it('falls back to one column, cut at the width, on a narrower screen', () => {
    const rows = overlayRows(40);
    expect(rows).toHaveLength(SHORTCUT_ROWS.length);
    expect(rows).toContain('  alt + , / . reasoning effort');
    expect(rows.every((row) => stringWidth(row) <= 40)).toBe(true);
  });
});
