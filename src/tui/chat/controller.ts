/**
 * The chat layer (docs/codex-parity.md#key-dispatch-order, #turn-input-and-steering): keys go to the
 * approval modal, the Ctrl+C / Esc / Alt+Up / Ctrl+D handlers, then the composer reducer; its
 * results become turns, steers and queued follow-ups (the waiting rows: pending-inputs.ts), local
 * shell commands and slash commands (local-commands.ts); the app server's notifications
 * (notifications.ts) become transcript cells and live output in the store, and drive the turn
 * lifecycle kept here.
 *
 * Nothing typed is dropped: every refused or failed submission goes back into the composer, and an
 * interrupt restores the pending, rejected and queued messages there.
 */
import { errorMessage } from '../../error-message.js';
import type { AppServerClient, ThreadResumeResult, ThreadStartResult, TillerInstructionFile, Turn, V2UserInput } from '../../protocol/api.js';
import { sandboxPolicyOf } from '../../protocol/sandbox-policy.js';
import type { TillerConfig } from '../../runtime/config.js';
import { TILLER_VERSION } from '../../version.js';
import { composerReducer } from '../composer/reducer.js';
import { currentDraft, restorableDraft } from '../composer/selectors.js';
import { parseSlash, isKnownCommand } from '../composer/slash-commands.js';
import { attachmentLabel } from '../composer/state.js';
import type { Attachment, ComposerEvent, InputResult, QueuedInputAction, SkillInfo, Submission } from '../composer/types.js';
import type { InputEvent, KeyEvent } from '../keys/types.js';
import type { PendingPaste } from '../composer/history.js';
import { buildUserInputs, compareKey, interruptTurn, submitUserTurn, type SkillRef, type TurnSettings } from '../routing.js';
import { withCells, type ChatState, type ChatStore, type NewCell } from '../store.js';
import { backtrackEsc, backtrackOtherKey, IDLE, selectingKey, type BacktrackStep } from './backtrack.js';
import { collapsePastes, type AttachmentProbe } from './prompt-draft.js';
import { Sessions, type SessionStart } from './sessions.js';
import { INTERRUPTED_MESSAGE } from './transcript-restore.js';
import type { CopyResult } from '../terminal/clipboard-copy.js';
import type { ExternalEditResult } from '../terminal/external-editor.js';
import { isEditQueuedKey, pickerKey, unhandledKey, type ModalKeyAction } from './app-keys.js';
import { APPROVAL_PRESETS, nextApprovalMode, presetIndexOf } from './approval-modes.js';
import { TurnSettingsControl } from './turn-settings.js';
import { ApprovalQueue, type ApprovalParams } from './approvals.js';
import { approvalNotification, AttentionNotifier, TURN_FINISHED_NOTIFICATION } from './attention.js';
import { ComposerTicks, IMAGES_NOT_SUPPORTED_MESSAGE, runComposerEffect, type ClipboardResult, type ComposerEffectsHost } from './composer-effects.js';
import type { Schedule } from './delta-buffer.js';
import { LiveOutput } from './live-output.js';
import { configuredMcpServerNames, listMcpServers } from './mcp.js';
import type { FeedbackSink } from './feedback.js';
import { LocalCommands, unrecognizedCommandText, type LocalShellResult } from './local-commands.js';
import { NotificationRouter, type TurnLifecycle } from './notifications.js';
import { isEmptySubmission, mergeSubmissions } from './merge.js';
import { PendingInputs, userCell, type TurnOrigin } from './pending-inputs.js';
import { isCtrl } from '../keys/ctrl.js';
import { isManageKey, isSendNowKey } from './pending-keys.js';
import { PendingManager } from './pending-manager.js';
import { waitingInOrder } from './pending.js';
import { PromptKeys } from './prompt-keys.js';
import { TurnTracker } from './turn-tracker.js';
import { runUserShell } from './user-shell.js';
import type { DraftJournalPort } from './draft-journal.js';
import { DraftRestore } from './draft-restore.js';

export const QUIT_HINT_MS = 1000;
export { INTERRUPTED_MESSAGE };
export const STEER_INTERRUPT_MESSAGE = 'Model interrupted to submit steer instructions.';
export const SEND_NOW_MESSAGE = 'Model interrupted to send this message now; the other waiting messages stay where they are.';

/** `tiller PROMPT -i IMAGE`: the prompt goes out as the first message; images alone wait in the composer. */
export interface InitialInput {
  text: string;
  attachments: Array<Omit<Attachment, 'placeholder'>>;
}

export interface ChatControllerOptions {
  client: AppServerClient;
  store: ChatStore;
  config: Pick<
    TillerConfig,
    | 'model'
    | 'reasoningEffort'
    | 'approvalPolicy'
    | 'sandboxMode'
    | 'sandboxWritableRoots'
    | 'sandboxNetworkAccess'
    | 'modelSupportsImages'
    | 'vimModeDefault'
    | 'warnings' | 'notify'
  > &
    /** `[mcp_servers.*]`: their names for the `@` popup (absent: none). */
    Partial<Pick<TillerConfig, 'mcpServers'>>;
  cwd: string;
  now: () => number;
  schedule: Schedule;
  /** A `!cmd`; by default through the app server (tiller/shellCommand), so the model hears of it. */
  runLocalShell?: (command: string) => Promise<LocalShellResult>;
  readClipboardImage: () => Promise<ClipboardResult>;
  searchFiles: ComposerEffectsHost['searchFiles'];
  /** Ctrl+O: text onto the system or terminal clipboard. */
  copyToClipboard?: (text: string) => Promise<CopyResult>;
  /** Ctrl+G: the draft in the user's editor, the terminal handed over meanwhile. */
  editExternally?: (text: string) => Promise<ExternalEditResult>;
  history?: { append(text: string): Promise<void>; loadRecent(): Promise<string[]> };
  /** Skills for the `$` popup, `$name` mentions and /skills (e.g. `() => listSkills(config.skillsDir)`). */
  loadSkills?: () => Promise<SkillInfo[]>;
  platform?: NodeJS.Platform;
  /** `/feedback` writes its diagnostic report here. */
  feedback: FeedbackSink;
  /** Where a desktop notification goes (the terminal); none without it. See attention.ts. */
  writeToTerminal?: (data: string) => void;
  initialInput?: InitialInput;
  /** The thread to open (default: a new one). */
  session?: SessionStart;
  /** `-m` as given: a resumed thread goes on with it (else with the model it had). */
  explicitModel?: string;
  /** Reads an image or audio file again (backtrack puts a prompt's attachments back); none: they are not. */
  probeAttachment?: AttachmentProbe;
  /** Unsent input saved by an earlier run (draft-journal.ts): put back at launch and by restoreFor. */
  draftJournal?: DraftJournalPort;
}

export class ChatController {
  private readonly client: AppServerClient;
  private readonly store: ChatStore;
  private readonly live: LiveOutput;
  private readonly approvals: ApprovalQueue;
  private readonly notifications: NotificationRouter;
  private readonly local: LocalCommands;
  private readonly effectsHost: ComposerEffectsHost;
  // The composer's taskRunning (Tab queues while a turn runs) follows the tracker, from Enter on.
  private readonly turns = new TurnTracker((running) => this.dispatchComposer({ type: 'setTaskRunning', running }));
  private readonly promptKeys: PromptKeys;
  private submitSteersAfterInterrupt = false;
  /** Ctrl+Enter (or `n` in the list): the message the next interrupt is for, sent alone once it is in. */
  private sendNowAfterInterrupt: Submission | null = null;
  /** The composer's Enter is Ctrl+Enter's: its submission is sent alone at once. */
  private sendNowKey = false;
  private readonly manager: PendingManager;
  private vimEnabled: boolean;
  private chain: Promise<void> = Promise.resolve();
  private readonly timers = new Set<() => void>();
  private unsubscribe: (() => void) | null = null;
  private lastSent: V2UserInput[] | null = null;
  private skillsLoading = false;
  /** The skills last given to the composer (JSON), to tell a changed list. */
  private skillsKey: string | null = null;

  /** The thread the chat is in: the store's (the footer and the exit line read it there too). */
  private get threadId(): string | null {
    return this.store.getState().threadId;
  }

  /** The skills `$name` may mention: the composer's list (its popup shows them). */
  private get skills(): readonly SkillRef[] {
    return this.store.getState().composer.skills;
  }
  /** Model, effort and approval mode of the next turn/start, and their pickers. */
  private readonly settings: TurnSettingsControl;
  private readonly pending: PendingInputs;
  private readonly attention: AttentionNotifier;
  /** The AGENTS.md files of the current thread (thread/start's `tillerInstructions`), for /status. */
  private instructionFiles: TillerInstructionFile[] = [];
  private readonly sessions: Sessions;
  private readonly drafts: DraftRestore;

  constructor(private readonly opts: ChatControllerOptions) {
    this.client = opts.client;
    this.store = opts.store;
    this.vimEnabled = opts.config.vimModeDefault;
    this.live = new LiveOutput(opts.store, this.later);
    this.approvals = new ApprovalQueue(opts.store, opts.now);
    this.attention = new AttentionNotifier(opts.config.notify ?? 'osc9', opts.writeToTerminal ?? null);
    this.promptKeys = new PromptKeys({
      prompt: () => this.store.getState().modal,
      shownAt: () => this.approvals.shownAt,
      answer: (action) => this.onModalKey(action),
      toDraft: (event, at) => this.dispatchComposer(event, at),
      later: this.later,
    });
    this.set({ approvalMode: { approvalPolicy: opts.config.approvalPolicy, sandboxMode: opts.config.sandboxMode } });
    this.settings = new TurnSettingsControl(
      { store: opts.store, client: opts.client, cell: (cell) => this.cell(cell), turnRunning: () => this.turnRunning(), configEffort: opts.config.reasoningEffort ?? null },
      opts.config.model,
    );
    this.pending = new PendingInputs(opts.store, (sub, receipt) => this.cell(userCell(sub, receipt)), opts.now);
    this.manager = new PendingManager({
      store: opts.store,
      editPending: async (clientId, action, input) => {
        const threadId = this.threadId;
        if (threadId === null) return 'notPending';
        const res = await this.client.request('tiller/pendingInput/edit', { threadId, clientId, action, ...(input !== undefined ? { input } : {}) });
        return res.status;
      },
      serialize: (task) => {
        this.chain = this.chain.then(task);
      },
      dispatchComposer: (event) => void this.dispatchComposer(event),
      turnRunning: () => this.turnRunning(),
      steer: (sub) => this.submitMessage(sub),
      resteer: (items) => this.resteer(items),
      sendNow: (sub) => this.sendNow(sub),
      buildInputs: (sub) => buildUserInputs(sub, { skills: this.skills }),
      compareKey: (items) => compareKey(items),
      maybeSendNextQueued: () => this.maybeSendNextQueued(),
      cell: (cell) => this.cell(cell),
    });
    const lifecycle: TurnLifecycle = {
      turnStarted: (turn) => this.onTurnStarted(turn),
      turnCompleted: (turn) => this.onTurnCompleted(turn),
      userMessage: (content, itemId, delivery) => {
        this.pending.commit(content, itemId, delivery);
        this.manager.reconcileFocus();
      },
      inputsReturned: (clientIds) => this.manager.returned(clientIds),
      errorShown: (turnId) => this.turns.markErrorShown(turnId),
    };
    this.notifications = new NotificationRouter(opts.store, this.live, lifecycle, () => this.threadId);
    const mcpServerNames = configuredMcpServerNames(opts.config.mcpServers);
    const ticks = new ComposerTicks(this.later, () => this.dispatchComposer({ type: 'tick' }));
    this.effectsHost = {
      dispatch: (event) => this.dispatchComposer(event),
      cell: (cell) => this.cell(cell),
      scheduleTick: (delayMs) => ticks.schedule(delayMs),
      showQuitHint: () => this.showQuitHint(),
      modelSupportsImages: opts.config.modelSupportsImages,
      readClipboardImage: opts.readClipboardImage,
      searchFiles: opts.searchFiles,
      refreshSkills: () => this.loadSkills(),
      mcpServers: () => mcpServerNames,
      ...(opts.history !== undefined ? { history: opts.history } : {}),
      ...(opts.editExternally !== undefined ? { editExternally: opts.editExternally } : {}),
    };
    this.local = new LocalCommands(opts.store, {
      runLocalShell: opts.runLocalShell ?? ((command) => runUserShell(this.client, this.threadId, command)),
      toggleVim: () => {
        this.vimEnabled = !this.vimEnabled;
        this.dispatchComposer({ type: 'setVimEnabled', enabled: this.vimEnabled });
        return this.vimEnabled;
      },
      newThread: (opts) => this.newThread(opts),
      openModePicker: () => this.set({ modePicker: { selected: Math.max(0, presetIndexOf(this.store.getState().approvalMode)) } }),
      openModelPicker: () => this.settings.openModelPicker(),
      compact: () => this.compact(),
      requestExit: () => this.requestExit(),
      inspectInput: (input) => this.client.request('tiller/inspectInput', { threadId: this.threadId, input }),
      shellsIdle: () => this.maybeSendNextQueued(),
      threadId: () => this.threadId,
      skills: () => this.skills,
      lastSent: () => this.lastSent,
      feedback: opts.feedback,
      instructionFiles: () => this.instructionFiles,
      mcpServers: () => listMcpServers(this.client),
      cwd: opts.cwd,
      sendPrompt: (text) => this.onSubmitted({ text, textElements: [], attachments: [] }),
      openResumePicker: () => this.sessions.openPicker(false),
      fork: () => this.sessions.fork(),
      ...(opts.copyToClipboard !== undefined ? { copyToClipboard: opts.copyToClipboard } : {}),
      ...(opts.platform !== undefined ? { platform: opts.platform } : {}),
    });
    this.drafts = new DraftRestore(opts.draftJournal, {
      store: this.store,
      setVimEnabled: (enabled) => {
        this.vimEnabled = enabled;
        this.dispatchComposer({ type: 'setVimEnabled', enabled });
      },
      queue: (sub, action) => this.pending.queue(sub, { action }),
      cell: (cell) => this.cell(cell),
    });
    this.sessions = new Sessions({
      client: this.client,
      store: this.store,
      cwd: opts.cwd,
      explicitModel: opts.explicitModel ?? null,
      threadId: () => this.threadId,
      mode: () => this.store.getState().approvalMode,
      adopt: (res) => this.adoptThread(res),
      startThread: () => this.startThread(),
      serialize: (task) => {
        this.chain = this.chain.then(task);
      },
      restoreDraft: (draft, pendingPastes) => this.restoreIntoComposer([draft], pendingPastes),
      probeAttachment: opts.probeAttachment ?? (() => null),
      requestExit: () => this.requestExit(),
      threadReady: () => this.maybeSendNextQueued(),
      restoreUnsent: (threadId) => this.restoreFor(threadId),
    });
  }

  // ---- lifecycle ------------------------------------------------------------------------------

  async start(): Promise<void> {
    this.unsubscribe = this.client.onNotification((n) => this.notifications.handle(n));
    // A new conversation gets the directory's unsent draft; a resumed one gets its own (restoreFor).
    if ((this.opts.session?.kind ?? 'new') === 'new') this.chain = this.chain.then(() => this.drafts.restoreCwd().catch(() => undefined));
    this.client.setServerRequestHandler((async (req: { method: 'item/commandExecution/requestApproval'; params: ApprovalParams }) => {
      const decision = this.approvals.request(req.params);
      this.attention.notify(approvalNotification(req.params.command));
      return { decision: await decision };
    }) as Parameters<AppServerClient['setServerRequestHandler']>[0]);
    for (const w of this.opts.config.warnings) this.cell({ kind: 'warning', text: w });
    const initial = this.takeInitialSubmission();
    let warnings: string[];
    try {
      await this.client.request('initialize', { clientInfo: { name: 'tiller', version: TILLER_VERSION } });
      warnings = await this.sessions.open(this.opts.session ?? { kind: 'new' });
    } catch (error) {
      this.cell({ kind: 'error', text: `Failed to start a session: ${errorMessage(error)}` });
      if (initial !== null) this.restoreIntoComposer([initial]);
      return;
    }
    for (const w of warnings) this.cell({ kind: 'warning', text: w });
    // As typed: no `!` or `/` handling, and ahead of anything typed while the thread started (or, in
    // the launch picker, until a thread is chosen).
    if (initial !== null && this.threadId === null) this.pending.queue(initial, { action: 'plain', front: true });
    else if (initial !== null) this.submitMessage(initial);
    this.loadSkills();
    if (this.opts.history !== undefined) {
      this.opts.history
        .loadRecent()
        .then((entries) => this.dispatchComposer({ type: 'loadPersistentHistory', entries }))
        .catch(() => undefined);
    }
    this.maybeSendNextQueued();
  }

  /**
   * Reads the skills (at start, and again when the composer asks with `refreshSkills` as the `$` popup
   * opens); the composer hears of them only when they changed. One read at a time.
   */
  private loadSkills(): void {
    const load = this.opts.loadSkills;
    if (load === undefined || this.skillsLoading) return;
    this.skillsLoading = true;
    load()
      .then((skills) => {
        const key = JSON.stringify(skills);
        if (key === this.skillsKey) return;
        this.skillsKey = key;
        this.dispatchComposer({ type: 'setSkills', skills });
      })
      .catch(() => undefined)
      .finally(() => {
        this.skillsLoading = false;
      });
  }

  /** The line to print once the UI is gone: how to resume this thread (null for one with no turn). */
  exitLine(): string | null {
    return this.sessions.exitLine();
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

  /**
   * `tiller PROMPT` (with `-i` images): the first message, to send once the thread is up. Images with
   * no prompt go into the composer at once, as if pasted.
   */
  private takeInitialSubmission(): Submission | null {
    const initial = this.opts.initialInput;
    if (initial === undefined) return null;
    if (initial.text.trim() === '') {
      for (const attachment of initial.attachments) this.dispatchComposer({ type: 'attach', attachment });
      return null;
    }
    const counts = { image: 0, audio: 0 };
    const attachments = initial.attachments.map((a) => ({ ...a, placeholder: attachmentLabel(a.kind, ++counts[a.kind]) }));
    return { text: initial.text, textElements: [], attachments };
  }

  /** Resolves with the thread's warnings (an AGENTS.md cut to its size cap) for the caller to show. */
  private async startThread(): Promise<string[]> {
    const mode = this.store.getState().approvalMode;
    const res = await this.client.request('thread/start', {
      model: this.settings.model,
      cwd: this.opts.cwd,
      approvalPolicy: mode.approvalPolicy,
      sandbox: mode.sandboxMode,
    });
    this.adoptThread(res);
    this.sessions.turns.reset([]);
    return res.tillerWarnings ?? [];
  }

  /** The chat works in this thread from now on: a new one, or one resumed or forked (with its effort and token usage). */
  private adoptThread(res: ThreadStartResult | ThreadResumeResult): void {
    this.settings.adopt(res);
    this.instructionFiles = res.tillerInstructions ?? [];
    this.turns.serverActive(null);
    this.set({
      threadId: res.thread.id,
      footer: { model: res.model, providerLabel: res.thread.modelProvider, offline: res.thread.modelProvider === 'offline', cwd: res.cwd, effort: this.settings.effort },
      ...('tillerTokenUsage' in res ? { tokenUsage: res.tillerTokenUsage ?? null } : {}),
    });
  }

  // ---- input ----------------------------------------------------------------------------------

  /** The cells the composer text wraps at on screen (Up/Down move by wrapped row); call on resize. */
  setComposerWidth(width: number): void {
    if (this.store.getState().composer.width === width) return;
    this.dispatchComposer({ type: 'setWidth', width });
  }

  /** The terminal's focus report (CSI I / CSI O): notifications go out only while it is unfocused. */
  setFocused(focused: boolean): void {
    this.attention.setFocused(focused);
  }

  /** A chunk of input has been read and handled: a paste still arriving waits for its next piece from now. */
  inputRead(): void {
    if (this.store.getState().composer.burst.isActive()) this.dispatchComposer({ type: 'inputRead' });
  }

  /** `at`: when the input arrived (one chunk's events share it, so a paste read in one go is one burst). */
  handleInput(event: InputEvent, at: number = this.opts.now()): void {
    if (event.type === 'key' && event.kind === 'release') return;
    // The approval prompt takes its answers and Esc / Ctrl+C; typing goes on into the draft (prompt-keys.ts).
    if (!this.promptKeys.route(event, at)) return;
    const s = this.store.getState();
    if (s.resumePicker !== null) return this.sessions.pickerInput(event);
    if (s.backtrack.phase === 'selecting') {
      if (s.pager?.highlight !== undefined) {
        if (event.type === 'key') this.onBacktrackStep(selectingKey(s.backtrack, event, this.sessions.targets()));
        return;
      }
      // The pager was closed another way (Ctrl+T): the selection goes with it.
      this.set({ backtrack: IDLE });
    }
    if (s.backtrack.phase === 'primed' && !(event.type === 'key' && event.name === 'escape')) this.set({ backtrack: backtrackOtherKey(s.backtrack) });
    if (event.type === 'key') {
      if (s.modelPicker !== null) return this.settings.modelPickerKey(event);
      if (s.modePicker !== null) return this.settings.modePickerKey(pickerKey(event, APPROVAL_PRESETS.length), s.modePicker.selected);
      if (this.manager.focused) return this.manager.key(event);
      if (this.onPendingKey(event, s)) return;
    } else if (this.manager.focused) this.set({ pendingFocus: null });
    if (this.drafts.releaseOnEnter(event, s.composer)) return this.maybeSendNextQueued();
    // Ctrl+C while a waiting message is edited puts its original back (as Esc), never clears it away.
    if (this.manager.editing && event.type === 'key' && isCtrl(event, 'c')) return this.manager.cancelEdit();
    // Ctrl+Enter submits as Enter does, the submission then sent alone at once.
    const sendNow = event.type === 'key' && isSendNowKey(event) && s.composer.popup === null;
    this.sendNowKey = sendNow;
    const handled = this.dispatchComposer(sendNow ? { ...event, ctrl: false } : event, at);
    this.sendNowKey = false;
    if (this.manager.editing && !handled && event.type === 'key' && event.name === 'escape') return this.manager.cancelEdit();
    // An Esc the composer used (closing a popup, leaving Vim's Insert mode) is not the backtrack's.
    if (handled && this.store.getState().backtrack.phase !== 'idle') this.set({ backtrack: IDLE });
    if (!handled && event.type === 'key') this.onUnhandledKey(event);
  }

  /**
   * Keys for the waiting messages before the composer's: Ctrl+Q gives the list the keyboard; Alt+Up /
   * Shift+Left take the last queued message back (as Codex's).
   */
  private onPendingKey(e: KeyEvent, s: ChatState): boolean {
    if (s.composer.popup !== null || this.manager.editing) return false;
    if (isManageKey(e)) return this.manager.focus();
    if (isEditQueuedKey(e) && (s.queued.length > 0 || s.rejectedSteers.length > 0)) {
      this.editLastQueued();
      return true;
    }
    return false;
  }

  private onUnhandledKey(e: KeyEvent): void {
    const action = unhandledKey(e, this.turnRunning(), this.store.getState().pendingSteers.length);
    if (action === 'quit') this.requestExit();
    if (action === 'clearScreen') this.local.clearScreen();
    if (action === 'copyLastAnswer') this.local.copyLastAnswer();
    if (action === 'openTranscript') this.set({ pager: { top: null } });
    if (action === 'cycleApprovalMode') this.settings.setApprovalMode(nextApprovalMode(this.store.getState().approvalMode));
    if (action === 'raiseEffort' || action === 'lowerEffort') this.settings.stepEffort(action === 'raiseEffort' ? 1 : -1);
    if (action === 'interruptAndResubmitSteers') this.submitSteersAfterInterrupt = true;
    if (action === 'interrupt' || action === 'interruptAndResubmitSteers') this.interrupt();
    if (e.name === 'escape') {
      if (action === 'none') this.onIdleEsc();
      else this.set({ backtrack: IDLE });
    }
  }

  /** Esc the composer left alone: with an empty draft and nothing running, Esc-Esc backtrack. */
  private onIdleEsc(): void {
    const s = this.store.getState();
    const draft = s.composer;
    const idle = !this.turnRunning() && !this.local.shellRunning && s.modal === null;
    if (!idle || draft.ta.text !== '' || draft.attachments.length > 0 || draft.bashMode) this.set({ backtrack: IDLE });
    else this.onBacktrackStep(backtrackEsc(s.backtrack, this.sessions.targets()));
  }

  private onBacktrackStep(step: BacktrackStep): void {
    this.set({ backtrack: step.state });
    if (step.action === 'highlight') this.set((s) => ({ pager: { top: s.pager?.top ?? null, highlight: step.state.cellId } }));
    if (step.action === 'cancel') this.set({ pager: null });
    if (step.action === 'confirm') {
      this.set({ pager: null, backtrack: IDLE });
      this.sessions.backtrackTo(step.cellId);
    }
  }

  private onModalKey(action: ModalKeyAction): void {
    if (action.type === 'ignore') return;
    this.approvals.answer(action.decision);
    if (action.quitHint) this.showQuitHint();
  }

  /**
   * Runs the composer reducer and what it asks for; false when it left the key to the app. `at` is
   * when the key was typed (a held approval letter reaches the draft later, with its own timing).
   */
  private dispatchComposer(event: ComposerEvent, at = this.opts.now()): boolean {
    const before = this.store.getState().composer;
    const { state, result, effects, handled } = composerReducer(before, event, at);
    this.set({ composer: state });
    for (const effect of effects) runComposerEffect(effect, this.effectsHost);
    this.onInputResult(result);
    return handled;
  }

  private onInputResult(result: InputResult): void {
    switch (result.type) {
      case 'none':
        return;
      case 'submitted':
        return this.onSubmitted(result);
      case 'queued':
        return this.onQueued(result, result.action);
      case 'command':
        this.local.dispatchSlash(result.command, true);
        return;
    }
  }

  // ---- submissions ----------------------------------------------------------------------------

  private turnRunning(): boolean {
    return this.turns.running;
  }

  /** A resumed or forked thread's unsent input back in the composer and queue (draft-restore.ts); true when there was some. */
  restoreFor(threadId: string): Promise<boolean> {
    return this.drafts.restoreThread(threadId).catch(() => false);
  }

  private onSubmitted(sub: Submission): void {
    if (isEmptySubmission(sub)) return;
    if (this.manager.editing) return this.manager.saveEdit(sub);
    if (this.sendNowKey && this.threadId !== null && !sub.text.startsWith('!')) return this.sendNow(sub);
    // Restored messages were typed before this one: they go first.
    if (this.drafts.release() && !this.turnRunning()) {
      this.pending.queue(sub, { action: 'plain' });
      return this.maybeSendNextQueued();
    }
    if (this.threadId === null) {
      this.pending.queue(sub, { action: 'plain', front: true });
      return;
    }
    if (sub.text.startsWith('!')) {
      this.local.runUserShell(sub.text.slice(1));
      return;
    }
    // While only a local `!` command runs, a message waits for it instead of starting a turn.
    if (this.local.shellRunning && !this.turnRunning()) {
      this.pending.queue(sub, { action: 'plain' });
      return;
    }
    this.submitMessage(sub);
  }

  private onQueued(sub: Submission, action: QueuedInputAction): void {
    if (this.manager.editing) return this.manager.saveEdit(sub);
    if (this.threadId === null || this.turnRunning()) {
      this.pending.queue(sub, { action });
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
    let cellId: number | undefined;
    if (this.turnRunning()) {
      pendingId = this.pending.addSteer(sub, items);
    } else {
      cellId = this.store.getState().nextCellId;
      this.cell(userCell(sub));
      this.beginTurnStart('Working');
    }
    const clientId = pendingId === null ? null : this.pending.clientIdOf(pendingId);
    this.sendTurn(items, {}, { submission: sub, pendingId, clientId, ...(cellId !== undefined ? { cellId } : {}) });
  }

  /** Steers the runtime no longer holds, sent again in this order under new client ids (their rows stay). */
  private resteer(rows: readonly { id: number; submission: Submission }[]): void {
    for (const row of rows) {
      const items = buildUserInputs(row.submission, { skills: this.skills });
      const clientId = this.pending.resend(row.id, items);
      this.sendTurn(items, {}, { submission: row.submission, pendingId: row.id, clientId });
    }
  }

  /**
   * Interrupt now and send only this (Ctrl+Enter, `n` in the list): the running turn stops, a new
   * one starts with just this message, and the other waiting messages stay where they are (the
   * pending steers go to the new turn). Idle, it is an ordinary submission.
   */
  private sendNow(sub: Submission): void {
    if (!this.turnRunning()) return this.submitMessage(sub);
    this.sendNowAfterInterrupt = sub;
    this.interrupt();
  }

  private beginTurnStart(status: string): void {
    this.turns.beginStart();
    this.set({ status });
  }

  private sendTurn(items: V2UserInput[], settings: TurnSettings, origin: TurnOrigin): void {
    const threadId = this.threadId;
    if (threadId === null) return;
    // The mode as it is when the message is sent (a steer carries none: its turn keeps its own).
    const { approvalPolicy, sandboxMode } = this.store.getState().approvalMode;
    const { sandboxWritableRoots: writableRoots, sandboxNetworkAccess: networkAccess } = this.opts.config;
    const sandboxPolicy = sandboxPolicyOf(sandboxMode, { writableRoots, networkAccess });
    const { model, effort } = this.settings;
    this.chain = this.chain.then(async () => {
      const effortSetting = this.settings.effortSetting(effort);
      try {
        const res = await submitUserTurn(this.client, {
          threadId,
          activeTurnId: this.turns.cachedId,
          items,
          clientId: origin.clientId ?? null,
          settings: { cwd: this.opts.cwd, model, ...effortSetting, approvalPolicy, sandboxPolicy, ...settings },
          onActiveTurnId: (id) => this.turns.serverActive(id),
        });
        if (items.length > 0) this.lastSent = items;
        if (res.kind === 'rejectedNotSteerable') {
          if (origin.pendingId !== null) this.pending.rejectSteer(origin.pendingId, `${res.turnKind} turns cannot be steered: queued`);
          return;
        }
        if (res.kind === 'steered' && origin.pendingId !== null) this.pending.steerAccepted(origin.pendingId);
        if (res.kind === 'started') {
          this.settings.turnStartedWith(effort);
          if (this.turns.startAnswered(res.turnId) === 'steered') {
            this.pending.startSteered(res.turnId, items, origin);
            if (origin.pendingId !== null) this.pending.steerAccepted(origin.pendingId);
          } else {
            this.sessions.turns.started(res.turnId);
            if (origin.cellId !== undefined) this.sessions.promptStarted(origin.cellId, res.turnId, items);
            // A steer that found no active turn became a turn of its own: show it as a prompt now.
            if (origin.pendingId !== null && this.pending.removeSteer(origin.pendingId) !== null && origin.submission !== null) {
              const cellId = this.store.getState().nextCellId;
              this.cell(userCell(origin.submission));
              this.sessions.promptStarted(cellId, res.turnId, items);
            }
            if (this.turns.running && this.store.getState().status === null) this.set({ status: 'Working' });
          }
          this.sendDeferredInterrupt();
        }
      } catch (error) {
        if (origin.pendingId !== null) this.pending.removeSteer(origin.pendingId);
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

  /** Alt+Up / Shift+Left: the latest queued message (else the latest rejected steer) back into the composer. */
  private editLastQueued(): void {
    const popped = this.pending.popLastQueued();
    if (popped !== null) this.restoreIntoComposer([popped]);
  }

  /**
   * Once idle, send queued messages until one starts a turn or a local `!` command (its end resumes
   * the drain); rejected steers go first (docs/codex-parity.md#when-input-waits-in-the-client).
   */
  private maybeSendNextQueued(): void {
    while (!this.drafts.held && this.threadId !== null && !this.turnRunning() && !this.local.shellRunning) {
      // A message being edited holds the queue at it (FIFO: what comes after waits too).
      const front = waitingInOrder(this.store.getState()).find((l) => l.list !== 'pendingSteers');
      if (front !== undefined && this.manager.isLocked(front.item.id)) break;
      const next = this.pending.shiftNextQueued();
      if (next === null) break;
      this.sendQueued(next.submission, next.action ?? 'plain');
    }
    this.manager.reconcileFocus();
  }

  /** Sends one dequeued message: a `!` command, a deferred slash command, or a message. */
  private sendQueued(sub: Submission, action: QueuedInputAction): void {
    if (action === 'runShell' || sub.text.startsWith('!')) return this.local.runUserShell(sub.text.replace(/^!/, ''));
    const parsed = action === 'parseSlash' ? parseSlash(sub.text) : null;
    if (parsed !== null && isKnownCommand(parsed.name)) return this.local.dispatchSlash(parsed.name, false);
    if (parsed !== null) {
      this.cell({ kind: 'info', text: unrecognizedCommandText(parsed.name) });
      return this.restoreIntoComposer([sub]);
    }
    this.submitMessage(sub);
  }

  /**
   * Puts messages back into the composer ahead of the current draft (nothing is lost). The draft's
   * large pastes stay `[Pasted Content N chars]` placeholders: their payloads travel alongside.
   */
  private restoreIntoComposer(parts: Submission[], partPastes: PendingPaste[] = []): void {
    const { draft, pendingPastes } = restorableDraft(this.store.getState().composer);
    // A sent message's large pastes come back as their `[Pasted Content N chars]` labels, as typed.
    const merged = collapsePastes(mergeSubmissions([...parts, draft]));
    this.dispatchComposer({ type: 'restoreDraft', draft: merged.draft, pendingPastes: [...partPastes, ...pendingPastes, ...merged.pendingPastes] });
  }

  // ---- thread and app actions (asked for by local-commands.ts too) ------------------------------

  private compact(): void {
    if (this.threadId === null || this.turnRunning()) return;
    this.beginTurnStart('Working');
    this.sendTurn([], { kind: 'compact' }, { submission: null, pendingId: null });
  }

  private newThread({ announce }: { announce: boolean } = { announce: true }): void {
    this.chain = this.chain.then(async () => {
      try {
        const warnings = await this.startThread();
        this.set((s) => ({ cells: [], transcriptGeneration: s.transcriptGeneration + 1, tokenUsage: null, backtrack: IDLE }));
        if (announce) this.cell({ kind: 'info', text: 'Started a new conversation.' });
        for (const w of warnings) this.cell({ kind: 'warning', text: w });
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

  /** Interrupts the running turn; before its id is known, as soon as it is (sendDeferredInterrupt). */
  private interrupt(): void {
    const turnId = this.turns.requestInterrupt();
    if (turnId !== null) this.sendInterruptInOrder(() => turnId);
  }

  private sendDeferredInterrupt(): void {
    if (!this.turns.interruptRemembered) return;
    this.sendInterruptInOrder(() => this.turns.takeDeferredInterrupt());
  }

  /**
   * Queued behind the requests already sent, as Codex's ops are: a steer typed just before Esc must
   * reach the turn first (the interrupt then drops it and it is resubmitted once), or, arriving after
   * the turn ended, its fallback turn/start would send it a second time.
   */
  private sendInterruptInOrder(target: () => string | null): void {
    this.chain = this.chain.then(() => {
      const turnId = target();
      if (turnId !== null) this.sendInterrupt(turnId);
    });
  }

  private sendInterrupt(turnId: string): void {
    const threadId = this.threadId;
    if (threadId === null) return;
    interruptTurn(this.client, threadId, turnId).catch((error: unknown) => this.cell({ kind: 'error', text: errorMessage(error) }));
  }

  /** After turn/completed with status interrupted (docs/codex-parity.md#interrupts-in-the-client). */
  private onInterrupted(): void {
    this.manager.settleEditForInterrupt(this.manager.editing ? currentDraft(this.store.getState().composer) : null);
    const sendNow = this.sendNowAfterInterrupt;
    if (sendNow !== null) {
      this.sendNowAfterInterrupt = null;
      this.submitSteersAfterInterrupt = false;
      this.cell({ kind: 'info', text: SEND_NOW_MESSAGE });
      this.submitMessage(sendNow);
      // The interrupt dropped the runtime's copies of the pending steers: they go to the new turn.
      this.resteer(this.store.getState().pendingSteers);
      return;
    }
    this.set({ pendingFocus: null });
    if (this.submitSteersAfterInterrupt) {
      this.submitSteersAfterInterrupt = false;
      const steers = this.pending.takeSteers();
      this.cell({ kind: 'info', text: STEER_INTERRUPT_MESSAGE });
      if (steers.length > 0) this.submitMessage(mergeSubmissions(steers));
      else this.maybeSendNextQueued();
      return;
    }
    this.cell({ kind: 'error', text: INTERRUPTED_MESSAGE });
    const items = this.pending.takeAll();
    if (items.length > 0) this.restoreIntoComposer(items);
  }

  // ---- turn lifecycle (from notifications.ts) -------------------------------------------------

  private onTurnStarted(turn: Turn): void {
    this.sessions.turns.started(turn.id);
    if (this.turns.turnStarted(turn.id)) this.pending.turnStarted(turn.id);
    this.set((s) => ({ activeTurn: { id: turn.id, startedAt: this.opts.now() }, status: s.status ?? 'Working' }));
    this.sendDeferredInterrupt();
  }

  private onTurnCompleted(turn: Turn): void {
    if (!this.turns.turnCompleted(turn.id)) return;
    this.live.finalize(turn.status === 'interrupted' ? 'interrupted' : 'failed');
    this.set({ activeTurn: null, status: null, statusDetail: null, preparingMedia: false });
    this.approvals.cancelAll();
    if (turn.status === 'interrupted') {
      this.onInterrupted();
      return;
    }
    const errorShown = this.turns.takeErrorShown(turn.id);
    if (turn.status === 'failed' && !errorShown) this.cell({ kind: 'error', text: turn.error?.message ?? 'The turn failed.' });
    this.maybeSendNextQueued();
    // Only once nothing else runs: a queued follow-up that started is more work, not the end of it.
    if (!this.turnRunning() && !this.local.shellRunning) this.attention.notify(TURN_FINISHED_NOTIFICATION);
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

