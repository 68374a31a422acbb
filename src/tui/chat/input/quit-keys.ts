/** The store side of the two-press quit (quit-press.ts): the footer hint, its timer and the exit request. */
import type { ChatStore } from '../../store.js';
import type { Schedule } from '../turn/delta-buffer.js';
import { QUIT_CONFIRM_MS, quitPress, type QuitArm, type QuitKey } from './quit-press.js';

export class QuitKeys {
  constructor(
    private readonly store: ChatStore,
    private readonly now: () => number,
    private readonly later: Schedule,
  ) {}

  /** Ctrl+C / Ctrl+D with nothing else to do: the second press in time quits. */
  press(key: QuitKey): void {
    const step = quitPress(this.store.getState().quitHint, key, this.now());
    if (step === 'quit') this.store.setState({ exitRequested: true });
    else this.arm(step);
  }

  /** Ctrl+C emptied the draft or declined an approval: the next Ctrl+C quits. */
  hint(): void {
    this.arm({ key: 'c', until: this.now() + QUIT_CONFIRM_MS });
  }

  private arm(arm: QuitArm): void {
    this.store.setState({ quitHint: arm });
    this.later(() => {
      if (this.store.getState().quitHint === arm) this.store.setState({ quitHint: null });
    }, arm.until - this.now());
  }
}
