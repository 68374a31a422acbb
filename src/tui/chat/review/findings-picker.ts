/**
 * Acting on a finding (docs/codex-parity.md#review, beyond Codex): /findings opens a list of the
 * latest review's findings; `f` puts a "fix this" message into the composer, ready to edit, and `y`
 * copies it. Pure: the controller keeps the state and carries out the action.
 */
import type { ReviewFinding } from '../../../protocol/review.js';
import { isCtrl } from '../../keys/ctrl.js';
import type { KeyEvent } from '../../keys/types.js';
import type { TranscriptCell } from '../../store-types.js';
import { findingPlace } from './review-lines.js';

/** The latest review cell's findings (empty: no review yet, or it found nothing). */
export function latestFindings(cells: readonly TranscriptCell[]): ReviewFinding[] {
  const review = cells.findLast((c) => c.kind === 'review');
  return review?.kind === 'review' ? review.findings : [];
}

/** The message `f` puts into the composer and `y` copies: the ask, the title, the location, the body. */
export function fixMessage(f: ReviewFinding): string {
  return `Fix this review finding: ${f.title.trim()}\nAt ${findingPlace(f)}\n\n${f.body.trim()}`;
}

export type FindingsPickerStep =
  | { type: 'move'; selected: number }
  | { type: 'fix' | 'copy'; finding: ReviewFinding }
  | { type: 'close' }
  | { type: 'ignore' };

/** ↑/↓ (Ctrl+P/N) move, `f` or Enter fixes, `y` copies, Esc or Ctrl+C closes; the list owns the keys. */
export function findingsPickerKey(e: KeyEvent, selected: number, findings: readonly ReviewFinding[]): FindingsPickerStep {
  const plain = !e.ctrl && !e.alt && !e.meta;
  if (e.name === 'escape' || isCtrl(e, 'c')) return { type: 'close' };
  const count = findings.length;
  if (count === 0) return { type: 'ignore' };
  const up = (e.name === 'up' && plain) || isCtrl(e, 'p');
  const down = (e.name === 'down' && plain) || isCtrl(e, 'n');
  if (up || down) return { type: 'move', selected: (selected + (up ? -1 : 1) + count) % count };
  const finding = findings[Math.min(selected, count - 1)]!;
  if ((e.name === 'enter' && plain && !e.shift) || (e.name === 'char' && plain && e.char === 'f')) return { type: 'fix', finding };
  if (e.name === 'char' && plain && e.char === 'y') return { type: 'copy', finding };
  return { type: 'ignore' };
}
