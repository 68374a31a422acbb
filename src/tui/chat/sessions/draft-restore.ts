/**
 * Putting saved unsent input (draft-journal.ts) back: the draft and stash into the composer, in its
 * Vim mode, with a one-line notice; the waiting messages back as queued follow-ups that wait for the
 * user — they were typed for a moment that has passed, so they are never sent by themselves. The
 * user's next Enter sends them, before anything typed with it.
 */
import { isEmpty, isHistorySearching } from '../../composer/draft.js';
import { restoreComposer, restoreNotice, type DraftDocument } from '../../composer/draft-snapshot.js';
import type { ComposerState } from '../../composer/state.js';
import type { QueuedInputAction, Submission } from '../../composer/types.js';
import type { InputEvent } from '../../keys/types.js';
import type { ChatStore, NewCell } from '../../store.js';
import { keptThreadsNotice, type DraftJournalPort } from './draft-journal.js';

export interface DraftRestoreHost {
  store: ChatStore;
  /** Switches Vim mode on or off as /vim does (the controller keeps that setting). */
  setVimEnabled(enabled: boolean): void;
  queue(sub: Submission, action: QueuedInputAction): void;
  cell(cell: NewCell): void;
}

export class DraftRestore {
  private holding = false;

  constructor(
    private readonly journal: DraftJournalPort | undefined,
    private readonly host: DraftRestoreHost,
  ) {}

  /** Restored messages are queued and wait for the user's next Enter. */
  get held(): boolean {
    return this.holding;
  }

  /** The user pressed Enter: the queue may drain again. True when it was held. */
  release(): boolean {
    const was = this.holding;
    this.holding = false;
    return was;
  }

  /** Enter on an empty composer while restored messages wait: it sends them. True when it did release them. */
  releaseOnEnter(event: InputEvent, composer: ComposerState): boolean {
    if (!this.holding || event.type !== 'key' || event.name !== 'enter' || event.shift || event.alt || event.ctrl || event.meta)
      return false;
    if (!isEmpty(composer) || composer.popup !== null || isHistorySearching(composer)) return false;
    return this.release();
  }

  /** At launch: the input a Tiller left unsent in this directory before its first turn. */
  async restoreCwd(): Promise<void> {
    if (this.journal === undefined) return;
    const { document, keptThreads } = await this.journal.loadForCwd();
    if (document !== null) this.apply(document);
    if (keptThreads.length > 0) this.host.cell({ kind: 'info', text: keptThreadsNotice(keptThreads) });
  }

  /** After a resume or fork: that thread's unsent input. True when there was some. */
  async restoreThread(threadId: string): Promise<boolean> {
    const doc = (await this.journal?.loadForThread(threadId)) ?? null;
    if (doc === null) return false;
    this.apply(doc);
    return true;
  }

  private apply(doc: DraftDocument): void {
    const { store } = this.host;
    if (doc.draft !== null || doc.stash !== null) {
      if (doc.vim.enabled !== store.getState().composer.vimEnabled) this.host.setVimEnabled(doc.vim.enabled);
      store.setState((s) => ({ composer: restoreComposer(s.composer, doc) }));
    }
    for (const w of doc.waiting) this.host.queue(w.submission, w.action);
    if (doc.waiting.length > 0) this.holding = true;
    this.host.cell({ kind: 'info', ...restoreNotice(doc) });
  }
}
