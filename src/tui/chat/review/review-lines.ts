/**
 * The rows of a review's findings cell: the explanation, then per finding a priority badge, its
 * title without the `[Pn]` tag the badge repeats, `file:line`, and the body indented.
 */
import type { ChalkInstance } from 'chalk';
import type { ReviewFinding } from '../../../protocol/review.js';
import { sanitize } from '../../markdown.js';
import { defaultChalk, wrapWithPrefix } from '../../components/row-shapes.js';
import type { TranscriptCell } from '../../store-types.js';
import { palette } from '../../theme.js';

const TAG = /^\s*\[P([0-3])\]\s*/;

/** The finding's priority: its `priority`, else its title's `[Pn]` tag, else null. */
export function findingPriority(finding: ReviewFinding): number | null {
  if (typeof finding.priority === 'number') return finding.priority;
  const tag = TAG.exec(finding.title);
  return tag ? Number(tag[1]) : null;
}

/** `path:start` (`path:start-end` for a range), as an editor takes it. */
export function findingPlace(finding: ReviewFinding): string {
  const { absolute_file_path: path, line_range: range } = finding.code_location;
  return range.end > range.start ? `${path}:${range.start}-${range.end}` : `${path}:${range.start}`;
}

function badge(priority: number | null, c: ChalkInstance): string {
  const label = priority === null ? ' ? ' : ` P${priority} `;
  const p = palette(c);
  if (priority === 0 || priority === 1) return p.badgeHigh(label);
  if (priority === 2) return p.badgeMedium(label);
  return p.badgeLow(label);
}

export function reviewLines(
  cell: Extract<TranscriptCell, { kind: 'review' }>,
  width: number,
  c: ChalkInstance = defaultChalk,
  selected: number | null = null,
): string[] {
  const rows: string[] = [];
  const explanation = cell.explanation.trim();
  if (explanation !== '') rows.push(...wrapWithPrefix(sanitize(explanation), width, '• ', '  '));
  if (cell.findings.length === 0) return rows.length > 0 ? rows : ['• Reviewer failed to output a response.'];
  cell.findings.forEach((finding, index) => {
    const mark = index === selected ? palette(c).accent('▸ ') : '  ';
    const title = sanitize(finding.title.replace(TAG, ''));
    rows.push(...wrapWithPrefix(title, width, `${mark}${badge(findingPriority(finding), c)} `, '       ').map((l) => c.bold(l)));
    rows.push(c.dim(`       ${sanitize(findingPlace(finding))}`));
    for (const line of finding.body.split('\n')) rows.push(...wrapWithPrefix(sanitize(line), width, '       ', '       '));
  });
  return rows;
}
