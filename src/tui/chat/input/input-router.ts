/**
 * Which part of the chat an input event goes to, in Codex's key dispatch order
 * (docs/codex-parity.md#key-dispatch-order): an open overlay, the approval prompt, the resume
 * picker, the rewind menu, the backtrack selection, the model and mode pickers, the waiting-messages list, then the
 * composer; a key the composer leaves goes to the app's own keys (app-keys.ts) and Esc-Esc backtrack.
 */
import { takesCharRun } from '../../composer/input.js';
import type { ComposerEvent } from '../../composer/types.js';
import { isCtrl } from '../../keys/ctrl.js';
import type { InputEvent, KeyEvent } from '../../keys/types.js';
import type { OverlayKeys } from '../../overlay/pager-screen.js';
import type { ChatState, ChatStore } from '../../store.js';
import { APPROVAL_PRESETS, nextApprovalMode } from '../approvals/approval-modes.js';
import type { PromptKeys } from '../approvals/prompt-keys.js';
import type { LocalCommands } from '../commands/local-commands.js';
import { isManageKey } from '../pending/pending-keys.js';
import type { PendingManager } from '../pending/pending-manager.js';
import type { QuestionQueue } from '../questions/question-queue.js';
import { backtrackEsc, backtrackOtherKey, IDLE, selectingKey, type BacktrackStep } from '../sessions/backtrack.js';
import type { DraftRestore } from '../sessions/draft-restore.js';
import type { Sessions } from '../sessions/sessions.js';
import type { Rewinds } from '../rewind/rewind.js';
import type { TurnFlow } from '../turn/turn-flow.js';
import type { TurnSettingsControl } from '../turn/turn-settings.js';
import type { ReviewPickers } from '../review/review-pickers.js';
import { isEditQueuedKey, pickerKey, unhandledKey } from './app-keys.js';
import { asciiCharRun } from './char-run.js';
import type { QuitKey } from './quit-press.js';

export interface InputRouterDeps {
  store: ChatStore;
  overlay: OverlayKeys | undefined;
  promptKeys: PromptKeys;
  /** The model's question above the composer: it takes ↑/↓, digits, Enter and Esc while the draft is empty. */
  questions: QuestionQueue;
  sessions: Sessions;
  /** The rewind menu (Esc-Esc backtrack's pick, /undo, /redo): while open it takes the keys. */
  rewinds: Rewinds;
  settings: TurnSettingsControl;
  manager: PendingManager;
  drafts: DraftRestore;
  flow: TurnFlow;
  local: LocalCommands;
  /** /review's picker and /findings: while one is open it takes the keys and pastes. */
  reviewPickers: ReviewPickers;
  /** The composer reducer and its effects; false when it left the event to the app. */
  dispatchComposer(event: ComposerEvent, at: number): boolean;
  turnRunning(): boolean;
  /** Ctrl+C / Ctrl+D that would quit: the first press asks for a second (quit-press.ts). */
  quitKey(key: QuitKey): void;
}

/** Nothing typed: the question's keys are its own, else they edit the draft (a steer being written). */
function composerEmpty(s: ChatState): boolean {
  return s.composer.ta.text === '' && s.composer.attachments.length === 0 && !s.composer.bashMode;
}

export class InputRouter {
  constructor(private readonly d: InputRouterDeps) {}

  /**
   * One read's input events, in order, all arrived `at`. The plain characters behind a paste burst
   * that is buffering join it in one step when nothing but the composer would look at them: a
   * megabyte pasted without bracketed paste is a million key events, and one at a time took seconds.
   */
  handleInputs(events: readonly InputEvent[], at: number): void {
    for (let i = 0; i < events.length; ) {
      this.handleInput(events[i]!, at);
      i += 1;
      if (i < events.length && this.composerAlone() && takesCharRun(this.d.store.getState().composer, at)) {
        const chars = asciiCharRun(events, i);
        if (chars.length > 0 && this.d.dispatchComposer({ type: 'burstChars', chars }, at)) i += chars.length;
      }
    }
  }

  /** Nothing before the composer in handleInput's chain takes a plain character now. */
  private composerAlone(): boolean {
    const s = this.d.store.getState();
    const pickers =
      s.resumePicker === null &&
      s.modelPicker === null &&
      s.modePicker === null &&
      !this.d.reviewPickers.open &&
      !this.d.local.settings.open;
    return (
      s.pager === null && s.modal === null && pickers && s.backtrack.phase === 'idle' && !this.d.rewinds.open && !this.d.manager.focused
    );
  }

  /** `at`: when the input arrived (one chunk's events share it, so a paste read in one go is one burst). */
  handleInput(event: InputEvent, at: number): void {
    if (this.d.overlay?.handleInput(event) === true) return;
    if (this.d.local.explorer.handleInput(event)) return;
    if (event.type === 'key' && event.kind === 'release') return;
    // The approval prompt takes its answers and Esc / Ctrl+C; typing goes on into the draft (prompt-keys.ts).
    if (!this.d.promptKeys.route(event, at)) return;
    const s = this.d.store.getState();
    if (s.resumePicker !== null) return this.d.sessions.pickerInput(event);
    if (this.d.rewinds.open) return this.d.rewinds.input(event);
    if (this.d.reviewPickers.open) return this.d.reviewPickers.input(event);
    if (this.d.local.settings.open) return this.d.local.settings.input(event);
    if (s.backtrack.phase === 'selecting') {
      if (s.pager?.highlight !== undefined) {
        if (event.type === 'key') this.onBacktrackStep(selectingKey(s.backtrack, event, this.d.sessions.targets()));
        return;
      }
      // The pager was closed another way (Ctrl+T): the selection goes with it.
      this.d.store.setState({ backtrack: IDLE });
    }
    if (s.backtrack.phase === 'primed' && !(event.type === 'key' && event.name === 'escape'))
      this.d.store.setState({ backtrack: backtrackOtherKey(s.backtrack) });
    if (event.type === 'key') {
      if (s.modelPicker !== null) return this.d.settings.modelPickerKey(event);
      if (s.modePicker !== null) return this.d.settings.modePickerKey(pickerKey(event, APPROVAL_PRESETS.length), s.modePicker.selected);
      if (this.d.manager.focused) return this.d.manager.key(event);
      if (this.onPendingKey(event, s)) return;
    } else if (this.d.manager.focused) this.d.store.setState({ pendingFocus: null });
    if (event.type === 'key' && s.composer.popup === null && this.d.questions.key(event, composerEmpty(s))) return;
    if (this.d.drafts.releaseOnEnter(event, s.composer)) return this.d.flow.maybeSendNextQueued();
    // Ctrl+C while a waiting message is edited puts its original back (as Esc), never clears it away.
    if (this.d.manager.editing && event.type === 'key' && isCtrl(event, 'c')) return this.d.manager.cancelEdit();
    const handled = this.d.dispatchComposer(event, at);
    if (this.d.manager.editing && !handled && event.type === 'key' && event.name === 'escape') return this.d.manager.cancelEdit();
    // An Esc the composer used (closing a popup, leaving Vim's Insert mode) is not the backtrack's.
    if (handled && this.d.store.getState().backtrack.phase !== 'idle') this.d.store.setState({ backtrack: IDLE });
    if (!handled && event.type === 'key') this.onUnhandledKey(event);
  }

  /**
   * Keys for the waiting messages before the composer's: Ctrl+Q gives the list the keyboard; Alt+Up /
   * Shift+Left take the last queued message back (as Codex's).
   */
  private onPendingKey(e: KeyEvent, s: ChatState): boolean {
    if (s.composer.popup !== null || this.d.manager.editing) return false;
    if (isManageKey(e)) return this.d.manager.focus();
    if (isEditQueuedKey(e) && (s.queued.length > 0 || s.rejectedSteers.length > 0)) {
      this.d.flow.editLastQueued();
      return true;
    }
    return false;
  }

  private onUnhandledKey(e: KeyEvent): void {
    const action = unhandledKey(e, this.d.turnRunning(), this.d.store.getState().pendingSteers.length);
    if (action === 'quit') this.d.quitKey(isCtrl(e, 'd') ? 'd' : 'c');
    if (action === 'clearScreen') this.d.local.clearScreen();
    if (action === 'copyLastAnswer') this.d.local.copyLastAnswer();
    if (action === 'openTranscript') this.d.store.setState({ pager: { top: null } });
    if (action === 'cycleApprovalMode') this.d.settings.setApprovalMode(nextApprovalMode(this.d.store.getState().approvalMode));
    if (action === 'raiseEffort' || action === 'lowerEffort') this.d.settings.stepEffort(action === 'raiseEffort' ? 1 : -1);
    if (action === 'interruptAndResubmitSteers') this.d.flow.submitSteersAfterInterrupt = true;
    if (action === 'interrupt' || action === 'interruptAndResubmitSteers') this.d.flow.interrupt();
    if (e.name === 'escape') {
      if (action === 'none') this.onIdleEsc();
      else this.d.store.setState({ backtrack: IDLE });
    }
  }

  /** Esc the composer left alone: with an empty draft and nothing running, Esc-Esc backtrack. */
  private onIdleEsc(): void {
    const s = this.d.store.getState();
    const draft = s.composer;
    const idle = !this.d.turnRunning() && !this.d.local.shellRunning && s.modal === null;
    if (!idle || draft.ta.text !== '' || draft.attachments.length > 0 || draft.bashMode) this.d.store.setState({ backtrack: IDLE });
    else this.onBacktrackStep(backtrackEsc(s.backtrack, this.d.sessions.targets()));
  }

  private onBacktrackStep(step: BacktrackStep): void {
    this.d.store.setState({ backtrack: step.state });
    if (step.action === 'highlight') this.d.store.setState((s) => ({ pager: { top: s.pager?.top ?? null, highlight: step.state.cellId } }));
    if (step.action === 'cancel') this.d.store.setState({ pager: null });
    if (step.action === 'confirm') {
      this.d.store.setState({ pager: null, backtrack: IDLE });
      this.d.rewinds.backtrack(step.cellId);
    }
  }
}
