/**
 * The ChatWidget and BottomPane layers of reference §1.3 and the routing of §2: keys go to the
 * approval modal, the Ctrl+C / Esc / Alt+Up / Ctrl+D handlers, then the composer reducer; its
 * results become turns, steers, queued follow-ups, local shell commands and slash commands; the
 * app server's notifications become transcript cells and live output in the store.
 *
 * Nothing typed is dropped: every refused or failed submission goes back into the composer, and an
 * interrupt restores the pending, rejected and queued messages there.
 */
import type { AppServerClient, ServerNotification, Turn, V2UserInput } from '../../protocol/api.js';
import type { TillerConfig } from '../../runtime/config.js';
import { TILLER_VERSION } from '../../version.js';
import { composerReducer } from '../composer/reducer.js';
import { currentDraft, restorableDraft } from '../composer/selectors.js';
import { parseSlash, isKnownCommand } from '../composer/slash-commands.js';
import type {
  Attachment,
  ComposerEffect,
  ComposerEvent,
  InputResult,
  QueuedInputAction,
  SkillInfo,
  Submission,
} from '../composer/types.js';
import type { InputEvent, KeyEvent } from '../keys/types.js';
import { buildUserInputs, compareKey, interruptTurn, submitUserTurn, type SkillRef, type TurnSettings } from '../routing.js';
import { withCells, type ChatState, type ChatStore, type NewCell, type PendingInput } from '../store.js';
import { helpText, inspectDraft, skillsText, statusText } from './commands.js';
import { approvalKey, isEditQueuedKey, unhandledKey } from './app-keys.js';
import { ApprovalQueue, type ApprovalParams } from './approvals.js';
import type { Schedule } from './delta-buffer.js';
import { LiveOutput } from './live-output.js';
import { isEmptySubmission, mergeSubmissions } from './merge.js';
import {
  addPending,
  popLastQueued,
  rejectPendingSteer,
  removePendingSteer,
  shiftNextQueued,
  takeAllPending,
  type AddOptions,
  type PendingList,
} from './pending.js';
import { TurnTracker } from './turn-tracker.js';

export const QUIT_HINT_MS = 1000;
export const INTERRUPTED_MESSAGE =
  'Conversation interrupted - tell the model what to do differently. Something went wrong? Hit `/feedback` to report the issue.';
export const STEER_INTERRUPT_MESSAGE = 'Model interrupted to submit steer instructions.';
export const EMPTY_SHELL_MESSAGE = 'Prefix a command with ! to run it locally';
export const EMPTY_SHELL_HINT = 'Example: !ls';
export const IMAGES_NOT_SUPPORTED_MESSAGE = 'The current model does not support image input; remove the images to send this message.';

export interface LocalShellResult {
  output: string;
  exitCode: number | null;
}

export type ClipboardResult = { attachment: Omit<Attachment, 'placeholder'> } | { error: string };

export interface ChatControllerOptions {
  client: AppServerClient;
  store: ChatStore;
  config: Pick<TillerConfig, 'model' | 'approvalPolicy' | 'modelSupportsImages' | 'vimModeDefault' | 'warnings'>;
  cwd: string;
  now: () => number;
  schedule: Schedule;
  runLocalShell: (command: string) => Promise<LocalShellResult>;
  readClipboardImage: () => Promise<ClipboardResult>;
  searchFiles: (query: string) => Promise<string[]>;
  history?: { append(text: string): Promise<void>; loadRecent(): Promise<string[]> };
  /** Skills for the `$` popup, `$name` mentions and /skills (e.g. `() => listSkills(config.skillsDir)`). */
  loadSkills?: () => Promise<SkillInfo[]>;
  platform?: NodeJS.Platform;
}

/** Status while local media is read and encoded (announced by the runtime after 100 ms). */
export function preparingStatus(count: number): string {
  return count === 1 ? 'Preparing 1 attachment…' : `Preparing ${count} attachments…`;
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export class ChatController {
  private readonly client: AppServerClient;
  private readonly store: ChatStore;
  private readonly live: LiveOutput;
  private readonly approvals: ApprovalQueue;
  private readonly turns = new TurnTracker();
  private threadId: string | null = null;
  private submitSteersAfterInterrupt = false;
  private userShellsRunning = 0;
  private vimEnabled: boolean;
  private chain: Promise<void> = Promise.resolve();
  private readonly timers = new Set<() => void>();
  private unsubscribe: (() => void) | null = null;
  private lastSent: V2UserInput[] | null = null;
  private skills: SkillRef[] = [];

  constructor(private readonly opts: ChatControllerOptions) {
    this.client = opts.client;
    this.store = opts.store;
    this.vimEnabled = opts.config.vimModeDefault;
    this.live = new LiveOutput(opts.store, this.later);
    this.approvals = new ApprovalQueue(opts.store);
  }

  // ---- lifecycle ------------------------------------------------------------------------------

  async start(): Promise<void> {
    this.unsubscribe = this.client.onNotification((n) => this.onNotification(n));
    this.client.setServerRequestHandler((async (req: { method: 'item/commandExecution/requestApproval'; params: ApprovalParams }) => ({
      decision: await this.approvals.request(req.params),
    })) as Parameters<AppServerClient['setServerRequestHandler']>[0]);
    for (const w of this.opts.config.warnings) this.cell({ kind: 'warning', text: w });
    try {
      await this.client.request('initialize', { clientInfo: { name: 'tiller', version: TILLER_VERSION } });
      await this.startThread();
    } catch (error) {
      this.cell({ kind: 'error', text: `Failed to start a session: ${errorMessage(error)}` });
      return;
    }
    this.opts
      .loadSkills?.()
      .then((skills) => {
        this.skills = skills.map((k) => ({ name: k.name, path: k.path }));
        this.dispatchComposer({ type: 'setSkills', skills });
      })
      .catch(() => undefined);
    if (this.opts.history !== undefined) {
      this.opts.history
        .loadRecent()
        .then((entries) => this.dispatchComposer({ type: 'loadPersistentHistory', entries }))
        .catch(() => undefined);
    }
    this.maybeSendNextQueued();
  }

  /** Resolves when every request sent so far has been answered (tests, shutdown). */
  idle(): Promise<void> {
    return this.chain;
  }

  dispose(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
    this.live.discard();
    for (const cancel of this.timers) cancel();
    this.timers.clear();
    this.approvals.cancelAll();
  }

  private async startThread(): Promise<void> {
    const res = await this.client.request('thread/start', {
      model: this.opts.config.model,
      cwd: this.opts.cwd,
      approvalPolicy: this.opts.config.approvalPolicy,
    });
    this.threadId = res.thread.id;
    this.turns.serverActive(null);
    this.set({
      threadId: res.thread.id,
      footer: { model: res.model, providerLabel: res.thread.modelProvider, offline: res.thread.modelProvider === 'offline', cwd: res.cwd },
    });
  }

  // ---- input ----------------------------------------------------------------------------------

  /** The cells the composer text wraps at on screen (Up/Down move by wrapped row); call on resize. */
  setComposerWidth(width: number): void {
    if (this.store.getState().composer.width === width) return;
    this.dispatchComposer({ type: 'setWidth', width });
  }

  handleInput(event: InputEvent): void {
    if (event.type === 'key' && event.kind === 'release') return;
    const s = this.store.getState();
    if (event.type === 'key') {
      if (s.modal !== null) {
        // The modal owns the keyboard; the composer keeps its draft (a paste still goes there).
        this.onModalKey(event);
        return;
      }
      if (isEditQueuedKey(event) && (s.queued.length > 0 || s.rejectedSteers.length > 0) && s.composer.popup === null) {
        this.editLastQueued();
        return;
      }
    }
    const handled = this.dispatchComposer(event);
    if (!handled && event.type === 'key') this.onUnhandledKey(event);
  }

  private onUnhandledKey(e: KeyEvent): void {
    const action = unhandledKey(e, this.turnRunning(), this.store.getState().pendingSteers.length);
    if (action === 'quit') this.requestExit();
    if (action === 'interruptAndResubmitSteers') this.submitSteersAfterInterrupt = true;
    if (action === 'interrupt' || action === 'interruptAndResubmitSteers') this.interrupt();
  }

  private onModalKey(e: KeyEvent): void {
    const action = approvalKey(e);
    if (action.type === 'ignore') return;
    this.approvals.answer(action.decision);
    if (action.quitHint) this.showQuitHint();
  }

  /** Runs the composer reducer and what it asks for; false when it left the key to the app. */
  private dispatchComposer(event: ComposerEvent): boolean {
    const before = this.store.getState().composer;
    const { state, result, effects, handled } = composerReducer(before, event, this.opts.now());
    this.set({ composer: state });
    for (const effect of effects) this.runEffect(effect);
    this.onInputResult(result, before);
    return handled;
  }

  private runEffect(effect: ComposerEffect): void {
    switch (effect.type) {
      case 'info':
        return this.cell(effect.hint === undefined ? { kind: 'info', text: effect.text } : { kind: 'info', text: effect.text, hint: effect.hint });
      case 'error':
        return this.cell({ kind: 'error', text: effect.text });
      case 'scheduleTick':
        this.later(() => this.dispatchComposer({ type: 'tick' }), effect.delayMs);
        return;
      case 'persistHistory':
        this.opts.history?.append(effect.text).catch(() => undefined);
        return;
      case 'fileSearch': {
        const { query } = effect;
        this.opts
          .searchFiles(query)
          .catch(() => [])
          .then((paths) => this.dispatchComposer({ type: 'fileSearchResult', query, paths }));
        return;
      }
      case 'pasteClipboardImage':
        this.pasteClipboardImage();
        return;
      case 'quitHint':
        this.showQuitHint();
        return;
    }
  }

  private onInputResult(result: InputResult, before: ChatState['composer']): void {
    switch (result.type) {
      case 'none':
        return;
      case 'submitted':
        return this.onSubmitted(result);
      case 'queued':
        return this.onQueued(result, result.action);
      case 'command':
        this.dispatchSlash(result.command, before);
        return;
      case 'commandWithArgs':
        this.dispatchSlash(result.command, before);
        return;
    }
  }

  private pasteClipboardImage(): void {
    this.opts
      .readClipboardImage()
      .then((r) => {
        if ('error' in r) return this.cell({ kind: 'error', text: `Failed to paste image: ${r.error}` });
        if (!this.opts.config.modelSupportsImages) return this.cell({ kind: 'warning', text: IMAGES_NOT_SUPPORTED_MESSAGE });
        this.dispatchComposer({ type: 'attach', attachment: r.attachment });
      })
      .catch((error: unknown) => this.cell({ kind: 'error', text: `Failed to paste image: ${errorMessage(error)}` }));
  }

  // ---- submissions ----------------------------------------------------------------------------

  private turnRunning(): boolean {
    return this.turns.running;
  }

  private onSubmitted(sub: Submission): void {
    if (isEmptySubmission(sub)) return;
    if (this.threadId === null) {
      this.addPending('queued', sub, { action: 'plain', front: true });
      return;
    }
    if (sub.text.startsWith('!')) {
      this.runUserShell(sub.text.slice(1));
      return;
    }
    // While only a local `!` command runs, a message waits for it instead of starting a turn.
    if (this.userShellsRunning > 0 && !this.turnRunning()) {
      this.addPending('queued', sub, { action: 'plain' });
      return;
    }
    this.submitMessage(sub);
  }

  private onQueued(sub: Submission, action: QueuedInputAction): void {
    if (this.threadId === null || this.turnRunning()) {
      this.addPending('queued', sub, { action });
      return;
    }
    // The turn ended between the key and now: send it at once.
    this.sendQueued(sub, action);
  }

  /** Sends a message: a steer (pending row) while a turn runs, else a new turn (prompt cell). */
  private submitMessage(sub: Submission): void {
    if (sub.attachments.length > 0 && !this.opts.config.modelSupportsImages) {
      this.cell({ kind: 'warning', text: IMAGES_NOT_SUPPORTED_MESSAGE });
      this.restoreIntoComposer([sub]);
      return;
    }
    const items = buildUserInputs(sub, { skills: this.skills });
    let pendingId: number | null = null;
    if (this.turnRunning()) {
      pendingId = this.addPending('pendingSteers', sub, { compareKey: compareKey(items) });
    } else {
      this.cell(this.userCell(sub));
      this.beginTurnStart('Working');
    }
    this.sendTurn(items, {}, { submission: sub, pendingId });
  }

  private beginTurnStart(status: string): void {
    this.turns.beginStart();
    this.set({ status });
  }

  private sendTurn(items: V2UserInput[], settings: TurnSettings, origin: { submission: Submission | null; pendingId: number | null }): void {
    const threadId = this.threadId;
    if (threadId === null) return;
    this.chain = this.chain.then(async () => {
      try {
        const res = await submitUserTurn(this.client, {
          threadId,
          activeTurnId: this.turns.cachedId,
          items,
          settings: { cwd: this.opts.cwd, model: this.opts.config.model, approvalPolicy: this.opts.config.approvalPolicy, ...settings },
          onActiveTurnId: (id) => this.turns.serverActive(id),
        });
        if (items.length > 0) this.lastSent = items;
        if (res.kind === 'rejectedNotSteerable') {
          if (origin.pendingId !== null) this.set((s) => rejectPendingSteer(s, origin.pendingId!));
          return;
        }
        if (res.kind === 'started') {
          // A steer that found no active turn became a turn of its own: show it as a prompt now.
          if (origin.pendingId !== null && this.removePendingSteer(origin.pendingId) !== null && origin.submission !== null) {
            this.cell(this.userCell(origin.submission));
          }
          this.turns.startAnswered(res.turnId);
          if (this.turns.running && this.store.getState().status === null) this.set({ status: 'Working' });
        }
      } catch (error) {
        if (origin.pendingId !== null) this.removePendingSteer(origin.pendingId);
        else {
          this.turns.startFailed();
          if (!this.turns.running) this.set({ status: null });
        }
        this.cell({ kind: 'error', text: errorMessage(error) });
        if (origin.submission !== null) this.restoreIntoComposer([origin.submission]);
        this.maybeSendNextQueued();
      }
    });
  }

  private addPending(list: PendingList, sub: Submission, opts: AddOptions = {}): number {
    const { update, id } = addPending(this.store.getState(), list, sub, opts);
    this.set(update);
    return id;
  }

  private removePendingSteer(id: number): PendingInput | null {
    const { update, removed } = removePendingSteer(this.store.getState(), id);
    this.set(update);
    return removed;
  }

  /** Alt+Up / Shift+Left: the latest queued message (else the latest rejected steer) back into the composer. */
  private editLastQueued(): void {
    const popped = popLastQueued(this.store.getState());
    if (popped === null) return;
    this.set(popped.update);
    this.restoreIntoComposer([popped.item.submission]);
  }

  /**
   * §2.3: once idle, send queued messages until one starts a turn or a local `!` command (its end
   * resumes the drain); rejected steers go first.
   */
  private maybeSendNextQueued(): void {
    while (this.threadId !== null && !this.turnRunning() && this.userShellsRunning === 0) {
      const next = shiftNextQueued(this.store.getState());
      if (next === null) return;
      this.set(next.update);
      this.sendQueued(next.item.submission, next.item.action ?? 'plain');
    }
  }

  /** Sends one dequeued message: a `!` command, a deferred slash command, or a message. */
  private sendQueued(sub: Submission, action: QueuedInputAction): void {
    if (action === 'runShell' || sub.text.startsWith('!')) return this.runUserShell(sub.text.replace(/^!/, ''));
    const parsed = action === 'parseSlash' ? parseSlash(sub.text) : null;
    if (parsed !== null && isKnownCommand(parsed.name)) return this.dispatchSlash(parsed.name, null);
    if (parsed !== null) {
      this.cell({ kind: 'info', text: `Unrecognized command '/${parsed.name}'. Type "/" for a list of supported commands.` });
      return this.restoreIntoComposer([sub]);
    }
    this.submitMessage(sub);
  }

  /**
   * Puts messages back into the composer ahead of the current draft (nothing is lost). The draft's
   * large pastes stay `[Pasted Content N chars]` placeholders: their payloads travel alongside.
   */
  private restoreIntoComposer(parts: Submission[]): void {
    const { draft, pendingPastes } = restorableDraft(this.store.getState().composer);
    this.dispatchComposer({ type: 'restoreDraft', draft: mergeSubmissions([...parts, draft]), pendingPastes });
  }

  private userCell(sub: Submission): NewCell {
    return {
      kind: 'user',
      text: sub.text,
      textElements: sub.textElements,
      attachmentLabels: sub.attachments.map((a) => `${a.placeholder} ${a.fileName}`),
    };
  }

  // ---- local commands -------------------------------------------------------------------------

  private runUserShell(raw: string): void {
    const command = raw.trim();
    if (command === '') {
      this.cell({ kind: 'info', text: EMPTY_SHELL_MESSAGE, hint: EMPTY_SHELL_HINT });
      return;
    }
    this.runLocal(command);
  }

  /** Runs a command locally into a cell; `userShell` (a `!` command) holds messages back meanwhile. */
  private runLocal(command: string, userShell = true): void {
    if (userShell) this.userShellsRunning += 1;
    this.opts
      .runLocalShell(command)
      .then(
        (r) => this.cell({ kind: 'command', command, output: r.output, exitCode: r.exitCode, status: r.exitCode === 0 ? 'completed' : 'failed', source: 'user' }),
        (error: unknown) => this.cell({ kind: 'command', command, output: errorMessage(error), exitCode: null, status: 'failed', source: 'user' }),
      )
      .finally(() => {
        if (!userShell) return;
        this.userShellsRunning -= 1;
        if (this.userShellsRunning === 0) this.maybeSendNextQueued();
      });
  }

  /** Runs a slash command. `before` is the composer before the key (for /inspect). */
  private dispatchSlash(name: string, before: ChatState['composer'] | null): void {
    const s = this.store.getState();
    switch (name) {
      case 'vim':
        this.vimEnabled = !this.vimEnabled;
        this.dispatchComposer({ type: 'setVimEnabled', enabled: this.vimEnabled });
        this.cell({ kind: 'info', text: this.vimEnabled ? 'Vim mode enabled.' : 'Vim mode disabled.' });
        return;
      case 'new':
        this.newThread();
        return;
      case 'compact':
        if (this.threadId === null || this.turnRunning()) return;
        this.beginTurnStart('Working');
        this.sendTurn([], { kind: 'compact' }, { submission: null, pendingId: null });
        return;
      case 'clear':
        this.set((st) => ({ cells: [], transcriptGeneration: st.transcriptGeneration + 1 }));
        return;
      case 'quit':
      case 'exit':
        this.requestExit();
        return;
      case 'diff':
        this.runLocal('git diff', false);
        return;
      case 'status':
        this.cell({
          kind: 'info',
          text: statusText({ ...s.footer, threadId: this.threadId, tokenUsage: s.tokenUsage }),
        });
        return;
      case 'help':
        this.cell({ kind: 'info', text: helpText(this.opts.platform) });
        return;
      case 'skills':
        this.cell({ kind: 'info', text: skillsText(this.skills) });
        return;
      case 'inspect':
        this.inspect(before);
        return;
      default:
        this.cell({ kind: 'info', text: `Unrecognized command '/${name}'. Type "/" for a list of supported commands.` });
        return;
    }
  }

  private inspect(before: ChatState['composer'] | null): void {
    const { cell, restore } = inspectDraft(before === null ? null : currentDraft(before), this.lastSent, this.skills);
    this.cell(cell);
    if (restore !== null) this.restoreIntoComposer([restore]);
  }

  private newThread(): void {
    this.chain = this.chain.then(async () => {
      try {
        await this.startThread();
        this.set((s) => ({ cells: [], transcriptGeneration: s.transcriptGeneration + 1, tokenUsage: null }));
        this.cell({ kind: 'info', text: 'Started a new conversation.' });
      } catch (error) {
        this.cell({ kind: 'error', text: `Failed to start a new conversation: ${errorMessage(error)}` });
      }
    });
  }

  private requestExit(): void {
    this.set({ exitRequested: true });
  }

  private showQuitHint(): void {
    const until = this.opts.now() + QUIT_HINT_MS;
    this.set({ quitHintUntil: until });
    this.later(() => {
      if (this.store.getState().quitHintUntil === until) this.set({ quitHintUntil: null });
    }, QUIT_HINT_MS);
  }

  // ---- interrupt ------------------------------------------------------------------------------

  private interrupt(): void {
    const threadId = this.threadId;
    const turnId = this.turns.interruptTarget();
    if (threadId === null || turnId === null) return;
    interruptTurn(this.client, threadId, turnId).catch((error: unknown) => this.cell({ kind: 'error', text: errorMessage(error) }));
  }

  /** §2.6 after turn/completed with status interrupted. */
  private onInterrupted(): void {
    const s = this.store.getState();
    if (this.submitSteersAfterInterrupt) {
      this.submitSteersAfterInterrupt = false;
      this.set({ pendingSteers: [] });
      this.cell({ kind: 'info', text: STEER_INTERRUPT_MESSAGE });
      if (s.pendingSteers.length > 0) this.submitMessage(mergeSubmissions(s.pendingSteers.map((p) => p.submission)));
      else this.maybeSendNextQueued();
      return;
    }
    this.cell({ kind: 'error', text: INTERRUPTED_MESSAGE });
    const { update, items } = takeAllPending(s);
    this.set(update);
    if (items.length > 0) this.restoreIntoComposer(items.map((p) => p.submission));
  }

  // ---- notifications --------------------------------------------------------------------------

  private onNotification(n: ServerNotification): void {
    if ('threadId' in n.params && this.threadId !== null && n.params.threadId !== this.threadId) return;
    switch (n.method) {
      case 'turn/started':
        return this.onTurnStarted(n.params.turn);
      case 'item/started':
        if (n.params.item.type !== 'userMessage') this.resumeWorking();
        return this.live.itemStarted(n.params.item);
      case 'item/agentMessage/delta':
        this.resumeWorking();
        this.live.agentDelta(n.params.delta);
        return;
      case 'item/commandExecution/outputDelta':
        this.live.commandDelta(n.params.delta);
        return;
      case 'item/completed':
        if (n.params.item.type === 'userMessage') return this.commitSteer(n.params.item.content);
        return this.live.itemCompleted(n.params.item);
      case 'turn/completed':
        return this.onTurnCompleted(n.params.turn);
      case 'error':
        if (n.params.willRetry) {
          this.set({ status: n.params.error.message, statusDetail: n.params.error.additionalDetails });
        } else {
          this.turns.markErrorShown(n.params.turnId);
          this.cell({ kind: 'error', text: n.params.error.message });
        }
        return;
      case 'thread/tokenUsage/updated':
        this.set({ tokenUsage: n.params.tokenUsage });
        return;
      case 'warning':
        this.cell({ kind: 'warning', text: n.params.message });
        return;
      case 'turn/mediaPreparation':
        if (n.params.state === 'started') this.set({ status: preparingStatus(n.params.count), preparingMedia: true });
        else this.set({ status: 'Working', preparingMedia: false });
        return;
      case 'hook/completed':
        if (n.params.blocked) this.cell({ kind: 'warning', text: n.params.message ?? 'A UserPromptSubmit hook blocked the message.' });
        return;
      default:
        return;
    }
  }

  private onTurnStarted(turn: Turn): void {
    this.turns.turnStarted(turn.id);
    this.set((s) => ({ activeTurn: { id: turn.id, startedAt: this.opts.now() }, status: s.status ?? 'Working' }));
    this.dispatchComposer({ type: 'setTaskRunning', running: true });
  }

  private resumeWorking(): void {
    const s = this.store.getState();
    if (s.activeTurn !== null && s.status !== 'Working') this.set({ status: 'Working', statusDetail: null });
  }

  /** §2.5: a recorded userMessage commits the FRONT pending steer when its compare key matches. */
  private commitSteer(content: V2UserInput[]): void {
    const front = this.store.getState().pendingSteers[0];
    if (front === undefined || front.compareKey !== compareKey(content)) return;
    this.set((s) => ({ pendingSteers: s.pendingSteers.slice(1) }));
    this.cell(this.userCell(front.submission));
  }

  private onTurnCompleted(turn: Turn): void {
    if (!this.turns.turnCompleted(turn.id)) return;
    this.live.finalize(turn.status === 'interrupted' ? 'interrupted' : 'failed');
    this.set({ activeTurn: null, status: null, statusDetail: null, preparingMedia: false });
    this.dispatchComposer({ type: 'setTaskRunning', running: false });
    this.approvals.cancelAll();
    if (turn.status === 'interrupted') {
      this.onInterrupted();
      return;
    }
    const errorShown = this.turns.takeErrorShown(turn.id);
    if (turn.status === 'failed' && !errorShown) this.cell({ kind: 'error', text: turn.error?.message ?? 'The turn failed.' });
    this.maybeSendNextQueued();
  }

  // ---- store helpers --------------------------------------------------------------------------

  private set(update: Partial<ChatState> | ((s: ChatState) => Partial<ChatState>)): void {
    this.store.setState(update);
  }

  private cell(cell: NewCell): void {
    this.set((s) => withCells(s, [cell]));
  }

  /** Schedules through the injected scheduler and keeps the cancel so dispose() can stop it. */
  private readonly later: Schedule = (fn, ms) => {
    const cancel = this.opts.schedule(() => {
      this.timers.delete(cancel);
      fn();
    }, ms);
    this.timers.add(cancel);
    return () => {
      this.timers.delete(cancel);
      cancel();
    };
  };
}

