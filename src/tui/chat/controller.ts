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
import type { AppServerClient, ThreadResumeResult, ThreadStartResult, TillerInstructionFile } from '../../protocol/api.js';
import { isBurstActive } from '../composer/paste-burst.js';
import { composerReducer } from '../composer/reducer.js';
import type { ComposerEvent, InputResult } from '../composer/types.js';
import { initialSubmission } from './turn/initial-submission.js';
import type { InputEvent } from '../keys/types.js';
import { buildUserInputs, compareKey, type SkillRef } from '../routing.js';
import { withCells, type ChatState, type ChatStore, type NewCell } from '../store.js';
import { IDLE } from './sessions/backtrack.js';
import { Sessions } from './sessions/sessions.js';
import { Rewinds } from './rewind/rewind.js';
import { INTERRUPTED_MESSAGE } from './sessions/transcript-restore.js';
import { type ModalKeyAction } from './input/app-keys.js';
import { presetIndexOf } from './approvals/approval-modes.js';
import { TurnSettingsControl } from './turn/turn-settings.js';
import { RequestChain } from './turn/request-chain.js';
import { TurnFlow } from './turn/turn-flow.js';
import { patchPromptKey } from './approvals/patch-keys.js';
import { ApprovalQueue } from './approvals/approvals.js';
import { AttentionNotifier } from './attention.js';
import { approvalParamsOf } from './approvals/patch-approval.js';
import { QuestionQueue } from './questions/question-queue.js';
import { type PromptParams, serverRequestHandler } from './server-requests.js';
import { ComposerTicks, runComposerEffect, type ComposerEffectsHost } from './input/composer-effects.js';
import { skillsRefresher } from './skills-refresh.js';
import { trackedSchedule } from './tracked-schedule.js';
import type { Schedule } from './turn/delta-buffer.js';
import { LiveOutput } from './turn/live-output.js';
import { configuredMcpServerNames, listMcpServers } from './commands/mcp.js';
import { LocalCommands } from './commands/local-commands.js';
import { NotificationRouter, type TurnLifecycle } from './turn/notifications.js';
import { PendingInputs, userCell } from './pending/pending-inputs.js';
import { editPendingInput, PendingManager } from './pending/pending-manager.js';
import { PromptKeys } from './approvals/prompt-keys.js';
import { TurnTracker } from './turn/turn-tracker.js';
import { runUserShell } from './commands/user-shell.js';
import { DraftRestore } from './sessions/draft-restore.js';
import { InputRouter } from './input/input-router.js';
import { type ChatControllerOptions, TUI_INITIALIZE } from './controller-options.js';
import { exitLines } from './turn/token-usage.js';
import { QuitKeys } from './input/quit-keys.js';
import { ReviewPickers } from './review/review-pickers.js';

export { INTERRUPTED_MESSAGE };
export { SEND_NOW_MESSAGE, STEER_INTERRUPT_MESSAGE } from './turn/turn-flow.js';

export type { ChatControllerOptions, InitialInput } from './controller-options.js';

export class ChatController {
  private readonly client: AppServerClient;
  private readonly store: ChatStore;
  private readonly live: LiveOutput;
  private readonly approvals: ApprovalQueue;
  private readonly questions: QuestionQueue;
  private readonly notifications: NotificationRouter;
  private readonly local: LocalCommands;
  private readonly effectsHost: ComposerEffectsHost;
  // The composer's taskRunning (Tab queues while a turn runs) follows the tracker, from Enter on.
  private readonly turns = new TurnTracker((running) => this.dispatchComposer({ type: 'setTaskRunning', running }));
  private readonly promptKeys: PromptKeys;
  private readonly manager: PendingManager;
  private vimEnabled: boolean;
  private readonly chain = new RequestChain();
  /** Submissions, the queue and interrupts (turn-flow.ts). */
  private readonly flow: TurnFlow;
  private readonly timers = new Set<() => void>();
  private unsubscribe: (() => void) | null = null;
  private readonly loadSkills: () => void;
  /** Schedules through the injected scheduler and keeps the cancel so dispose() can stop it. */
  private readonly later: Schedule;

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
  readonly sessions: Sessions; // public: main.ts asks it why a launch could not open its session
  private readonly drafts: DraftRestore;
  private readonly router: InputRouter;
  private readonly quit: QuitKeys;
  private readonly reviewPickers: ReviewPickers;
  /** Esc-Esc backtrack's choice, /undo and /redo (rewind/rewind.ts). */
  private readonly rewinds: Rewinds;

  constructor(private readonly opts: ChatControllerOptions) {
    this.later = trackedSchedule(opts.schedule, this.timers);
    this.loadSkills = skillsRefresher(opts.loadSkills, (skills) => this.dispatchComposer({ type: 'setSkills', skills }));
    this.client = opts.client;
    this.store = opts.store;
    this.vimEnabled = opts.config.vimModeDefault;
    this.live = new LiveOutput(opts.store, this.later);
    this.quit = new QuitKeys(opts.store, opts.now, this.later);
    this.approvals = new ApprovalQueue(opts.store, opts.now);
    this.questions = new QuestionQueue(opts.store, opts.client);
    this.attention = new AttentionNotifier(opts.config.notify ?? 'osc9', opts.writeToTerminal ?? null);
    this.promptKeys = new PromptKeys({
      prompt: () => this.store.getState().modal,
      shownAt: () => this.approvals.shownAt,
      answer: (action) => this.onModalKey(action),
      toDraft: (event, at) => this.dispatchComposer(event, at),
      later: this.later,
      ownKey: (event) =>
        patchPromptKey(event, {
          approvals: this.approvals,
          cell: (cell) => this.cell(cell),
          ...(opts.editExternally !== undefined ? { editExternally: opts.editExternally } : {}),
        }),
    });
    this.set({ approvalMode: { approvalPolicy: opts.config.approvalPolicy, sandboxMode: opts.config.sandboxMode } });
    this.settings = new TurnSettingsControl(
      {
        store: opts.store,
        client: opts.client,
        cell: (cell) => this.cell(cell),
        turnRunning: () => this.turnRunning(),
        configEffort: opts.config.reasoningEffort ?? null,
      },
      opts.config.model,
    );
    this.reviewPickers = new ReviewPickers({
      store: opts.store,
      cwd: opts.cwd,
      review: (target) => this.flow.review(target),
      putInComposer: (text) => this.flow.restoreIntoComposer([{ text, textElements: [], attachments: [] }]),
      cell: (cell) => this.cell(cell),
      ...(opts.copyToClipboard !== undefined ? { copyToClipboard: opts.copyToClipboard } : {}),
    });
    this.pending = new PendingInputs(opts.store, (sub, receipt) => this.cell(userCell(sub, receipt)), opts.now);
    this.flow = new TurnFlow({
      client: opts.client,
      store: opts.store,
      config: opts.config,
      cwd: opts.cwd,
      now: opts.now,
      chain: this.chain,
      turns: this.turns,
      pending: this.pending,
      manager: () => this.manager,
      sessions: () => this.sessions,
      local: () => this.local,
      drafts: () => this.drafts,
      settings: this.settings,
      live: this.live,
      approvals: this.approvals,
      attention: this.attention,
      dispatchComposer: (event) => void this.dispatchComposer(event),
    });
    this.manager = new PendingManager({
      store: opts.store,
      editPending: (clientId, action, input) => editPendingInput(this.client, this.threadId, clientId, action, input),
      serialize: (task) => void this.chain.run(task),
      dispatchComposer: (event) => void this.dispatchComposer(event),
      turnRunning: () => this.turnRunning(),
      steer: (sub, enteredAtMs) => this.flow.submitMessage(sub, enteredAtMs),
      resteer: (items) => this.flow.resteer(items),
      sendNow: (sub) => this.flow.sendNow(sub),
      buildInputs: (sub) => buildUserInputs(sub, { skills: this.skills }),
      compareKey: (items) => compareKey(items),
      maybeSendNextQueued: () => this.flow.maybeSendNextQueued(),
      cell: (cell) => this.cell(cell),
    });
    const lifecycle: TurnLifecycle = {
      turnStarted: (turn) => {
        this.rewinds.turnStarted();
        this.flow.onTurnStarted(turn);
      },
      turnCompleted: (turn) => this.flow.onTurnCompleted(turn),
      userMessage: (content, itemId, delivery) => {
        this.pending.commit(content, itemId, delivery);
        this.manager.reconcileFocus();
      },
      inputsReturned: (clientIds) => this.manager.returned(clientIds),
      errorShown: (turnId) => this.turns.markErrorShown(turnId),
    };
    this.notifications = new NotificationRouter(opts.store, this.live, lifecycle, () => this.threadId);
    const mcpServerNames = configuredMcpServerNames(opts.config.mcpServers);
    const ticks = new ComposerTicks(this.later, opts.now, () => this.dispatchComposer({ type: 'tick' }));
    this.effectsHost = {
      dispatch: (event) => this.dispatchComposer(event),
      cell: (cell) => this.cell(cell),
      scheduleTick: (delayMs) => ticks.schedule(delayMs),
      showQuitHint: () => this.quit.hint(),
      burstHint: { shown: false },
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
      compact: () => this.flow.compact(),
      review: () => this.reviewPickers.openReviewPicker(),
      findings: () => this.reviewPickers.openFindings(),
      config: opts.config,
      requestExit: () => this.requestExit(),
      inspectInput: (input) => this.client.request('tiller/inspectInput', { threadId: this.threadId, input }),
      request: (method, params) => this.client.request(method, params),
      ...(opts.writeToTerminal !== undefined ? { writeToTerminal: opts.writeToTerminal } : {}),
      ...(opts.screenSize !== undefined ? { screenSize: opts.screenSize } : {}),
      shellsIdle: () => this.flow.maybeSendNextQueued(),
      threadId: () => this.threadId,
      skills: () => this.skills,
      lastSent: () => this.flow.lastSent,
      feedback: opts.feedback,
      instructionFiles: () => this.instructionFiles,
      mcpServers: () => listMcpServers(this.client),
      commandSessions: async (threadId) => (await this.client.request('tiller/commandSessions/list', { threadId })).data,
      stopCommandSessions: async (threadId, id) => (await this.client.request('tiller/commandSessions/stop', { threadId, id })).stopped,
      renameThread: async (threadId, name) => void (await this.client.request('thread/name/set', { threadId, name })),
      cwd: opts.cwd,
      sendPrompt: (text) => this.flow.onSubmitted({ text, textElements: [], attachments: [] }, 'enter'),
      openResumePicker: () => this.sessions.openPicker(false),
      fork: () => this.sessions.fork(),
      undo: () => this.rewinds.undo(),
      redo: () => this.rewinds.redo(),
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
      turnChoice: () => this.settings.choice(),
      keepTurnChoice: (choice) => this.settings.keep(choice),
      serialize: (task) => void this.chain.run(task),
      restoreDraft: (draft, pendingPastes) => this.flow.restoreIntoComposer([draft], pendingPastes),
      probeAttachment: opts.probeAttachment ?? (() => null),
      requestExit: () => this.requestExit(),
      threadReady: () => this.flow.maybeSendNextQueued(),
      restoreUnsent: (threadId) => this.restoreFor(threadId),
    });
    this.rewinds = new Rewinds({
      client: this.client,
      store: this.store,
      cwd: opts.cwd,
      threadId: () => this.threadId,
      backtrackTo: (cellId) => this.sessions.backtrackTo(cellId),
      returnTo: (threadId, notice) => this.sessions.returnTo(threadId, notice),
      serialize: (task) => void this.chain.run(task),
    });
    this.router = new InputRouter({
      rewinds: this.rewinds,
      store: this.store,
      overlay: opts.overlay,
      promptKeys: this.promptKeys,
      questions: this.questions,
      sessions: this.sessions,
      settings: this.settings,
      manager: this.manager,
      drafts: this.drafts,
      flow: this.flow,
      local: this.local,
      reviewPickers: this.reviewPickers,
      dispatchComposer: (event, at) => this.dispatchComposer(event, at),
      turnRunning: () => this.turnRunning(),
      quitKey: (key) => this.quit.press(key),
    });
  }

  // ---- lifecycle ------------------------------------------------------------------------------

  async start(): Promise<void> {
    this.unsubscribe = this.client.onNotification((n) => this.store.later(() => this.notifications.handle(n)));
    // A new conversation gets the directory's unsent draft; a resumed one gets its own (restoreFor).
    if ((this.opts.session?.kind ?? 'new') === 'new') this.chain.run(() => this.drafts.restoreCwd().catch(() => undefined));
    const prompt: PromptParams = (req) => approvalParamsOf(req, this.live, (cell) => this.cell(cell), this.store.getState().footer.cwd);
    this.client.setServerRequestHandler(serverRequestHandler(this.approvals, this.questions, (m) => this.attention.notify(m), prompt));
    for (const w of [...this.opts.config.warnings, ...this.local.settings.warnings]) this.cell({ kind: 'warning', text: w });
    const { submission: initial, attachNow } = initialSubmission(this.opts.initialInput);
    for (const attachment of attachNow) this.dispatchComposer({ type: 'attach', attachment });
    let warnings: string[];
    try {
      await this.client.request('initialize', TUI_INITIALIZE);
      warnings = await this.sessions.open(this.opts.session ?? { kind: 'new' });
    } catch (error) {
      this.cell({ kind: 'error', text: `Failed to start a session: ${errorMessage(error)}` });
      if (initial !== null) this.flow.restoreIntoComposer([initial]);
      return;
    }
    for (const w of warnings) this.cell({ kind: 'warning', text: w });
    // As typed: no `!` or `/` handling, and ahead of anything typed while the thread started (or, in
    // the launch picker, until a thread is chosen).
    if (initial !== null && this.threadId === null) this.pending.queue(initial, { action: 'plain', front: true });
    else if (initial !== null) this.flow.submitMessage(initial);
    this.loadSkills();
    if (this.opts.history !== undefined) {
      this.opts.history
        .loadRecent()
        .then((entries) => this.dispatchComposer({ type: 'loadPersistentHistory', entries }))
        .catch(() => undefined);
    }
    this.flow.maybeSendNextQueued();
  }

  /** Printed once the UI is gone: the resume line (a thread with a turn), the token usage under it (as Codex). */
  exitLine(): string | null {
    return exitLines(this.sessions.exitLine(), this.store.getState().tokenUsage?.total);
  }

  /** Resolves when every request sent so far has been answered (tests, shutdown). */
  idle(): Promise<void> {
    return this.chain.idle();
  }

  dispose(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
    this.live.discard();
    for (const cancel of this.timers) cancel();
    this.timers.clear();
    this.approvals.cancelAll();
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
      footer: {
        model: res.model,
        providerLabel: res.thread.modelProvider,
        offline: res.thread.modelProvider === 'offline',
        cwd: res.cwd,
        effort: this.settings.effort,
      },
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
    if (isBurstActive(this.store.getState().composer.burst)) this.dispatchComposer({ type: 'inputRead' });
  }

  /** One read's input events, in order, all arrived `at` (input/input-router.ts). */
  handleInputs(events: readonly InputEvent[], at: number): void {
    this.router.handleInputs(events, at);
  }

  /** `at`: when the input arrived (one chunk's events share it, so a paste read in one go is one burst). */
  handleInput(event: InputEvent, at: number = this.opts.now()): void {
    this.router.handleInput(event, at);
  }

  private onModalKey(action: ModalKeyAction): void {
    if (action.type === 'ignore') return;
    this.approvals.answer(action.decision);
    if (action.quitHint) this.quit.hint();
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
      case 'submitted': {
        const { mode, ...sub } = result;
        return this.flow.onSubmitted(sub, mode);
      }
      case 'queued':
        return this.flow.onQueued(result, result.action);
      case 'command':
        this.local.dispatchSlash(result.command, true, result.args ?? '');
        return;
    }
  }

  // ---- submissions ----------------------------------------------------------------------------

  private turnRunning(): boolean {
    return this.flow.turnRunning();
  }

  /** A resumed or forked thread's unsent input back in the composer and queue (draft-restore.ts); true when there was some. */
  restoreFor(threadId: string): Promise<boolean> {
    return this.drafts.restoreThread(threadId).catch(() => false);
  }

  // ---- thread and app actions (asked for by local-commands.ts too) ------------------------------

  private newThread({ announce }: { announce: boolean } = { announce: true }): void {
    this.chain.run(async () => {
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

  // ---- store helpers --------------------------------------------------------------------------

  private set(update: Partial<ChatState> | ((s: ChatState) => Partial<ChatState>)): void {
    this.store.setState(update);
  }

  private cell(cell: NewCell): void {
    this.set((s) => withCells(s, [cell]));
  }
}
