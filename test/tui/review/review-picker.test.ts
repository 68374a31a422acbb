/** The /review picker's stages and keys, and the git lists it parses. */
import { describe, expect, it } from 'vitest';
import { parseBranches, parseCommits } from '../../../src/tui/chat/review/review-git.js';
import { reviewPickerLines } from '../../../src/tui/chat/review/review-picker-lines.js';
import { MENU, REVIEW_CHOICES, reviewPickerKey, reviewPickerPaste, withGitList } from '../../../src/tui/chat/review/review-picker.js';
import type { KeyEvent } from '../../../src/tui/keys/types.js';
import type { ReviewPickerState } from '../../../src/tui/store-types.js';

const key = (name: KeyEvent['name'], extra: Partial<KeyEvent> = {}): KeyEvent =>
  ({ type: 'key', name, ctrl: false, alt: false, meta: false, shift: false, kind: 'press', ...extra }) as KeyEvent;
const ch = (c: string): KeyEvent => key('char', { char: c });
const SHA = 'a'.repeat(40);

describe('reviewPickerKey', () => {
  it("offers Codex's four targets in order, then Tiller's changes of this session", () => {
    expect(REVIEW_CHOICES.map((c) => c.label)).toEqual([
      'Review uncommitted changes',
      'Review against a base branch',
      'Review a commit',
      'Custom review instructions',
      "Review the changes of this session (the agent's only)",
    ]);
  });

  it('the last row reviews the changes of this session', () => {
    expect(reviewPickerKey(ch('5'), MENU)).toEqual({ picker: null, target: { type: 'tiller/sessionChanges' } });
  });

  it('Enter on the first row reviews the uncommitted changes and closes', () => {
    expect(reviewPickerKey(key('enter'), MENU)).toEqual({ picker: null, target: { type: 'uncommittedChanges' } });
  });

  it('↓ then Enter opens the branch stage and asks for the list; ↑ wraps', () => {
    const down = reviewPickerKey(key('down'), MENU).picker!;
    expect(down.selected).toBe(1);
    expect(reviewPickerKey(key('up'), MENU).picker!.selected).toBe(4);
    const step = reviewPickerKey(key('enter'), down);
    expect(step.load).toBe('branch');
    expect(step.picker?.stage).toBe('branch');
    expect(step.picker?.branches).toBeNull();
  });

  it('a branch picked starts a review against it', () => {
    const p = withGitList({ ...MENU, stage: 'branch' }, { branches: ['dev', 'main'] });
    const second = reviewPickerKey(key('down'), p).picker!;
    expect(reviewPickerKey(key('enter'), second)).toEqual({ picker: null, target: { type: 'baseBranch', branch: 'main' } });
  });

  it('a commit picked starts a review of it with its subject as title', () => {
    const p = withGitList(reviewPickerKey(ch('3'), MENU).picker!, { commits: [{ sha: SHA, subject: 'fix it' }] });
    expect(reviewPickerKey(key('enter'), p)).toEqual({ picker: null, target: { type: 'commit', sha: SHA, title: 'fix it' } });
  });

  it('the custom stage takes typing, pastes and Backspace; empty Enter says why and keeps the picker', () => {
    let p: ReviewPickerState = reviewPickerKey(ch('4'), MENU).picker!;
    expect(p.stage).toBe('custom');
    const empty = reviewPickerKey(key('enter'), p);
    expect(empty.picker?.error).toMatch(/Type the instructions/);
    expect(empty.target).toBeUndefined();
    for (const c of 'look ax') p = reviewPickerKey(ch(c), p).picker!;
    p = reviewPickerKey(key('backspace'), p).picker!;
    p = reviewPickerPaste(p, 't\nsecurity');
    expect(p.text).toBe('look at security');
    expect(reviewPickerKey(key('enter'), p)).toEqual({ picker: null, target: { type: 'custom', instructions: 'look at security' } });
  });

  it('Esc backs out to the menu on the stage row, keeping nothing; Esc on the menu and Ctrl+C close', () => {
    const custom = { ...MENU, stage: 'custom' as const, text: 'x' };
    expect(reviewPickerKey(key('escape'), custom).picker).toEqual({ ...MENU, selected: 3 });
    expect(reviewPickerKey(key('escape'), MENU).picker).toBeNull();
    expect(reviewPickerKey(key('char', { char: 'c', ctrl: true }), custom).picker).toBeNull();
  });

  it('a git failure is shown and Enter does nothing', () => {
    const p = withGitList({ ...MENU, stage: 'branch' }, { error: 'No other local branch to review against.' });
    expect(reviewPickerKey(key('enter'), p)).toEqual({ picker: p });
    expect(reviewPickerLines(p, 80).join('\n')).toContain('No other local branch to review against.');
  });
});

describe('reviewPickerLines', () => {
  it('draws the menu with the highlighted row and the commit list as short sha and subject', () => {
    expect(reviewPickerLines(MENU, 80).join('\n')).toContain('▸ 1. Review uncommitted changes');
    const p = withGitList({ ...MENU, stage: 'commit' }, { commits: [{ sha: SHA, subject: 'first' }] });
    expect(reviewPickerLines(p, 80)).toContain('▸ aaaaaaa  first');
  });
});

describe('git lists', () => {
  it('parseBranches drops the current branch and blank lines, sorted', () => {
    expect(parseBranches('main\nfeature/x\n\ndev\n', 'feature/x')).toEqual(['dev', 'main']);
  });

  it('parseCommits reads sha<TAB>subject lines, tabs in the subject kept', () => {
    expect(parseCommits(`${SHA}\tadd a\tb\n${'b'.repeat(40)}\t\nnot a commit\n`)).toEqual([
      { sha: SHA, subject: 'add a\tb' },
      { sha: 'b'.repeat(40), subject: '' },
    ]);
  });
});
