/**
 * `chat/sessions/`: the thread the chat is in and what outlives one run of Tiller. Opening,
 * resuming, forking and backtracking a thread, printing its recorded transcript, and the draft
 * journal that keeps unsent input across runs belong together because each one replaces what the
 * screen and the composer show with what was saved.
 *
 * Saved sessions as the chat sees them: which thread the chat opens with (a new one, `tiller resume
 * ID`, the latest of this directory, or the picker), /resume and /fork, the Esc-Esc backtrack fork,
 * and the line printed on exit. Switching threads clears the screen as /new does and prints the
 * thread's recorded transcript. A thread another Tiller holds is forked instead, with a message.
 * The controller adopts each thread (its id, model and settings) and owns everything else.
 */
import { resolveSessionName } from './session-name.js';
import { errorMessage } from '../../../error-message.js';
import type {
  AppServerClient,
  ApprovalPolicy,
  SandboxMode,
  Thread,
  ThreadListResult,
  ThreadResumeResult,
  ThreadStartResult,
  Turn,
  V2UserInput,
} from '../../../protocol/api.js';
import type { PendingPaste } from '../../composer/history.js';
import type { Submission } from '../../composer/types.js';
import type { InputEvent } from '../../keys/types.js';
import { withCells, withUserTurnId, type ChatState, type ChatStore, type NewCell } from '../../store.js';
import type { TurnChoice } from '../turn/turn-settings.js';
import { backtrackTargets, IDLE } from './backtrack.js';
import { promptDraft, type AttachmentProbe } from './prompt-draft.js';
import { openResumePicker, resumePickerKey, resumePickerPaste, resumeRow, sortRows, type ResumeRow } from './resume-picker.js';
import { MAX_RESTORED_TURNS, turnPrompts, turnsToCells } from './transcript-restore.js';

/** What the chat opens with. `latest`: the newest thread of the directory (`-c`, `resume --last`). */
export type SessionStart = { kind: 'new' } | { kind: 'resume'; threadId: string } | { kind: 'latest' } | { kind: 'pick' };

export function resumeCommandLine(threadId: string): string {
  return `To continue this session, run tiller resume ${threadId}`;
}

export const NO_LATEST_SESSION_MESSAGE = 'No saved session in this directory yet: this is a new one.';

/** The pid of the Tiller that holds the thread, when resuming failed because it does. */
export function lockedBy(error: unknown): { pid: number | null } | null {
  const data = (error as { data?: unknown } | null)?.data;
  if (typeof data !== 'object' || data === null || !('tillerSessionLocked' in data)) return null;
  const lock = (data as { tillerSessionLocked: unknown }).tillerSessionLocked;
  const pid = typeof lock === 'object' && lock !== null ? (lock as { pid?: unknown }).pid : undefined;
  return { pid: typeof pid === 'number' ? pid : null };
}

/** Whether resuming failed because no session has that id. */
export function isMissingSession(error: unknown): boolean {
  const data = (error as { data?: unknown } | null)?.data;
  return typeof data === 'object' && data !== null && 'tillerNoSession' in data;
}

export function noSessionText(threadId: string): string {
  return `tiller: no saved session with id ${threadId}; 'tiller resume' lists the saved sessions.`;
}

/** The sources of a session a person typed in (`-c` and `resume --last` prefer them to `tiller exec` runs). */
export const INTERACTIVE_SOURCES: Thread['source'][] = ['cli', 'vscode', 'appServer'];

export function lockedForkText(threadId: string, pid: number | null, forkId: string): string {
  const holder = pid === null ? 'another Tiller' : `another Tiller (pid ${pid})`;
  return `Session ${threadId} is open in ${holder}, so this is a fork of it: ${forkId}.`;
}

export function forkedText(forkId: string, originalId: string): string {
  return `Forked this conversation into session ${forkId}; the original stays as it was (tiller resume ${originalId}).`;
}

export function backtrackForkText(originalId: string): string {
  return `Editing an earlier message in a new session; the conversation as it was stays in ${originalId} (tiller resume ${originalId}).`;
}

export function missingMediaText(missing: readonly string[]): string {
  return `Not put back (no longer there): ${missing.join(', ')}`;
}

/** At most this many threads are listed for the picker (pages of LIST_PAGE). */
const LIST_MAX = 1000;
const LIST_PAGE = 100;

/** The turns of the thread the chat is in, in order, and the first prompt of those on screen. */
export class ThreadTurns {
  private ids: string[] = [];
  private prompts = new Map<string, V2UserInput[]>();

  get count(): number {
    return this.ids.length;
  }

  /** A thread was opened with these turns (only the last ones shown keep their prompt). */
  reset(turns: readonly Turn[]): void {
    this.ids = turns.map((t) => t.id);
    this.prompts = turnPrompts(turns.slice(-MAX_RESTORED_TURNS));
  }

  started(turnId: string): void {
    if (!this.ids.includes(turnId)) this.ids.push(turnId);
  }

  /** The prompt a turn started with, as sent. */
  prompted(turnId: string, content: V2UserInput[]): void {
    this.started(turnId);
    this.prompts.set(turnId, content);
  }

  prompt(turnId: string): V2UserInput[] | null {
    return this.prompts.get(turnId) ?? null;
  }

  /** The turn before `turnId`: null for the first one, undefined for a turn not of this thread. */
  before(turnId: string): string | null | undefined {
    const at = this.ids.indexOf(turnId);
    return at < 0 ? undefined : at === 0 ? null : this.ids[at - 1]!;
  }

  /** Keeps the turns before `turnId`, renamed to `renamed` (the fork's ids, in order) when it has as many. */
  cutBefore(turnId: string, renamed: readonly string[]): Map<string, string> {
    const kept = this.ids.slice(0, Math.max(0, this.ids.indexOf(turnId)));
    const names = new Map<string, string>();
    const useNew = renamed.length === kept.length;
    const prompts = new Map<string, V2UserInput[]>();
    kept.forEach((id, i) => {
      const next = useNew ? renamed[i]! : id;
      names.set(id, next);
      const prompt = this.prompts.get(id);
      if (prompt !== undefined) prompts.set(next, prompt);
    });
    this.ids = kept.map((id) => names.get(id)!);
    this.prompts = prompts;
    return names;
  }
}

export interface SessionsHost {
  client: AppServerClient;
  store: ChatStore;
  cwd: string;
  /** `-m`: sent when resuming, so the thread goes on with it (else with its own model). */
  explicitModel: string | null;
  threadId(): string | null;
  /** What thread/start, thread/resume and thread/fork send as the approval policy and sandbox. */
  mode(): { approvalPolicy: ApprovalPolicy; sandboxMode: SandboxMode };
  /** The chat now works in this thread (id, model, effort, footer, token usage). */
  adopt(res: ThreadStartResult | ThreadResumeResult): void;
  /** thread/start, adopted; resolves with its warnings. */
  startThread(): Promise<string[]>;
  /** The model and effort the next turn would use; `keepTurnChoice` puts them back after a thread switch. */
  turnChoice(): TurnChoice;
  keepTurnChoice(choice: TurnChoice): void;
  /** Runs after the requests already sent (turns and interrupts go in order with thread switches). */
  serialize(task: () => Promise<void>): void;
  restoreDraft(draft: Submission, pendingPastes: PendingPaste[]): void;
  probeAttachment: AttachmentProbe;
  requestExit(): void;
  /** A thread is there at last (the launch picker chose one): messages held back may go. */
  threadReady(): void;
  /** A resumed thread's unsent input, saved by an earlier run, back in the composer and queue. */
  restoreUnsent(threadId: string): Promise<unknown>;
}

export class Sessions {
  readonly turns = new ThreadTurns();
  private listRequest: object | null = null;
  /** `tiller resume ID` with an unknown id: what to say on stderr once the UI is gone (exit 2). */
  private missing: string | null = null;

  constructor(private readonly host: SessionsHost) {}

  /** The thread the chat opens with; resolves with warnings to show. Never throws for a missing session. */
  async open(start: SessionStart): Promise<string[]> {
    switch (start.kind) {
      case 'new':
        return this.startNew();
      case 'resume':
        return this.resumeOrNew(start.threadId, { missingExits: true, byName: true });
      case 'latest': {
        const latest = await this.latest().catch((error: unknown) => {
          this.cell({ kind: 'error', text: `Could not list the saved sessions: ${errorMessage(error)}` });
          return null;
        });
        if (latest !== null) return this.resumeOrNew(latest.id);
        const warnings = await this.startNew();
        this.cell({ kind: 'info', text: NO_LATEST_SESSION_MESSAGE });
        return warnings;
      }
      case 'pick':
        this.openPicker(true);
        return [];
    }
  }

  /** Why the launch could not open the session asked for (an unknown id), or null. */
  launchFailure(): string | null {
    return this.missing;
  }

  /** The exit line: only for a thread with at least one turn (an empty one is not worth resuming). */
  exitLine(): string | null {
    const id = this.host.threadId();
    return id !== null && this.turns.count > 0 ? resumeCommandLine(id) : null;
  }

  // ---- /resume and the picker ---------------------------------------------------------------

  /** Opens the picker and fills it from thread/list, page by page. */
  openPicker(atLaunch: boolean): void {
    const request = {};
    this.listRequest = request;
    this.host.store.setState({ resumePicker: openResumePicker(atLaunch) });
    const rows: ResumeRow[] = [];
    const update = (patch: { rows?: ResumeRow[]; error?: string }): void => {
      const picker = this.host.store.getState().resumePicker;
      if (picker === null || this.listRequest !== request) return;
      this.host.store.setState({ resumePicker: { ...picker, ...patch } });
    };
    const load = async (): Promise<void> => {
      let cursor: string | null = null;
      do {
        const page: ThreadListResult = await this.host.client.request('thread/list', {
          limit: LIST_PAGE,
          ...(cursor === null ? {} : { cursor }),
        });
        if (this.listRequest !== request) return;
        rows.push(...page.data.map(resumeRow));
        update({ rows: sortRows(rows) });
        cursor = page.nextCursor ?? null;
      } while (cursor !== null && rows.length < LIST_MAX);
    };
    load().catch((error: unknown) => update({ error: `Could not list the saved sessions: ${errorMessage(error)}` }));
  }

  /** A key or a paste while the picker is open (it owns them). */
  pickerInput(event: InputEvent): void {
    const picker = this.host.store.getState().resumePicker;
    if (picker === null) return;
    if (event.type === 'paste') {
      this.host.store.setState({ resumePicker: resumePickerPaste(picker, event.text) });
      return;
    }
    const step = resumePickerKey(picker, event);
    if (step.type === 'stay') {
      this.host.store.setState({ resumePicker: step.state });
      return;
    }
    this.listRequest = null;
    this.host.store.setState({ resumePicker: null });
    if (step.type === 'cancel') {
      if (picker.atLaunch) this.host.requestExit();
      return;
    }
    if (step.threadId === this.host.threadId()) {
      this.cell({ kind: 'info', text: 'This is the session you are in.' });
      return;
    }
    if (picker.atLaunch) {
      this.host.serialize(async () => {
        for (const w of await this.resumeOrNew(step.threadId)) this.cell({ kind: 'warning', text: w });
        this.host.threadReady();
      });
      return;
    }
    this.host.serialize(() => this.switchTo(step.threadId));
  }

  /** A pick of /resume inside the chat: the screen is cleared only once the thread is there (a failure leaves it as it was). */
  private async switchTo(threadId: string, notice?: string): Promise<void> {
    try {
      const res = await this.resumeOrFork(threadId);
      this.show(res.res, { clear: true, notice: res.notice ?? notice ?? `Resumed session ${res.res.thread.id}.` });
      await this.host.restoreUnsent(res.res.thread.id);
    } catch (error) {
      this.cell({ kind: 'error', text: `Could not resume the session: ${errorMessage(error)}` });
    }
  }

  /** /redo of a conversation: back into the session it was in before the undo. */
  returnTo(threadId: string, notice: string): void {
    this.host.serialize(() => this.switchTo(threadId, notice));
  }

  // ---- /fork ----------------------------------------------------------------------------------

  fork(): void {
    const original = this.host.threadId();
    if (original === null) return;
    this.host.serialize(async () => {
      try {
        const res = await this.host.client.request('thread/fork', { threadId: original, ...this.settings() });
        this.show(res, { clear: true, notice: forkedText(res.thread.id, original) });
      } catch (error) {
        this.cell({ kind: 'error', text: `Could not fork the session: ${errorMessage(error)}` });
      }
    });
  }

  // ---- Esc-Esc backtrack ----------------------------------------------------------------------

  /**
   * Enter on a highlighted prompt: a thread holding only the turns before it (a fork, or a new
   * thread for the first prompt), the transcript up to it printed again, the prompt in the composer.
   */
  backtrackTo(cellId: number): void {
    const state = this.host.store.getState();
    const at = state.cells.findIndex((c) => c.id === cellId);
    const cell = state.cells[at];
    const original = this.host.threadId();
    if (cell?.kind !== 'user' || cell.turnId === null || original === null) return;
    const turnId = cell.turnId;
    const before = this.turns.before(turnId);
    if (before === undefined) return;
    const prompt = this.turns.prompt(turnId);
    const kept = state.cells.slice(0, at);
    const choice = this.host.turnChoice();
    this.host.serialize(async () => {
      let forkTurns: readonly Turn[] = [];
      let warnings: string[] = [];
      try {
        if (before === null) warnings = await this.host.startThread();
        else {
          const res = await this.host.client.request('thread/fork', { threadId: original, lastTurnId: before, ...this.settings() });
          this.host.adopt(res);
          forkTurns = res.thread.turns;
        }
      } catch (error) {
        this.cell({ kind: 'error', text: `Could not go back to that message: ${errorMessage(error)}` });
        return;
      }
      this.host.keepTurnChoice(choice);
      const renamed = this.turns.cutBefore(
        turnId,
        forkTurns.map((t) => t.id),
      );
      const cells: NewCell[] = kept.map(({ id: _, ...c }) =>
        c.kind === 'user' && c.turnId !== null ? { ...c, turnId: renamed.get(c.turnId) ?? null } : c,
      );
      for (const w of warnings) cells.push({ kind: 'warning', text: w });
      cells.push({ kind: 'info', text: backtrackForkText(original) });
      this.host.store.setState((s) => ({ ...withCells({ ...s, cells: [] }, cells), transcriptGeneration: s.transcriptGeneration + 1 }));
      if (prompt === null) return;
      const restored = promptDraft(prompt, this.host.probeAttachment);
      this.host.restoreDraft(restored.draft, restored.pendingPastes);
      if (restored.missing.length > 0) this.cell({ kind: 'warning', text: missingMediaText(restored.missing) });
    });
  }

  /** The prompts the backtrack can go to, oldest first. */
  targets(): number[] {
    return backtrackTargets(this.host.store.getState().cells);
  }

  /** The server answered turn/start for a prompt cell: backtrack can go to it now. */
  promptStarted(cellId: number, turnId: string, content: V2UserInput[]): void {
    this.turns.prompted(turnId, content);
    this.host.store.setState((s) => withUserTurnId(s, cellId, turnId));
  }

  // ---- opening a thread -------------------------------------------------------------------------

  /** What thread/resume and thread/fork send: the chat's settings, and only the turns the transcript shows with their items. */
  private settings(): { cwd: string; approvalPolicy: ApprovalPolicy; sandbox: SandboxMode; tillerTurnsLimit: number } {
    const mode = this.host.mode();
    return { cwd: this.host.cwd, approvalPolicy: mode.approvalPolicy, sandbox: mode.sandboxMode, tillerTurnsLimit: MAX_RESTORED_TURNS };
  }

  private async startNew(): Promise<string[]> {
    const warnings = await this.host.startThread();
    this.turns.reset([]);
    return warnings;
  }

  /** The newest session of this directory a person worked in, else the newest `tiller exec` run, or null. */
  private async latest(): Promise<Thread | null> {
    const interactive = await this.host.client.request('thread/list', { cwd: this.host.cwd, limit: 1, sourceKinds: INTERACTIVE_SOURCES });
    if (interactive.data[0] !== undefined) return interactive.data[0];
    const res = await this.host.client.request('thread/list', { cwd: this.host.cwd, limit: 1 });
    return res.data[0] ?? null;
  }

  /**
   * At launch: the thread, or its fork when another Tiller holds it; when it cannot be had, a message
   * and a new thread. `missingExits` (`tiller resume ID`): an unknown id ends Tiller instead, with
   * nothing started, so a mistyped id does not look like an empty session.
   */
  private async resumeOrNew(threadId: string, opts: { missingExits?: boolean; byName?: boolean } = {}): Promise<string[]> {
    try {
      const { res, notice } = await this.resumeOrFork(threadId);
      this.show(res, { clear: false, notice });
      await this.host.restoreUnsent(res.thread.id);
      return [];
    } catch (error) {
      // `tiller resume NAME`: not an id of a session, so perhaps the name /rename gave one.
      if (opts.byName === true && isMissingSession(error)) {
        const named = await resolveSessionName(this.host.client, threadId).catch(() => threadId);
        if (named !== threadId) return this.resumeOrNew(named, { missingExits: opts.missingExits === true });
      }
      if (opts.missingExits === true && isMissingSession(error)) {
        this.missing = noSessionText(threadId);
        this.host.requestExit();
        return [];
      }
      const warnings = await this.startNew();
      this.cell({ kind: 'error', text: `Could not resume the session: ${errorMessage(error)}. This is a new session.` });
      return warnings;
    }
  }

  private async resumeOrFork(threadId: string): Promise<{ res: ThreadResumeResult; notice: string | null }> {
    const settings = this.settings();
    const model = this.host.explicitModel === null ? {} : { model: this.host.explicitModel };
    try {
      return { res: await this.host.client.request('thread/resume', { threadId, ...settings, ...model }), notice: null };
    } catch (error) {
      const lock = lockedBy(error);
      if (lock === null) throw error;
      const res = await this.host.client.request('thread/fork', { threadId, ...settings, ...model });
      return { res, notice: lockedForkText(threadId, lock.pid, res.thread.id) };
    }
  }

  /** Adopts a resumed or forked thread and prints its transcript (after clearing the screen, for a switch). */
  private show(res: ThreadResumeResult, opts: { clear: boolean; notice: string | null }): void {
    this.host.adopt(res);
    this.turns.reset(res.thread.turns);
    const cells: NewCell[] = turnsToCells(res.thread.turns);
    for (const w of [...(res.tillerRolloutWarnings ?? []), ...(res.tillerWarnings ?? [])]) cells.push({ kind: 'warning', text: w });
    if (opts.notice !== null) cells.push({ kind: 'info', text: opts.notice });
    this.host.store.setState((s: ChatState) => {
      const base = opts.clear ? { ...s, cells: [] } : s;
      return {
        ...withCells(base, cells),
        backtrack: IDLE,
        ...(opts.clear ? { transcriptGeneration: s.transcriptGeneration + 1 } : {}),
      };
    });
  }

  private cell(cell: NewCell): void {
    this.host.store.setState((s) => withCells(s, [cell]));
  }
}
