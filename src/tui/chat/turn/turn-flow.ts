/**
 * `chat/turn/`: one turn from Enter to turn/completed, as the client sees it. Submissions and
 * interrupts (this file), what the client knows of the running turn (turn-tracker.ts), the
 * settings the next turn starts with, the ordered request chain, and the notifications and
 * streaming output that come back (notifications.ts, live-output.ts, delta-buffer.ts): everything
 * that must agree on whether a turn runs.
 *
 * From a submission to the app server and back (docs/codex-parity.md#steer-or-start,
 * #when-input-waits-in-the-client, #interrupts-in-the-client): a message becomes a new turn or a
 * steer, waits in the queue, is sent alone now (Ctrl+Enter) or drained once idle; interrupts go out
 * in order behind the requests already sent, and turn/started / turn/completed drive what happens
 * next. Every refused or failed submission goes back into the composer.
 */
import { errorMessage } from '../../../error-message.js';
import type { AppServerClient, ReviewTarget, Turn, V2UserInput } from '../../../protocol/api.js';
import { sandboxPolicyOf } from '../../../protocol/sandbox-policy.js';
import { currentDraft, restorableDraft } from '../../composer/selectors.js';
import { isKnownCommand, parseSlash } from '../../composer/slash-commands.js';
import type { ComposerEvent, QueuedInputAction, SubmitMode, Submission } from '../../composer/types.js';
import type { PendingPaste } from '../../composer/history.js';
import { buildUserInputs, interruptTurn, submitUserTurn, type SkillRef, type TurnSettings } from '../../routing.js';
import { withCells, type ChatState, type ChatStore, type NewCell } from '../../store.js';
import type { ApprovalQueue } from '../approvals/approvals.js';
import { type AttentionNotifier, TURN_FINISHED_NOTIFICATION } from '../attention.js';
import { IMAGES_NOT_SUPPORTED_MESSAGE } from '../input/composer-effects.js';
import type { DraftRestore } from '../sessions/draft-restore.js';
import type { LiveOutput } from './live-output.js';
import { type LocalCommands, unrecognizedCommandText } from '../commands/local-commands.js';
import { isEmptySubmission, mergeSubmissions } from '../pending/merge.js';
import { type PendingInputs, userCell, type TurnOrigin } from '../pending/pending-inputs.js';
import type { PendingManager } from '../pending/pending-manager.js';
import { waitingInOrder } from '../pending/pending.js';
import { collapsePastes } from '../sessions/prompt-draft.js';
import type { RequestChain } from './request-chain.js';
import type { Sessions } from '../sessions/sessions.js';
import { INTERRUPTED_MESSAGE } from '../sessions/transcript-restore.js';
import type { TurnSettingsControl } from './turn-settings.js';
import type { TurnTracker } from './turn-tracker.js';

export const STEER_INTERRUPT_MESSAGE = 'Model interrupted to submit steer instructions.';
export const SEND_NOW_MESSAGE = 'Model interrupted to send this message now; the other waiting messages stay where they are.';

export interface TurnFlowDeps {
  client: AppServerClient;
  store: ChatStore;
  config: { modelSupportsImages: boolean; sandboxWritableRoots: string[]; sandboxNetworkAccess: boolean };
  cwd: string;
  now: () => number;
  chain: RequestChain;
  turns: TurnTracker;
  pending: PendingInputs;
  manager: () => PendingManager;
  sessions: () => Sessions;
  local: () => LocalCommands;
  drafts: () => DraftRestore;
  settings: TurnSettingsControl;
  live: LiveOutput;
  approvals: ApprovalQueue;
  attention: AttentionNotifier;
  dispatchComposer(event: ComposerEvent): void;
}

export class TurnFlow {
  /** Esc with pending steers: once the interrupt is in, they go out as one message. */
  submitSteersAfterInterrupt = false;
  /** Ctrl+Enter (or `n` in the list): the message the next interrupt is for, sent alone once it is in. */
  private sendNowAfterInterrupt: Submission | null = null;
  /** The last input sent (for /inspect with an empty draft). */
  lastSent: V2UserInput[] | null = null;

  constructor(private readonly deps: TurnFlowDeps) {}

  turnRunning(): boolean {
    return this.deps.turns.running;
  }

  /** Ctrl+Enter's submission (`mode` sendNow) interrupts the running turn and goes alone. */
  onSubmitted(sub: Submission, mode: SubmitMode): void {
    if (isEmptySubmission(sub)) return;
    if (this.deps.manager().editing) return this.deps.manager().saveEdit(sub);
    if (mode === 'sendNow' && this.threadId !== null && !sub.text.startsWith('!')) return this.sendNow(sub);
    // Restored messages were typed before this one: they go first.
    if (this.deps.drafts().release() && !this.turnRunning()) {
      this.deps.pending.queue(sub, { action: 'plain' });
      return this.maybeSendNextQueued();
    }
    if (this.threadId === null) {
      this.deps.pending.queue(sub, { action: 'plain', front: true });
      return;
    }
    if (sub.text.startsWith('!')) {
      this.deps.local().runUserShell(sub.text.slice(1));
      return;
    }
    // While only a local `!` command runs, a message waits for it instead of starting a turn.
    if (this.deps.local().shellRunning && !this.turnRunning()) {
      this.deps.pending.queue(sub, { action: 'plain' });
      return;
    }
    this.submitMessage(sub);
  }

  onQueued(sub: Submission, action: QueuedInputAction): void {
    if (this.deps.manager().editing) return this.deps.manager().saveEdit(sub);
    if (this.threadId === null || this.turnRunning()) {
      this.deps.pending.queue(sub, { action });
      return;
    }
    // The turn ended between the key and now: send it at once.
    this.sendQueued(sub, action);
  }

  /**
   * Sends a message: a steer (pending row) while a turn runs, else a new turn (prompt cell).
   * `enteredAtMs`: when a message moved from the queue was first submitted.
   */
  submitMessage(sub: Submission, enteredAtMs?: number): void {
    if (sub.attachments.length > 0 && !this.deps.config.modelSupportsImages) {
      this.cell({ kind: 'warning', text: IMAGES_NOT_SUPPORTED_MESSAGE });
      this.restoreIntoComposer([sub]);
      return;
    }
    const items = buildUserInputs(sub, { skills: this.skills });
    let pendingId: number | null = null;
    let cellId: number | undefined;
    if (this.turnRunning()) {
      pendingId = this.deps.pending.addSteer(sub, items, enteredAtMs);
    } else {
      cellId = this.deps.store.getState().nextCellId;
      this.cell(userCell(sub));
      this.beginTurnStart('Working');
    }
    const clientId = pendingId === null ? null : this.deps.pending.clientIdOf(pendingId);
    this.sendTurn(items, {}, { submission: sub, pendingId, clientId, ...(cellId !== undefined ? { cellId } : {}) });
  }

  /** Steers the runtime no longer holds, sent again in this order under new client ids (their rows stay). */
  resteer(rows: readonly { id: number; submission: Submission }[]): void {
    for (const row of rows) {
      const items = buildUserInputs(row.submission, { skills: this.skills });
      const clientId = this.deps.pending.resend(row.id, items);
      this.sendTurn(items, {}, { submission: row.submission, pendingId: row.id, clientId });
    }
  }

  /**
   * Interrupt now and send only this (Ctrl+Enter, `n` in the list): the running turn stops, a new
   * one starts with just this message, and the other waiting messages stay where they are (the
   * pending steers go to the new turn). Idle, it is an ordinary submission.
   */
  sendNow(sub: Submission): void {
    if (!this.turnRunning()) return this.submitMessage(sub);
    this.sendNowAfterInterrupt = sub;
    this.interrupt();
  }

  private beginTurnStart(status: string): void {
    this.deps.turns.beginStart();
    this.set({ status });
  }

  private sendTurn(items: V2UserInput[], settings: TurnSettings, origin: TurnOrigin): void {
    const threadId = this.threadId;
    if (threadId === null) return;
    // The mode as it is when the message is sent (a steer carries none: its turn keeps its own).
    const { approvalPolicy, sandboxMode } = this.deps.store.getState().approvalMode;
    const { sandboxWritableRoots: writableRoots, sandboxNetworkAccess: networkAccess } = this.deps.config;
    const sandboxPolicy = sandboxPolicyOf(sandboxMode, { writableRoots, networkAccess });
    const { model, effort, provider } = this.deps.settings;
    this.deps.chain.run(async () => {
      const effortSetting = this.deps.settings.effortSetting(effort);
      try {
        const res = await submitUserTurn(this.deps.client, {
          threadId,
          activeTurnId: this.deps.turns.cachedId,
          items,
          clientId: origin.clientId ?? null,
          settings: {
            cwd: this.deps.cwd,
            model,
            ...effortSetting,
            ...(provider !== null ? { provider } : {}),
            approvalPolicy,
            sandboxPolicy,
            ...settings,
          },
          onActiveTurnId: (id) => this.deps.turns.serverActive(id),
        });
        if (items.length > 0) this.lastSent = items;
        if (res.kind === 'rejectedNotSteerable') {
          if (origin.pendingId !== null) this.deps.pending.rejectSteer(origin.pendingId, `${res.turnKind} turns cannot be steered: queued`);
          return;
        }
        if (res.kind === 'steered' && origin.pendingId !== null) this.deps.pending.steerAccepted(origin.pendingId);
        if (res.kind === 'started') {
          this.deps.settings.turnStartedWith(effort);
          if (this.deps.turns.startAnswered(res.turnId) === 'steered') {
            this.deps.pending.startSteered(res.turnId, items, origin);
            if (origin.pendingId !== null) this.deps.pending.steerAccepted(origin.pendingId);
          } else {
            this.deps.sessions().turns.started(res.turnId);
            if (origin.cellId !== undefined) this.deps.sessions().promptStarted(origin.cellId, res.turnId, items);
            // A steer that found no active turn became a turn of its own: show it as a prompt now.
            if (origin.pendingId !== null && this.deps.pending.removeSteer(origin.pendingId) !== null && origin.submission !== null) {
              const cellId = this.deps.store.getState().nextCellId;
              this.cell(userCell(origin.submission));
              this.deps.sessions().promptStarted(cellId, res.turnId, items);
            }
            if (this.deps.turns.running && this.deps.store.getState().status === null) this.set({ status: 'Working' });
          }
          this.sendDeferredInterrupt();
        }
      } catch (error) {
        if (origin.pendingId !== null) this.deps.pending.removeSteer(origin.pendingId);
        else {
          this.deps.turns.startFailed();
          if (!this.deps.turns.running) this.set({ status: null });
        }
        this.cell({ kind: 'error', text: errorMessage(error) });
        if (origin.submission !== null) this.restoreIntoComposer([origin.submission]);
        this.maybeSendNextQueued();
      }
    });
  }

  /** Alt+Up / Shift+Left: the latest queued message (else the latest rejected steer) back into the composer. */
  editLastQueued(): void {
    const popped = this.deps.pending.popLastQueued();
    if (popped !== null) this.restoreIntoComposer([popped]);
  }

  /**
   * Once idle, send queued messages until one starts a turn or a local `!` command (its end resumes
   * the drain); rejected steers go first (docs/codex-parity.md#when-input-waits-in-the-client).
   */
  maybeSendNextQueued(): void {
    while (!this.deps.drafts().held && this.threadId !== null && !this.turnRunning() && !this.deps.local().shellRunning) {
      // A message being edited holds the queue at it (FIFO: what comes after waits too).
      const front = waitingInOrder(this.deps.store.getState()).find((l) => l.list !== 'pendingSteers');
      if (front !== undefined && this.deps.manager().isLocked(front.item.id)) break;
      const next = this.deps.pending.shiftNextQueued();
      if (next === null) break;
      this.sendQueued(next.submission, next.action ?? 'plain');
    }
    this.deps.manager().reconcileFocus();
  }

  /** Sends one dequeued message: a `!` command, a deferred slash command, or a message. */
  sendQueued(sub: Submission, action: QueuedInputAction): void {
    if (action === 'runShell' || sub.text.startsWith('!')) return this.deps.local().runUserShell(sub.text.replace(/^!/, ''));
    const parsed = action === 'parseSlash' ? parseSlash(sub.text) : null;
    if (parsed !== null && isKnownCommand(parsed.name)) return this.deps.local().dispatchSlash(parsed.name, false, parsed.rest);
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
  restoreIntoComposer(parts: Submission[], partPastes: PendingPaste[] = []): void {
    const { draft, pendingPastes } = restorableDraft(this.deps.store.getState().composer);
    // A sent message's large pastes come back as their `[Pasted Content N chars]` labels, as typed.
    const merged = collapsePastes(mergeSubmissions([...parts, draft]));
    this.deps.dispatchComposer({
      type: 'restoreDraft',
      draft: merged.draft,
      pendingPastes: [...partPastes, ...pendingPastes, ...merged.pendingPastes],
    });
  }

  compact(): void {
    if (this.threadId === null || this.turnRunning()) return;
    this.beginTurnStart('Working');
    this.sendTurn([], { kind: 'compact' }, { submission: null, pendingId: null });
  }

  /**
   * A review turn (review/start). It cannot be steered: what is typed meanwhile is refused by the
   * runtime and waits in the queue with the reason shown, then goes once the review ended.
   */
  review(target: ReviewTarget): void {
    const threadId = this.threadId;
    if (threadId === null || this.turnRunning()) return;
    this.beginTurnStart('Reviewing');
    this.deps.chain.run(async () => {
      try {
        const { turn } = await this.deps.client.request('review/start', { threadId, target });
        this.deps.turns.serverActive(turn.id);
        if (this.deps.turns.startAnswered(turn.id) !== 'steered') this.deps.sessions().turns.started(turn.id);
        this.sendDeferredInterrupt();
      } catch (error) {
        this.deps.turns.startFailed();
        if (!this.deps.turns.running) this.set({ status: null });
        this.cell({ kind: 'error', text: errorMessage(error) });
        this.maybeSendNextQueued();
      }
    });
  }

  // ---- interrupt ------------------------------------------------------------------------------

  /** Interrupts the running turn; before its id is known, as soon as it is (sendDeferredInterrupt). */
  interrupt(): void {
    const turnId = this.deps.turns.requestInterrupt();
    if (turnId !== null) this.sendInterruptInOrder(() => turnId);
  }

  private sendDeferredInterrupt(): void {
    if (!this.deps.turns.interruptRemembered) return;
    this.sendInterruptInOrder(() => this.deps.turns.takeDeferredInterrupt());
  }

  /**
   * Queued behind the requests already sent, as Codex's ops are: a steer typed just before Esc must
   * reach the turn first (the interrupt then drops it and it is resubmitted once), or, arriving after
   * the turn ended, its fallback turn/start would send it a second time.
   */
  private sendInterruptInOrder(target: () => string | null): void {
    this.deps.chain.run(() => {
      const turnId = target();
      if (turnId !== null) this.sendInterrupt(turnId);
    });
  }

  private sendInterrupt(turnId: string): void {
    const threadId = this.threadId;
    if (threadId === null) return;
    interruptTurn(this.deps.client, threadId, turnId).catch((error: unknown) => this.cell({ kind: 'error', text: errorMessage(error) }));
  }

  /** After turn/completed with status interrupted (docs/codex-parity.md#interrupts-in-the-client). */
  private onInterrupted(): void {
    this.deps.manager().settleEditForInterrupt(this.deps.manager().editing ? currentDraft(this.deps.store.getState().composer) : null);
    const sendNow = this.sendNowAfterInterrupt;
    if (sendNow !== null) {
      this.sendNowAfterInterrupt = null;
      this.submitSteersAfterInterrupt = false;
      this.cell({ kind: 'info', text: SEND_NOW_MESSAGE });
      this.submitMessage(sendNow);
      // The interrupt dropped the runtime's copies of the pending steers: they go to the new turn.
      this.resteer(this.deps.store.getState().pendingSteers);
      return;
    }
    this.set({ pendingFocus: null });
    if (this.submitSteersAfterInterrupt) {
      this.submitSteersAfterInterrupt = false;
      const steers = this.deps.pending.takeSteers();
      this.cell({ kind: 'info', text: STEER_INTERRUPT_MESSAGE });
      if (steers.length > 0) this.submitMessage(mergeSubmissions(steers));
      else this.maybeSendNextQueued();
      return;
    }
    this.cell({ kind: 'error', text: INTERRUPTED_MESSAGE });
    const items = this.deps.pending.takeAll();
    if (items.length > 0) this.restoreIntoComposer(items);
  }

  // ---- turn lifecycle (from notifications.ts) -------------------------------------------------

  onTurnStarted(turn: Turn): void {
    this.deps.sessions().turns.started(turn.id);
    if (this.deps.turns.turnStarted(turn.id)) this.deps.pending.turnStarted(turn.id);
    this.set((s) => ({ activeTurn: { id: turn.id, startedAt: this.deps.now() }, status: s.status ?? 'Working' }));
    this.sendDeferredInterrupt();
  }

  onTurnCompleted(turn: Turn): void {
    if (!this.deps.turns.turnCompleted(turn.id)) return;
    this.deps.live.finalize(turn.status === 'interrupted' ? 'interrupted' : 'failed');
    this.set({ activeTurn: null, status: null, statusDetail: null, preparingMedia: false });
    this.deps.approvals.cancelAll();
    if (turn.status === 'interrupted') {
      this.onInterrupted();
      return;
    }
    const errorShown = this.deps.turns.takeErrorShown(turn.id);
    if (turn.status === 'failed' && !errorShown) this.cell({ kind: 'error', text: turn.error?.message ?? 'The turn failed.' });
    this.maybeSendNextQueued();
    // Only once nothing else runs: a queued follow-up that started is more work, not the end of it.
    if (!this.turnRunning() && !this.deps.local().shellRunning) this.deps.attention.notify(TURN_FINISHED_NOTIFICATION);
  }

  private get threadId(): string | null {
    return this.deps.store.getState().threadId;
  }

  private get skills(): readonly SkillRef[] {
    return this.deps.store.getState().composer.skills;
  }

  private set(update: Partial<ChatState> | ((s: ChatState) => Partial<ChatState>)): void {
    this.deps.store.setState(update);
  }

  private cell(cell: NewCell): void {
    this.set((s) => withCells(s, [cell]));
  }
}
