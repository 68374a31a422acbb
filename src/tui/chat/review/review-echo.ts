/**
 * A review ends with `exitedReviewMode` and an agentMessage, both the rendered review. A Tiller client
 * draws the findings cell from `tiller/reviewOutput` instead, so once that came, those two items are
 * not drawn again.
 */
import type { ThreadItem } from '../../../protocol/api.js';

export class ReviewEcho {
  private awaiting = false;
  private messageId: string | null = null;

  /** The findings cell is drawn: the review's closing items follow. */
  expect(): void {
    this.awaiting = true;
  }

  /** The turn ended: nothing more of it is an echo. */
  reset(): void {
    this.awaiting = false;
    this.messageId = null;
  }

  /** Whether this started item is the review's echo (not to be drawn). */
  started(item: ThreadItem): boolean {
    if (!this.awaiting) return false;
    if (item.type === 'exitedReviewMode') return true;
    if (item.type === 'agentMessage') {
      this.messageId = item.id;
      return true;
    }
    return false;
  }

  /** Whether this completed item is the review's echo; the agentMessage's completion ends it. */
  completed(item: ThreadItem): boolean {
    if (!this.awaiting) return false;
    if (item.type === 'exitedReviewMode') return true;
    if (item.type === 'agentMessage' && item.id === this.messageId) {
      this.awaiting = false;
      this.messageId = null;
      return true;
    }
    return false;
  }
}
