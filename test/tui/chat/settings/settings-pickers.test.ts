/** /statusline and /theme: the pickers' keys, what the footer and the theme do meanwhile, and what config.toml keeps. */
import { mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Chalk } from 'chalk';
import stripAnsi from 'strip-ansi';
import { afterEach, describe, expect, it } from 'vitest';
import { settingsPickerLines, themeSample } from '../../../../src/tui/chat/settings/settings-lines.js';
import { SettingsPickers } from '../../../../src/tui/chat/settings/settings-pickers.js';
import { gitBranch } from '../../../../src/tui/chat/settings/git-branch.js';
import { openStatusLinePicker, statusLinePickerKey } from '../../../../src/tui/chat/settings/status-line-picker.js';
import { footerLine } from '../../../../src/tui/components/lines.js';
import { statusLineItems, parseStatusLine, DEFAULT_STATUS_LINE } from '../../../../src/tui/components/status-line.js';
import { initialComposerState } from '../../../../src/tui/composer/state.js';
import { charKey, key } from '../../../../src/tui/keys/types.js';
import { createChatStore, type NewCell } from '../../../../src/tui/store.js';
import { currentTheme, palette, setTheme, THEME_NAMES } from '../../../../src/tui/theme.js';

const color = new Chalk({ level: 1 });
const DATA = {
  model: 'gpt-5.5',
  effort: 'high',
  contextLeft: 80,
  usedTokens: 12_345,
  cwd: '/work/repo',
  branch: 'main',
  sandbox: { text: 'full access', danger: true },
};

function setup() {
  const home = mkdtempSync(join(tmpdir(), 'tiller-settings-'));
  const store = createChatStore(initialComposerState({ vimEnabled: false, probeMedia: () => null }));
  const cells: NewCell[] = [];
  const pickers = new SettingsPickers({ store, home, cwd: home, statusLine: null, cell: (cell) => cells.push(cell) });
  return { home, store, cells, pickers, config: () => readFileSync(join(home, 'config.toml'), 'utf8') };
}

afterEach(() => setTheme('dark'));

describe('the status line items', () => {
  it('without a choice is the footer as before: sandbox, context once under half, model with effort', () => {
    expect(statusLineItems(null, DATA)).toEqual([{ text: 'full access', danger: true }, { text: 'gpt-5.5 high' }]);
    expect(statusLineItems(null, { ...DATA, contextLeft: 30 }).map((i) => i.text)).toEqual([
      'full access',
      '30% context left',
      'gpt-5.5 high',
    ]);
  });

  it('shows each chosen item in order; a chosen context shows always, an item without a value never', () => {
    const all = ['git-branch', 'current-dir', 'used-tokens', 'context-remaining', 'reasoning-effort', 'model-name', 'sandbox'] as const;
    expect(statusLineItems([...all], DATA).map((i) => i.text)).toEqual([
      'main',
      '/work/repo',
      '12.3K tokens used',
      '80% context left',
      'effort high',
      'gpt-5.5',
      'full access',
    ]);
    expect(
      statusLineItems([...all], { ...DATA, branch: null, usedTokens: null, effort: null, contextLeft: null }).map((i) => i.text),
    ).toEqual(['/work/repo', 'gpt-5.5', 'full access']);
  });

  it("reads Codex's ids from config, dropping duplicates and naming the unknown ones", () => {
    expect(parseStatusLine(['model-name', 'five-hour-limit', 'model-name', 'git-branch'])).toEqual({
      items: ['model-name', 'git-branch'],
      unknown: ['five-hour-limit'],
    });
  });
});

describe('the /statusline picker', () => {
  it('opens on the current choice ticked first, then ticks, reorders and confirms', () => {
    let p = openStatusLinePicker(null);
    expect(p.rows.slice(0, 3)).toEqual(DEFAULT_STATUS_LINE.map((id) => ({ id, on: true })));
    let step = statusLinePickerKey(charKey(' '), p); // untick sandbox
    expect(step).toMatchObject({ type: 'move', items: ['context-remaining', 'model-with-reasoning'] });
    if (step.type !== 'move') throw new Error('moved');
    p = step.picker;
    step = statusLinePickerKey(key('down'), p);
    if (step.type !== 'move') throw new Error('moved');
    step = statusLinePickerKey(key('left'), step.picker); // context-remaining up above sandbox
    if (step.type !== 'move') throw new Error('moved');
    expect(step.picker.rows.slice(0, 2).map((r) => r.id)).toEqual(['context-remaining', 'sandbox']);
    expect(statusLinePickerKey(key('enter'), step.picker)).toEqual({
      type: 'confirm',
      items: ['context-remaining', 'model-with-reasoning'],
    });
    expect(statusLinePickerKey(key('escape'), step.picker)).toEqual({ type: 'cancel', items: null });
  });

  it('changes the footer as it goes, restores it on Esc, and keeps it in config.toml on Enter', () => {
    const { home, store, cells, pickers, config } = setup();
    const footer = () =>
      stripAnsi(
        footerLine({ hint: 'h', items: statusLineItems(store.getState().statusLine ?? null, DATA), offline: false, vim: null }, 120, color),
      );
    pickers.openStatusLine();
    expect(pickers.open).toBe(true);
    pickers.input(charKey(' '));
    expect(footer()).toMatch(/ gpt-5\.5 high$/);
    expect(footer()).not.toContain('full access');
    pickers.input(key('escape'));
    expect(pickers.open).toBe(false);
    expect(store.getState().statusLine).toBeNull();
    expect(footer()).toMatch(/ full access · gpt-5\.5 high$/);

    writeFileSync(join(home, 'config.toml'), '# mine\nmodel = "m"\n');
    pickers.openStatusLine();
    for (let i = 0; i < 6; i++) pickers.input(key('down')); // current-dir
    pickers.input(charKey(' '));
    pickers.input(key('enter'));
    expect(footer()).toMatch(/ full access · 80% context left · gpt-5\.5 high · \/work\/repo$/);
    expect(config()).toBe(
      '# mine\nmodel = "m"\n\n[tui]\nstatus_line = ["sandbox", "context-remaining", "model-with-reasoning", "current-dir"]\n',
    );
    expect(statSync(join(home, 'config.toml')).mode & 0o777).toBe(0o600);
    expect(cells.at(-1)).toMatchObject({ kind: 'info', text: expect.stringContaining('Saved in config.toml') });
  });

  it('starts with the footer config names, and warns of the ids it does not know', () => {
    const store = createChatStore(initialComposerState({ vimEnabled: false, probeMedia: () => null }));
    const pickers = new SettingsPickers({ store, home: null, cwd: '/', statusLine: ['git-branch', 'rate-limits'], cell: () => undefined });
    expect(store.getState().statusLine).toEqual(['git-branch']);
    expect(pickers.warnings).toEqual([
      expect.stringMatching(/^config\.toml: tui\.status_line: unknown item "rate-limits" \(ignored; known: model-name, /),
    ]);
  });

  it('says so when config.toml cannot be edited, and keeps the choice for the session', () => {
    const { home, store, cells, pickers } = setup();
    writeFileSync(join(home, 'config.toml'), 'tui = { status_line = [] }\n');
    pickers.openStatusLine();
    pickers.input(key('enter'));
    expect(store.getState().statusLine).toEqual([...DEFAULT_STATUS_LINE]);
    expect(cells.at(-1)).toMatchObject({ kind: 'error', text: expect.stringContaining('could not be saved in config.toml') });
    expect(readFileSync(join(home, 'config.toml'), 'utf8')).toBe('tui = { status_line = [] }\n');
  });
});

describe('the themes', () => {
  it('differ from each other in every role drawn, and high-contrast never dims', () => {
    const roles = ['accent', 'added', 'removed', 'hunk', 'danger', 'warning', 'success', 'muted', 'badgeHigh', 'code'] as const;
    for (const role of roles) {
      const drawn = THEME_NAMES.map((theme) => palette(color, theme)[role]('x'));
      expect(new Set(drawn).size, role).toBeGreaterThan(1);
    }
    expect(themeSample('high-contrast', color).join('')).not.toContain('\x1b[2m');
  });

  it('previews each theme as the selection moves, restores on Esc, and keeps one on Enter', () => {
    const { store, cells, pickers, config } = setup();
    const before = store.getState().transcriptGeneration;
    pickers.openTheme();
    const rows = () => settingsPickerLines(store.getState().settingsPicker!, 100, color).join('\n');
    expect(stripAnsi(rows())).toContain('▸ 1. dark');
    pickers.input(key('down'));
    expect(currentTheme()).toBe('light');
    expect(rows()).toContain(palette(color, 'light').added('+const answer = 42;'));
    pickers.input(key('down'));
    expect(currentTheme()).toBe('high-contrast');
    pickers.input(key('escape'));
    expect(currentTheme()).toBe('dark');
    expect(store.getState().settingsPicker).toBeNull();
    expect(store.getState().transcriptGeneration).toBe(before);

    pickers.openTheme();
    pickers.input(key('up')); // wraps to high-contrast
    pickers.input(key('enter'));
    expect(currentTheme()).toBe('high-contrast');
    expect(config()).toBe('theme = "high-contrast"\n');
    expect(store.getState().transcriptGeneration).toBe(before + 1);
    expect(cells.at(-1)).toMatchObject({ kind: 'info', text: 'Theme: high-contrast. Saved in config.toml.' });
  });
});

describe('gitBranch', () => {
  it('reads HEAD: a branch, a detached commit, a worktree; none outside Git', () => {
    const root = mkdtempSync(join(tmpdir(), 'tiller-branch-'));
    expect(gitBranch(root)).toBeNull();
    mkdirSync(join(root, 'repo', '.git'), { recursive: true });
    mkdirSync(join(root, 'repo', 'src'));
    writeFileSync(join(root, 'repo', '.git', 'HEAD'), 'ref: refs/heads/feature/x\n');
    expect(gitBranch(join(root, 'repo', 'src'))).toBe('feature/x');
    writeFileSync(join(root, 'repo', '.git', 'HEAD'), '0123456789abcdef0123456789abcdef01234567\n');
    expect(gitBranch(join(root, 'repo'))).toBe('0123456');
    mkdirSync(join(root, 'gitdirs', 'wt'), { recursive: true });
    writeFileSync(join(root, 'gitdirs', 'wt', 'HEAD'), 'ref: refs/heads/wt-branch\n');
    mkdirSync(join(root, 'wt'));
    writeFileSync(join(root, 'wt', '.git'), 'gitdir: ../gitdirs/wt\n');
    expect(gitBranch(join(root, 'wt'))).toBe('wt-branch');
  });
});
