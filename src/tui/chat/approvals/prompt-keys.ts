/**
 * The keys typed while the approval prompt shows: the prompt answers only to a deliberate key.
 * Codex's prompt takes the first letter typed as its answer, so "nice work" typed as the prompt
 * appears declines the command and leaves "ice work" in the draft. Here:
 *  - letters of a word begun before the prompt appeared, or of one that began with a letter that is
 *    no answer, go into the draft (typing-run.ts);
 *  - y, a or n beginning a word is held for TYPING_GAP_MS: another letter (or a paste) in that time
 *    makes it the start of a word, and both go into the draft; only a lone one answers;
 *  - Esc and Ctrl+C answer at once (a held letter goes into the draft first);
 *  - Backspace takes back a held letter, else edits the draft shown under the prompt, so a stray
 *    letter never waits unseen for the next Enter; other keys do nothing.
 * Nothing typed is dropped: a held letter whose prompt went away (its turn ended) goes into the draft.
 */
import type { InputEvent, KeyEvent } from '../../keys/types.js';
import type { ApprovalModal } from '../../store.js';
import { approvalKey, type ModalKeyAction } from '../input/app-keys.js';
import type { Schedule } from '../turn/delta-buffer.js';
import { TYPING_GAP_MS, TypingRun } from './typing-run.js';

export interface PromptKeysHost {
  /** The prompt on screen (a new object for each prompt shown), or null. */
  prompt(): ApprovalModal | null;
  /** When that prompt appeared (injected clock). */
  shownAt(): number;
  answer(action: Extract<ModalKeyAction, { type: 'answer' }>): void;
  /** Sends a key on into the composer as if it arrived at `at`. */
  toDraft(event: KeyEvent, at: number): void;
  later: Schedule;
  /** A key of the prompt's own (a patch's file choices, patch-keys.ts): true when it took it. */
  ownKey?(event: KeyEvent): boolean;
}

interface HeldAnswer {
  event: KeyEvent;
  at: number;
  action: Extract<ModalKeyAction, { type: 'answer' }>;
  prompt: ApprovalModal;
  cancel: () => void;
}

function isPlainChar(event: InputEvent): boolean {
  return event.type === 'key' && event.name === 'char' && !event.ctrl && !event.alt && !event.meta;
}

function isBackspace(event: InputEvent): boolean {
  return event.type === 'key' && event.name === 'backspace' && !event.ctrl && !event.alt && !event.meta;
}

export class PromptKeys {
  private readonly typing = new TypingRun();
  private held: HeldAnswer | null = null;

  constructor(private readonly host: PromptKeysHost) {}

  /** Takes an input event at `now`; true when it goes on to the composer (and the app's keys). */
  route(event: InputEvent, now: number): boolean {
    // A word runs through letters only: the Enter that sent the message ends it, so a letter after
    // the prompt appeared starts a run of its own and may answer.
    if (isPlainChar(event)) this.typing.key(now);
    else if (event.type === 'key') this.typing.end();
    const held = this.held;
    if (held !== null && isBackspace(event)) {
      held.cancel();
      this.held = null;
      return false;
    }
    if (held !== null) {
      const text = event.type === 'paste' || isPlainChar(event);
      const answers = event.type === 'key' && approvalKey(event).type === 'answer';
      if (text || answers || this.host.prompt() !== held.prompt) this.releaseToDraft(held);
    }
    const prompt = this.host.prompt();
    if (prompt === null || event.type === 'paste') return true;
    if (event.type === 'key' && !isPlainChar(event) && this.host.ownKey?.(event) === true) return false;
    const action = approvalKey(event);
    if (!isPlainChar(event)) {
      if (action.type === 'answer') this.host.answer(action);
      return isBackspace(event);
    }
    if (action.type === 'answer' && !this.typing.belongsToDraft(this.host.shownAt())) {
      this.hold(event, now, action, prompt);
      return false;
    }
    this.typing.continueInDraft();
    return true;
  }

  private hold(event: KeyEvent, at: number, action: HeldAnswer['action'], prompt: ApprovalModal): void {
    const cancel = this.host.later(() => {
      this.held = null;
      if (this.host.prompt() === prompt) this.host.answer(action);
      else this.host.toDraft(event, at);
    }, TYPING_GAP_MS);
    this.held = { event, at, action, prompt, cancel };
  }

  /** The held letter was typing after all: into the draft, and the rest of its word with it. */
  private releaseToDraft(held: HeldAnswer): void {
    held.cancel();
    this.held = null;
    this.typing.continueInDraft();
    this.host.toDraft(held.event, held.at);
  }
}
