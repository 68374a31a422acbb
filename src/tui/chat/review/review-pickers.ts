/**
 * The controller's side of /review's picker and of /findings: it opens them, routes their keys,
 * loads the git lists and carries out a pick (a review turn, a draft in the composer, a copy).
 */
import type { ReviewTarget } from '../../../protocol/client-requests.js';
import type { InputEvent } from '../../keys/types.js';
import type { ChatStore, NewCell } from '../../store.js';
import type { CopyResult } from '../../terminal/clipboard-copy.js';
import { findingsPickerKey, fixMessage, latestFindings } from './findings-picker.js';
import { listBranches, listCommits } from './review-git.js';
import { MENU, reviewPickerKey, reviewPickerPaste, withGitList } from './review-picker.js';

export interface ReviewPickersHost {
  store: ChatStore;
  cwd: string;
  review(target: ReviewTarget): void;
  /** Replaces the draft with `text`, not sent. */
  putInComposer(text: string): void;
  copyToClipboard?: (text: string) => Promise<CopyResult>;
  cell(cell: NewCell): void;
}

export const NO_FINDINGS_MESSAGE = 'There are no review findings yet: run /review first.';

export class ReviewPickers {
  constructor(private readonly host: ReviewPickersHost) {}

  /** One of the two is open: it owns the keys. */
  get open(): boolean {
    const s = this.host.store.getState();
    return (s.reviewPicker ?? null) !== null || (s.findingsPicker ?? null) !== null;
  }

  openReviewPicker(): void {
    this.host.store.setState({ reviewPicker: MENU });
  }

  openFindings(): void {
    if (latestFindings(this.host.store.getState().cells).length === 0) return this.host.cell({ kind: 'info', text: NO_FINDINGS_MESSAGE });
    this.host.store.setState({ findingsPicker: { selected: 0 } });
  }

  input(event: InputEvent): void {
    const s = this.host.store.getState();
    if ((s.findingsPicker ?? null) !== null) return this.findingsInput(event, s.findingsPicker!.selected);
    const picker = s.reviewPicker ?? null;
    if (picker === null) return;
    if (event.type === 'paste') return this.host.store.setState({ reviewPicker: reviewPickerPaste(picker, event.text) });
    if (event.kind === 'release') return;
    const step = reviewPickerKey(event, picker);
    this.host.store.setState({ reviewPicker: step.picker });
    if (step.target !== undefined) this.host.review(step.target);
    if (step.load !== undefined) void this.load(step.load);
  }

  private async load(stage: 'branch' | 'commit'): Promise<void> {
    const list = stage === 'branch' ? await listBranches(this.host.cwd) : await listCommits(this.host.cwd);
    const now = this.host.store.getState().reviewPicker ?? null;
    // The user may have backed out while git ran: the list is for that stage only.
    if (now?.stage === stage) this.host.store.setState({ reviewPicker: withGitList(now, list) });
  }

  private findingsInput(event: InputEvent, selected: number): void {
    if (event.type === 'paste' || event.kind === 'release') return;
    const findings = latestFindings(this.host.store.getState().cells);
    const step = findingsPickerKey(event, selected, findings);
    if (step.type === 'move') this.host.store.setState({ findingsPicker: { selected: step.selected } });
    if (step.type === 'close') this.host.store.setState({ findingsPicker: null });
    if (step.type === 'fix') {
      this.host.store.setState({ findingsPicker: null });
      this.host.putInComposer(fixMessage(step.finding));
    }
    if (step.type === 'copy') void this.copy(fixMessage(step.finding));
  }

  private async copy(text: string): Promise<void> {
    const copy = this.host.copyToClipboard;
    if (copy === undefined) return this.host.cell({ kind: 'error', text: 'Copying is not available here.' });
    const r = await copy(text).catch((error: unknown) => ({ error: String(error) }));
    this.host.store.setState({ findingsPicker: null });
    this.host.cell(
      'error' in r
        ? { kind: 'error', text: `Could not copy: ${r.error}` }
        : { kind: 'info', text: `Copied the finding to the clipboard via ${r.via}.` },
    );
  }
}
