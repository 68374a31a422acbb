import { describe, expect, it } from 'vitest';
import type { Turn } from '../../../../src/protocol/api.js';
import { renderReviewOutput } from '../../../../src/runtime/review/output.js';
import { turnCells } from '../../../../src/tui/chat/sessions/transcript-restore.js';
import { parseRenderedReview } from '../../../../src/tui/chat/review/rendered-review.js';
import { findingPlace, findingPriority, reviewLines } from '../../../../src/tui/chat/review/review-lines.js';

const findings = [
  {
    title: '[P1] Off by one',
    body: 'Loops once too often.\n\nSee the bound.',
    confidence_score: 0.9,
    priority: 1,
    code_location: { absolute_file_path: '/r/a.ts', line_range: { start: 3, end: 5 } },
  },
  {
    title: '[P3] Name',
    body: 'Rename it.',
    confidence_score: 0.4,
    priority: null,
    code_location: { absolute_file_path: '/r/b.ts', line_range: { start: 9, end: 9 } },
  },
];
const output = { findings, overall_correctness: 'patch is incorrect', overall_explanation: 'Two issues.', overall_confidence_score: 0.7 };

describe('the findings cell', () => {
  it('draws a badge, the title without its tag, file:line and the body per finding', () => {
    const rows = reviewLines({ kind: 'review', id: 1, explanation: 'Two issues.', findings }, 60);
    expect(rows).toEqual([
      '• Two issues.',
      '   P1  Off by one',
      '       /r/a.ts:3-5',
      '       Loops once too often.',
      '       ',
      '       See the bound.',
      '   P3  Name',
      '       /r/b.ts:9',
      '       Rename it.',
    ]);
    expect(findingPriority(findings[1]!)).toBe(3);
    expect(findingPlace(findings[1]!)).toBe('/r/b.ts:9');
  });

  it('comes back from the rendered review a session keeps, on resume, without the repeated message', () => {
    const text = renderReviewOutput(output);
    const parsed = parseRenderedReview(text);
    expect(parsed.explanation).toBe('Two issues.');
    expect(parsed.findings.map((f) => [f.title, f.body, f.priority, f.code_location])).toEqual(
      findings.map((f) => [f.title, f.body, f.title === '[P1] Off by one' ? 1 : 3, f.code_location]),
    );
    const turn: Turn = {
      id: 't',
      items: [
        { type: 'enteredReviewMode', id: 'a', review: 'current changes' },
        { type: 'exitedReviewMode', id: 'b', review: text },
        { type: 'agentMessage', id: 'c', text },
      ],
      itemsView: 'full',
      status: 'completed',
      error: null,
      startedAt: null,
      completedAt: null,
      durationMs: null,
    } as Turn;
    const cells = turnCells(turn);
    expect(cells.map((c) => c.kind)).toEqual(['info', 'review']);
  });

  it('keeps text in another shape as the explanation', () => {
    expect(parseRenderedReview('Just prose.')).toEqual({ explanation: 'Just prose.', findings: [] });
  });
});
