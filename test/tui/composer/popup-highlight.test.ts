import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { composerView, highlightRuns } from '../../../src/tui/components/composer-view.js';
import { fileHighlight, matchSkills } from '../../../src/tui/composer/popup.js';
import { hasPopup, popupRows } from '../../../src/tui/composer/reducer.js';
import { Driver } from './driver.js';

const plain = new Chalk({ level: 0 });
const color = new Chalk({ level: 1 });
const skills = [
  { name: 'deploy', path: '/s/deploy/SKILL.md', description: 'ship it' },
  { name: 'redeploy-all', path: '/s/redeploy-all/SKILL.md' },
  { name: 'review', path: '/s/review/SKILL.md' },
];

describe('popup match highlighting', () => {
  it('slash commands: the typed prefix is highlighted (after the slash)', () => {
    const d = new Driver();
    d.type('/st');
    d.settle();
    expect(popupRows(d.state)?.rows[0]).toMatchObject({ label: '/status', highlight: [1, 2] });
  });

  it('slash commands: a substring match is highlighted where it occurs', () => {
    const d = new Driver();
    d.type('/rov');
    d.settle();
    expect(popupRows(d.state)?.rows).toMatchObject([{ label: '/approvals', highlight: [4, 5, 6] }]);
  });

  it('skills: prefix first, then substring; highlight past the `$`', () => {
    expect(matchSkills(skills, 'dep').map((m) => [m.skill.name, m.indices])).toEqual([
      ['deploy', [0, 1, 2]],
      ['redeploy-all', [2, 3, 4]],
    ]);
    const d = new Driver({ skills });
    d.type('$DEP');
    d.settle();
    expect(popupRows(d.state)?.rows).toMatchObject([
      { label: '$deploy', highlight: [1, 2, 3] },
      { label: '$redeploy-all', highlight: [3, 4, 5] },
    ]);
  });

  it('files: the characters fuzzysort matched', () => {
    expect(fileHighlight('src/tui/app.tsx', 'sap')).toEqual([0, 8, 9]);
    expect(fileHighlight('src/a.ts', '')).toEqual([]);
    expect(fileHighlight('src/a.ts', 'zzz')).toEqual([]);
    const d = new Driver();
    d.type('@rdm');
    d.settle();
    d.send({ type: 'fileSearchResult', query: 'rdm', paths: ['README.md'] });
    expect(popupRows(d.state)?.rows).toEqual([{ label: 'README.md', highlight: [0, 3, 4] }]);
  });

  it('the screen row shows highlighted characters in bold, the rest as before', () => {
    const d = new Driver();
    d.type('/di');
    d.settle();
    const rows = composerView(d.state, 80, color).popupRows;
    // Selected row: cyan, with `di` bold inside it.
    expect(rows[0]).toContain(color.cyan('▸ ') + color.cyan('/') + color.cyan.bold('di') + color.cyan('ff'));
    expect(composerView(d.state, 80, plain).popupRows[0]).toMatch(/^▸ \/diff\s+show the git diff/);
  });

  it('highlightRuns groups runs and never marks a character cut off by the width', () => {
    const b = (s: string) => `<${s}>`;
    const h = (s: string) => `[${s}]`;
    expect(highlightRuns('abcdef', 'abcdef', [1, 2, 4], b, h)).toBe('<a>[bc]<d>[e]<f>');
    expect(highlightRuns('ab…', 'abcdef', [2], b, h)).toBe('<ab…>');
    expect(highlightRuns('abc', 'abc', [], b, h)).toBe('<abc>');
  });
});

describe('no matches', () => {
  it('`/stt` keeps the command popup and shows `no matches`', () => {
    const d = new Driver();
    d.type('/stt');
    d.settle();
    expect(hasPopup(d.state)).toBe(true);
    expect(popupRows(d.state)).toEqual({ kind: 'command', rows: [], selected: null });
    expect(composerView(d.state, 80, plain).popupRows).toEqual(['  no matches']);
  });

  it('it comes back to rows when the token matches again', () => {
    const d = new Driver();
    d.type('/stt');
    d.key('backspace');
    d.key('backspace');
    expect(popupRows(d.state)?.rows[0]?.label).toBe('/status');
  });

  it('Esc still closes it (and the same token does not reopen it); a space closes it too', () => {
    const d = new Driver();
    d.type('/stt');
    d.settle();
    d.key('escape');
    expect(hasPopup(d.state)).toBe(false);
    expect(d.text).toBe('/stt');
    const e = new Driver();
    e.type('/stt ');
    e.settle();
    expect(hasPopup(e.state)).toBe(false);
  });

  it('Enter on `no matches` does what it did without a popup: says the command is unknown', () => {
    const d = new Driver();
    d.type('/stt');
    d.settle();
    const out = d.enter();
    expect(d.results).toEqual([]);
    expect(out.effects).toContainEqual(
      expect.objectContaining({ type: 'info', text: expect.stringContaining("Unrecognized command '/stt'") }),
    );
    expect(d.text).toBe('/stt');
  });

  it('a `$` query matching no skill shows `no matches`', () => {
    const d = new Driver({ skills });
    d.type('$zz');
    d.settle();
    expect(popupRows(d.state)).toEqual({ kind: 'skill', rows: [], selected: null });
    expect(composerView(d.state, 80, plain).popupRows).toEqual(['  no matches']);
  });

  it('a `@` query with no file shows `no matches`', () => {
    const d = new Driver();
    d.type('@zz');
    d.settle();
    d.send({ type: 'fileSearchResult', query: 'zz', paths: [] });
    expect(composerView(d.state, 80, plain).popupRows).toEqual(['  no matches']);
  });
});

describe('popups ask for fresh lists', () => {
  it('opening the `@` popup asks for a refreshed search; typing on re-ranks without one', () => {
    const d = new Driver();
    d.type('@');
    d.settle();
    expect(d.effects).toContainEqual({ type: 'fileSearch', query: '', refresh: true });
    d.effects = [];
    d.type('ab');
    d.settle();
    expect(d.effects.filter((e) => e.type === 'fileSearch')).toEqual([
      { type: 'fileSearch', query: 'a' },
      { type: 'fileSearch', query: 'ab' },
    ]);
  });

  it('a `$` token asks the host to re-read the skills, also when none are known yet', () => {
    const d = new Driver();
    d.type('$');
    d.settle();
    expect(d.effects).toContainEqual({ type: 'refreshSkills' });
    d.send({ type: 'setSkills', skills });
    expect(popupRows(d.state)?.rows.map((r) => r.label)).toEqual(['$deploy', '$redeploy-all', '$review']);
    d.effects = [];
    d.type('d');
    d.settle();
    // The popup was already open for this token: no new refresh.
    expect(d.effects).not.toContainEqual({ type: 'refreshSkills' });
  });
});
