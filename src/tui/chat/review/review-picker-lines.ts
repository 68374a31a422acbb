/**
 * The rows of the /review picker and the /findings list, in the place of the composer, in at most
 * `maxRows` rows (the list scrolled to the highlighted row, `▸`).
 */
import type { ChalkInstance } from 'chalk';
import type { ReviewFinding } from '../../../protocol/review.js';
import { defaultChalk, wrapWithPrefix } from '../../components/row-shapes.js';
import { sanitize } from '../../markdown.js';
import type { ReviewPickerState } from '../../store-types.js';
import { truncateToWidth } from '../../text-width.js';
import { findingPlace, findingPriority } from './review-lines.js';
import { REVIEW_CHOICES } from './review-picker.js';
import { palette } from '../../theme.js';

export const REVIEW_PICKER_HINT = '↑/↓ to choose · enter to pick · esc to close';
export const REVIEW_LIST_HINT = '↑/↓ to choose · enter to review · esc to go back';
export const REVIEW_CUSTOM_HINT = 'enter to start the review · esc to go back';
export const FINDINGS_PICKER_HINT = '↑/↓ to choose · f fix this (into the composer) · y copy · esc to close';

const TITLES: Record<ReviewPickerState['stage'], string> = {
  menu: 'Select a review preset',
  branch: 'Select a base branch',
  commit: 'Select a commit to review',
  custom: 'Custom review instructions',
};

/** The footer hint of the picker's stage. */
export function reviewPickerHint(p: ReviewPickerState): string {
  return p.stage === 'menu' ? REVIEW_PICKER_HINT : p.stage === 'custom' ? REVIEW_CUSTOM_HINT : REVIEW_LIST_HINT;
}

function listRows(labels: string[], selected: number, width: number, room: number, c: ChalkInstance): string[] {
  const fit = Math.max(1, room);
  const start = Math.min(Math.max(0, selected - fit + 1), Math.max(0, labels.length - fit));
  const shown = labels.slice(start, start + fit).map((label, i) => {
    const text = truncateToWidth(`${start + i === selected ? '▸ ' : '  '}${label}`, width);
    return start + i === selected ? palette(c).accent(text) : text;
  });
  if (labels.length > fit) shown.push(c.dim(`  ${start + 1}–${start + fit} of ${labels.length}`));
  return shown;
}

export function reviewPickerLines(p: ReviewPickerState, width: number, c: ChalkInstance = defaultChalk, maxRows = Infinity): string[] {
  const head = [c.bold(TITLES[p.stage]), ''];
  if (p.error !== null && p.stage !== 'custom')
    return [...head, ...wrapWithPrefix(sanitize(p.error), width, '■ ', '  ').map((l) => palette(c).danger(l))];
  const room = maxRows - head.length - 1;
  if (p.stage === 'menu')
    return [
      ...head,
      ...listRows(
        REVIEW_CHOICES.map((r, i) => `${i + 1}. ${r.label}`),
        p.selected,
        width,
        room,
        c,
      ),
    ];
  if (p.stage === 'custom') {
    const rows = [...head, ...wrapWithPrefix(`${sanitize(p.text)}▏`, width, palette(c).accent('› '), '  ')];
    if (p.error !== null) rows.push(palette(c).danger(`■ ${p.error}`));
    return rows;
  }
  const labels = p.stage === 'branch' ? p.branches : (p.commits?.map((k) => `${k.sha.slice(0, 7)}  ${k.subject}`) ?? null);
  if (labels === null) return [...head, c.dim(p.stage === 'branch' ? '  Loading the branches…' : '  Loading the commits…')];
  return [...head, ...listRows(labels.map(sanitize), p.selected, width, room, c)];
}

export function findingsPickerLines(
  findings: readonly ReviewFinding[],
  selected: number,
  width: number,
  c: ChalkInstance = defaultChalk,
  maxRows = Infinity,
): string[] {
  const head = [c.bold('Review findings'), ''];
  if (findings.length === 0) return [...head, c.dim('  The latest review has no findings.')];
  const labels = findings.map((f) => {
    const priority = findingPriority(f);
    return sanitize(`${priority === null ? '[?]' : `[P${priority}]`} ${f.title.replace(/^\s*\[P[0-3]\]\s*/, '')} — ${findingPlace(f)}`);
  });
  return [...head, ...listRows(labels, selected, width, maxRows - head.length - 1, c)];
}
