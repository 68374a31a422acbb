/**
 * The /review picker (docs/codex-parity.md#review): a menu of Codex's four targets and Tiller's "changes
 * of this session", then a branch list,
 * a commit list or a one-line input for custom instructions. Pure: the controller keeps the state
 * in the store, loads the git lists and starts the review a pick names.
 */
import type { ReviewTarget } from '../../../protocol/client-requests.js';
import { isCtrl } from '../../keys/ctrl.js';
import type { KeyEvent } from '../../keys/types.js';
import type { ReviewCommit, ReviewPickerState } from '../../store-types.js';

export interface ReviewChoice {
  stage: 'uncommitted' | 'branch' | 'commit' | 'custom' | 'session';
  label: string;
}

/** The menu's rows, in Codex's order. */
export const REVIEW_CHOICES: readonly ReviewChoice[] = [
  { stage: 'uncommitted', label: 'Review uncommitted changes' },
  { stage: 'branch', label: 'Review against a base branch' },
  { stage: 'commit', label: 'Review a commit' },
  { stage: 'custom', label: 'Custom review instructions' },
  // Tiller's own: what the agent changed, from its checkpoints, without the user's edits.
  { stage: 'session', label: "Review the changes of this session (the agent's only)" },
];

export const MENU: ReviewPickerState = { stage: 'menu', selected: 0, branches: null, commits: null, text: '', error: null };

export interface ReviewPickerStep {
  /** The picker after the key; null once closed. */
  picker: ReviewPickerState | null;
  /** Set when the key picked a target: the review to start. */
  target?: ReviewTarget;
  /** Set when the key opened a list the controller has to load from git. */
  load?: 'branch' | 'commit';
}

/** The rows the highlighted index moves over in the picker's stage. */
function rowCount(p: ReviewPickerState): number {
  if (p.stage === 'menu') return REVIEW_CHOICES.length;
  if (p.stage === 'branch') return p.branches?.length ?? 0;
  if (p.stage === 'commit') return p.commits?.length ?? 0;
  return 0;
}

/**
 * A key while the picker is open (it owns the keys): ↑/↓ (Ctrl+P/N) move, Enter picks, a menu row's
 * number picks it; Esc goes back to the menu, and closes from the menu; Ctrl+C closes. The custom
 * stage edits its line (Backspace, typing, pastes) and Enter with text starts the review.
 */
export function reviewPickerKey(e: KeyEvent, p: ReviewPickerState): ReviewPickerStep {
  const plain = !e.ctrl && !e.alt && !e.meta;
  if (isCtrl(e, 'c')) return { picker: null };
  if (e.name === 'escape') return { picker: p.stage === 'menu' ? null : { ...MENU, selected: menuIndex(p.stage) } };
  const enter = e.name === 'enter' && plain && !e.shift;
  if (p.stage === 'custom') return customKey(e, p, enter, plain);
  const count = rowCount(p);
  const up = (e.name === 'up' && plain) || isCtrl(e, 'p');
  const down = (e.name === 'down' && plain) || isCtrl(e, 'n');
  if (up || down) return { picker: count === 0 ? p : { ...p, selected: (p.selected + (up ? -1 : 1) + count) % count } };
  const digit = e.name === 'char' && plain && p.stage === 'menu' ? Number(e.char) : NaN;
  const index = enter ? p.selected : Number.isInteger(digit) && digit >= 1 && digit <= count ? digit - 1 : null;
  if (index === null) return { picker: p };
  if (p.stage === 'menu') return pickMenu(REVIEW_CHOICES[index]!.stage);
  if (p.stage === 'branch') {
    const branch = p.branches?.[index];
    return branch === undefined ? { picker: p } : { picker: null, target: { type: 'baseBranch', branch } };
  }
  const commit = p.commits?.[index];
  return commit === undefined ? { picker: p } : { picker: null, target: { type: 'commit', sha: commit.sha, title: commit.subject } };
}

function menuIndex(stage: ReviewPickerState['stage']): number {
  return Math.max(
    0,
    REVIEW_CHOICES.findIndex((c) => c.stage === stage),
  );
}

function pickMenu(stage: ReviewChoice['stage']): ReviewPickerStep {
  if (stage === 'uncommitted') return { picker: null, target: { type: 'uncommittedChanges' } };
  if (stage === 'session') return { picker: null, target: { type: 'tiller/sessionChanges' } };
  if (stage === 'custom') return { picker: { ...MENU, stage } };
  return { picker: { ...MENU, stage }, load: stage };
}

function customKey(e: KeyEvent, p: ReviewPickerState, enter: boolean, plain: boolean): ReviewPickerStep {
  if (enter) {
    const instructions = p.text.trim();
    if (instructions === '') return { picker: { ...p, error: 'Type the instructions for the review first.' } };
    return { picker: null, target: { type: 'custom', instructions } };
  }
  if (e.name === 'backspace' && plain) return { picker: { ...p, text: [...p.text].slice(0, -1).join(''), error: null } };
  if (e.name === 'char' && plain && e.char !== undefined) return { picker: { ...p, text: p.text + e.char, error: null } };
  return { picker: p };
}

/** Text pasted into the custom stage joins its line (newlines become spaces: it is one line). */
export function reviewPickerPaste(p: ReviewPickerState, text: string): ReviewPickerState {
  return p.stage === 'custom' ? { ...p, text: p.text + text.replace(/\r?\n|\r/g, ' '), error: null } : p;
}

/** The git lists arrived (or failed): the list stage shows them, or why it cannot. */
export function withGitList(
  p: ReviewPickerState,
  list: { branches: string[] } | { commits: ReviewCommit[] } | { error: string },
): ReviewPickerState {
  if ('error' in list) return { ...p, error: list.error };
  return 'branches' in list ? { ...p, branches: list.branches, selected: 0 } : { ...p, commits: list.commits, selected: 0 };
}
