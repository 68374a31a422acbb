/**
 * The /diff explorer's state and keys, pure: two views (the files this session changed, grouped by
 * turn, from the checkpoints; the git working tree), a selection over the current view's files, a
 * file's diff opened full screen, and the two prompts (a path to save the patch to; overwriting a
 * file changed by hand). A key gives the next state and at most one effect for explorer.ts to run.
 */
import type { KeyEvent } from '../keys/types.js';
import type { PatchFile } from './patch-files.js';

export type ExplorerView = 'session' | 'git';

export interface ExplorerGroup {
  title: string;
  /** The turn whose checkpoint the files go back to; null in the git view. */
  turnId: string | null;
  files: PatchFile[];
}

export type ViewContent = { status: 'loading' } | { status: 'message'; text: string } | { status: 'ready'; groups: ExplorerGroup[] };

export type ExplorerPrompt = { kind: 'save'; path: string } | { kind: 'confirmRevert'; paths: string[] };

export interface ExplorerState {
  view: ExplorerView;
  session: ViewContent;
  git: ViewContent;
  /** Index into the current view's files, in list order. */
  selected: number;
  /** The selected file's diff is open; `top` is its first row shown. */
  diffOpen: boolean;
  top: number;
  prompt: ExplorerPrompt | null;
  notice: { text: string; error: boolean } | null;
  /** Files reverted here, as `turnId\0path`, drawn so. */
  reverted: string[];
}

export interface SelectedFile {
  file: PatchFile;
  group: ExplorerGroup;
}

export type ExplorerEffect =
  | { kind: 'close' }
  | { kind: 'revert'; force: boolean }
  | { kind: 'copy' }
  | { kind: 'save'; path: string }
  | { kind: 'load'; view: ExplorerView };

export interface KeyResult {
  state: ExplorerState;
  effect?: ExplorerEffect;
}

export const TOGGLE_KEY = 'Tab';

export function initialExplorer(view: ExplorerView = 'session'): ExplorerState {
  return {
    view,
    session: { status: 'loading' },
    git: { status: 'loading' },
    selected: 0,
    diffOpen: false,
    top: 0,
    prompt: null,
    notice: null,
    reverted: [],
  };
}

export function contentOf(state: ExplorerState, view: ExplorerView = state.view): ViewContent {
  return view === 'session' ? state.session : state.git;
}

/** The current view's files in list order, each with its group. */
export function filesOf(state: ExplorerState): SelectedFile[] {
  const content = contentOf(state);
  if (content.status !== 'ready') return [];
  return content.groups.flatMap((group) => group.files.map((file) => ({ file, group })));
}

export function selectedFile(state: ExplorerState): SelectedFile | null {
  const files = filesOf(state);
  return files[Math.min(state.selected, files.length - 1)] ?? null;
}

export function revertKey(turnId: string | null, path: string): string {
  return `${turnId ?? ''}\u0000${path}`;
}

/** A view's content arrived: the selection stays in range. */
export function withContent(state: ExplorerState, view: ExplorerView, content: ViewContent): ExplorerState {
  const next = view === 'session' ? { ...state, session: content } : { ...state, git: content };
  const count = filesOf(next).length;
  return { ...next, selected: Math.max(0, Math.min(next.selected, count - 1)) };
}

/** Where `s` saves the selected file's patch unless the user types another path. */
export function defaultSavePath(selected: SelectedFile, turnNumber: number | null): string {
  const base = selected.file.path.split('/').pop() || 'changes';
  return turnNumber === null ? `${base}.patch` : `${base}.turn-${turnNumber}.patch`;
}

const isChar = (key: KeyEvent, char: string): boolean => key.name === 'char' && !key.ctrl && !key.alt && key.char === char;

function promptKey(state: ExplorerState, prompt: ExplorerPrompt, key: KeyEvent): KeyResult {
  const cancelled = { ...state, prompt: null, notice: { text: 'Cancelled.', error: false } };
  if (key.name === 'escape' || (key.ctrl && key.char === 'c')) return { state: cancelled };
  if (prompt.kind === 'confirmRevert') {
    if (key.name === 'enter' || isChar(key, 'y'))
      return { state: { ...state, prompt: null, notice: null }, effect: { kind: 'revert', force: true } };
    if (isChar(key, 'n')) return { state: cancelled };
    return { state };
  }
  if (key.name === 'enter') {
    const path = prompt.path.trim();
    if (path === '') return { state: { ...state, notice: { text: 'Type a path to save the patch to.', error: true } } };
    return { state: { ...state, prompt: null, notice: null }, effect: { kind: 'save', path } };
  }
  if (key.name === 'backspace') return { state: { ...state, prompt: { ...prompt, path: [...prompt.path].slice(0, -1).join('') } } };
  if (key.name === 'char' && !key.ctrl && !key.alt && key.char !== undefined) {
    return { state: { ...state, prompt: { ...prompt, path: prompt.path + key.char } } };
  }
  return { state };
}

/** A paste while the save prompt is open goes into the path. */
export function explorerPaste(state: ExplorerState, text: string): ExplorerState {
  if (state.prompt?.kind !== 'save') return state;
  return { ...state, prompt: { ...state.prompt, path: state.prompt.path + text.replace(/[\r\n]+/g, '') } };
}

/**
 * What `key` does. `height`: rows of diff on screen (a page; the caller keeps `top` within the
 * diff, End asks for its last page); `turnNumber`: the selected file's turn, for the default save path.
 */
export function explorerKey(state: ExplorerState, key: KeyEvent, height: number, turnNumber: number | null = null): KeyResult {
  if (state.prompt !== null) return promptKey(state, state.prompt, key);
  const s = { ...state, notice: null };
  const selected = selectedFile(s);
  if (key.name === 'escape' || isChar(key, 'q') || (key.ctrl && key.char === 'c')) {
    return s.diffOpen ? { state: { ...s, diffOpen: false, top: 0 } } : { state: s, effect: { kind: 'close' } };
  }
  if (key.name === 'tab' && !s.diffOpen) {
    const view: ExplorerView = s.view === 'session' ? 'git' : 'session';
    const next = { ...s, view, selected: 0 };
    return contentOf(next).status === 'loading' ? { state: next, effect: { kind: 'load', view } } : { state: next };
  }
  if (selected !== null) {
    if (isChar(key, 'r')) {
      if (selected.group.turnId === null) {
        return {
          state: { ...s, notice: { text: `r reverts a file of this session's turns (${TOGGLE_KEY}: session view).`, error: true } },
        };
      }
      return { state: s, effect: { kind: 'revert', force: false } };
    }
    if (isChar(key, 'y')) return { state: s, effect: { kind: 'copy' } };
    if (isChar(key, 's')) return { state: { ...s, prompt: { kind: 'save', path: defaultSavePath(selected, turnNumber) } } };
  }
  if (s.diffOpen) {
    const page = Math.max(1, height);
    if (key.name === 'up' || isChar(key, 'k')) return { state: { ...s, top: Math.max(0, s.top - 1) } };
    if (key.name === 'down' || isChar(key, 'j')) return { state: { ...s, top: s.top + 1 } };
    if (key.name === 'pageup' || isChar(key, 'b')) return { state: { ...s, top: Math.max(0, s.top - page) } };
    if (key.name === 'pagedown' || isChar(key, ' ')) return { state: { ...s, top: s.top + page } };
    if (key.name === 'home' || isChar(key, 'g')) return { state: { ...s, top: 0 } };
    if (key.name === 'end' || isChar(key, 'G')) return { state: { ...s, top: Number.MAX_SAFE_INTEGER } };
    return { state: s };
  }
  const count = filesOf(s).length;
  if (key.name === 'up' || isChar(key, 'k')) return { state: { ...s, selected: Math.max(0, s.selected - 1) } };
  if (key.name === 'down' || isChar(key, 'j')) return { state: { ...s, selected: Math.max(0, Math.min(count - 1, s.selected + 1)) } };
  if (key.name === 'home') return { state: { ...s, selected: 0 } };
  if (key.name === 'end') return { state: { ...s, selected: Math.max(0, count - 1) } };
  if (key.name === 'enter' && selected !== null) return { state: { ...s, diffOpen: true, top: 0 } };
  return { state: s };
}
