/**
 * `/diff`: the explorer overlay (explorer-state.ts its keys, explorer-lines.ts its screen). The
 * session view is the thread's checkpoints: each turn's patch (tiller/checkpoints/diff) split into
 * files; the git view is the working tree's diff as /diff always showed it (chat/commands/git-diff.ts,
 * run here, never sent to the model). `r` puts one file back through tiller/checkpoints/restore
 * with `paths`, asking first when it was changed by hand; `y` writes the file's patch as OSC 52;
 * `s` saves it where the user says.
 */
import { writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import type { ChalkInstance } from 'chalk';
import { errorMessage } from '../../error-message.js';
import type { AppServerClient } from '../../protocol/api.js';
import { diffSummary, gitDiff } from '../chat/commands/git-diff.js';
import type { InputEvent } from '../keys/types.js';
import type { ChatStore } from '../store-types.js';
import { osc52, OSC52_MAX_BYTES } from '../terminal/clipboard-copy.js';
import { bodyHeight, fileDiffRows } from './explorer-lines.js';
import {
  type ExplorerEffect,
  type ExplorerGroup,
  type ExplorerState,
  type ExplorerView,
  explorerKey,
  explorerPaste,
  initialExplorer,
  revertKey,
  selectedFile,
  type ViewContent,
  withContent,
} from './explorer-state.js';
import { splitPatch } from './patch-files.js';

export const NO_SESSION_CHANGES = 'No changes in this session yet: no turn has changed a file.';
export const NO_CHECKPOINTS = 'This session has no checkpoints (checkpoints are off, or no turn could record one).';

export interface DiffExplorerHost {
  store: ChatStore;
  cwd: string;
  threadId(): string | null;
  request: AppServerClient['request'];
  /** Raw bytes to the terminal (OSC 52); absent, `y` says it cannot copy. */
  writeToTerminal?: (data: string) => void;
  /** The screen's size now. */
  size(): { columns: number; rows: number };
  chalk: ChalkInstance;
}

/** The thread's turns in order, as the transcript knows them: number and prompt per turn id. */
function turnTitles(host: DiffExplorerHost): Map<string, { number: number; prompt: string }> {
  const titles = new Map<string, { number: number; prompt: string }>();
  for (const cell of host.store.getState().cells) {
    if (cell.kind === 'user' && cell.turnId !== null && !titles.has(cell.turnId)) {
      titles.set(cell.turnId, { number: titles.size + 1, prompt: cell.text.split('\n')[0] ?? '' });
    }
  }
  return titles;
}

export class DiffExplorer {
  constructor(private readonly host: DiffExplorerHost) {}

  private get state(): ExplorerState | null {
    return this.host.store.getState().pager?.explorer ?? null;
  }

  private set(update: (state: ExplorerState) => ExplorerState): void {
    const pager = this.host.store.getState().pager;
    if (pager?.explorer === undefined) return;
    this.host.store.setState({ pager: { ...pager, explorer: update(pager.explorer) } });
  }

  get open(): boolean {
    return this.state !== null;
  }

  /** Opens on the session's changes; a session that changed nothing yet opens on the git working tree. */
  show(): void {
    this.host.store.setState({ pager: { top: 0, explorer: initialExplorer('session') } });
    void this.load('session').then(() => {
      const state = this.state;
      if (state?.view !== 'session' || state.session.status !== 'message') return;
      this.set((s) => ({ ...s, view: 'git', selected: 0 }));
      return this.load('git');
    });
  }

  private async load(view: ExplorerView): Promise<void> {
    let content: ViewContent;
    try {
      content = view === 'session' ? await this.sessionContent() : await this.gitContent();
    } catch (error) {
      content = {
        status: 'message',
        text: `Could not read the ${view === 'session' ? "session's changes" : 'git diff'}: ${errorMessage(error)}`,
      };
    }
    this.set((state) => withContent(state, view, content));
  }

  private async sessionContent(): Promise<ViewContent> {
    const threadId = this.host.threadId();
    if (threadId === null) return { status: 'message', text: NO_SESSION_CHANGES };
    const { checkpoints } = await this.host.request('tiller/checkpoints/list', { threadId });
    if (checkpoints.length === 0) return { status: 'message', text: NO_SESSION_CHANGES };
    if (checkpoints.every((c) => c.before === null)) return { status: 'message', text: NO_CHECKPOINTS };
    const titles = turnTitles(this.host);
    const groups: ExplorerGroup[] = [];
    for (const [index, checkpoint] of checkpoints.entries()) {
      if (checkpoint.after === null) continue;
      const { patch } = await this.host.request('tiller/checkpoints/diff', { threadId, turnId: checkpoint.turnId });
      const files = patch === null ? [] : splitPatch(patch);
      if (files.length === 0) continue;
      const title = titles.get(checkpoint.turnId);
      const label = title === undefined ? `Turn ${index + 1}` : `Turn ${title.number} · ${title.prompt}`;
      groups.push({ title: label, turnId: checkpoint.turnId, files });
    }
    return groups.length === 0 ? { status: 'message', text: NO_SESSION_CHANGES } : { status: 'ready', groups };
  }

  private async gitContent(): Promise<ViewContent> {
    const result = await gitDiff(this.host.cwd);
    if (result.kind !== 'diff') return { status: 'message', text: diffSummary(result).text };
    return { status: 'ready', groups: [{ title: diffSummary(result).text, turnId: null, files: splitPatch(result.text) }] };
  }

  /** Takes every key and paste while the explorer is open. */
  handleInput(event: InputEvent): boolean {
    const state = this.state;
    if (state === null) return false;
    if (event.type === 'paste') {
      this.set((s) => explorerPaste(s, event.text));
      return true;
    }
    if (event.kind === 'release') return true;
    const { rows } = this.host.size();
    const selected = selectedFile(state);
    const turn = selected?.group.turnId == null ? null : (turnTitles(this.host).get(selected.group.turnId)?.number ?? null);
    const result = explorerKey(state, event, bodyHeight(state, rows), turn);
    if (result.effect?.kind === 'close') {
      this.host.store.setState({ pager: null });
      return true;
    }
    this.set(() => this.clampTop(result.state));
    if (result.effect !== undefined) void this.run(result.effect);
    return true;
  }

  /** An open diff scrolls no further than its last page (End asks for all of its rows). */
  private clampTop(state: ExplorerState): ExplorerState {
    const selected = selectedFile(state);
    if (!state.diffOpen || selected === null) return state;
    const { columns, rows } = this.host.size();
    const height = bodyHeight(state, rows);
    const wanted = state.top > Number.MAX_SAFE_INTEGER / 2 ? Infinity : state.top + height;
    const counted = fileDiffRows(selected.file, Math.max(10, columns), this.host.chalk, wanted);
    // Rows past the page: `top` is within the diff as it is.
    if (counted.more > 0) return state;
    const total = counted.rows.length;
    return { ...state, top: Math.max(0, Math.min(state.top, total - height)) };
  }

  private notice(text: string, error = false): void {
    this.set((s) => ({ ...s, notice: { text, error } }));
  }

  private async run(effect: ExplorerEffect): Promise<void> {
    const state = this.state;
    if (state === null) return;
    if (effect.kind === 'load') return this.load(effect.view);
    if (effect.kind === 'close') return;
    const selected = selectedFile(state);
    if (selected === null) return;
    const { file, group } = selected;
    if (effect.kind === 'copy') {
      if (this.host.writeToTerminal === undefined) return this.notice('Copying is not available here.', true);
      if (Buffer.byteLength(file.patch) > OSC52_MAX_BYTES) {
        return this.notice(`The patch of ${file.path} is too long for the terminal clipboard; save it with s.`, true);
      }
      this.host.writeToTerminal(osc52(file.patch));
      return this.notice(
        `Copied the patch of ${file.path} (${file.patch.split('\n').length - 1} lines) to the clipboard via the terminal (OSC 52).`,
      );
    }
    if (effect.kind === 'save') {
      const typed = effect.path.startsWith('~/') ? join(homedir(), effect.path.slice(2)) : effect.path;
      const path = isAbsolute(typed) ? typed : resolve(this.host.cwd, typed);
      try {
        // `wx`: an existing file is never overwritten by a default name typed through.
        await writeFile(path, file.patch, { flag: 'wx', mode: 0o644 });
        return this.notice(`Saved the patch of ${file.path} to ${path}.`);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        const why =
          code === 'EEXIST' ? 'that file exists; type another path' : code === 'ENOENT' ? 'its folder does not exist' : errorMessage(error);
        // The prompt comes back with what was typed, under the reason.
        return this.set((s) => ({
          ...s,
          prompt: { kind: 'save', path: effect.path },
          notice: { text: `Not saved (${why}): ${path}`, error: true },
        }));
      }
    }
    const threadId = this.host.threadId();
    if (group.turnId === null || threadId === null) return;
    try {
      const result = await this.host.request('tiller/checkpoints/restore', {
        threadId,
        turnId: group.turnId,
        paths: [file.path],
        force: effect.force,
      });
      if (result.status === 'userEdited') return this.set((s) => ({ ...s, prompt: { kind: 'confirmRevert', paths: result.paths } }));
      if (result.status === 'unavailable') return this.notice(`Could not revert ${file.path}: ${result.message}`, true);
      this.set((s) => ({ ...s, reverted: [...s.reverted, revertKey(group.turnId, file.path)] }));
      this.notice(`Reverted ${file.path} to before ${group.title.split(' · ')[0]}.`);
    } catch (error) {
      this.notice(`Could not revert ${file.path}: ${errorMessage(error)}`, true);
    }
  }
}
