import { describe, expect, it } from 'vitest';
import { parseReviewOutput, REVIEW_FALLBACK_MESSAGE, type ReviewOutput, renderReviewOutput } from '../../../src/runtime/review/output.js';
import { reviewHint, reviewPrompt, reviewTargetProblem, UNCOMMITTED_PROMPT } from '../../../src/runtime/review/target.js';

const finding = (title: string, path: string, start: number, end: number, body: string) => ({
  title,
  body,
  confidence_score: 0.8,
  priority: 1,
  code_location: { absolute_file_path: path, line_range: { start, end } },
});
const review = (findings: ReturnType<typeof finding>[], explanation = 'Two problems.'): ReviewOutput => ({
  findings,
  overall_correctness: 'patch is incorrect',
  overall_explanation: explanation,
  overall_confidence_score: 0.7,
});

describe('review output', () => {
  it("renders Codex's layout: explanation, the header, each finding with its location and the body indented", () => {
    const text = renderReviewOutput(
      review([
        finding('[P1] Off by one', '/r/a.ts', 3, 4, 'Loops once too often.\nSee the bound.'),
        finding('[P2] Leak', '/r/b.ts', 9, 9, 'Never closed.'),
      ]),
    );
    expect(text).toBe(
      'Two problems.\n\nFull review comments:\n\n- [P1] Off by one — /r/a.ts:3-4\n  Loops once too often.\n  See the bound.\n\n- [P2] Leak — /r/b.ts:9-9\n  Never closed.',
    );
  });

  it('says "Review comment:" for one finding, only the explanation for none, the fallback for nothing', () => {
    expect(renderReviewOutput(review([finding('[P3] Nit', '/a', 1, 2, 'b')]))).toContain('\n\nReview comment:\n\n- [P3] Nit — /a:1-2\n  b');
    expect(renderReviewOutput(review([], 'Looks good.'))).toBe('Looks good.');
    expect(renderReviewOutput(review([], '  '))).toBe(REVIEW_FALLBACK_MESSAGE);
  });

  it('reads the JSON whole, or the object inside prose; drops a malformed finding, keeps the rest', () => {
    const json = JSON.stringify(review([finding('[P1] A', '/a', 1, 1, 'x')]));
    expect(parseReviewOutput(json).findings).toHaveLength(1);
    expect(parseReviewOutput(`Here you go:\n${json}\nthanks`).overall_correctness).toBe('patch is incorrect');
    const broken = JSON.stringify({
      ...review([finding('[P1] A', '/a', 1, 1, 'x')]),
      findings: [{ title: 'no location' }, finding('[P2] B', '/b', 2, 3, 'y')],
    });
    expect(parseReviewOutput(broken).findings.map((f) => f.title)).toEqual(['[P2] B']);
  });

  it('keeps an answer that is not JSON as the explanation, printed as it came', () => {
    const out = parseReviewOutput('I could not find the diff.');
    expect(out.findings).toEqual([]);
    expect(renderReviewOutput(out)).toBe('I could not find the diff.');
  });
});

describe('review targets', () => {
  it('tells the model each target as Codex does (the git command, the merge base)', () => {
    expect(reviewPrompt({ type: 'uncommittedChanges' }, null)).toBe(UNCOMMITTED_PROMPT);
    expect(UNCOMMITTED_PROMPT).toContain('untracked files');
    expect(reviewPrompt({ type: 'baseBranch', branch: 'main' }, 'abc123')).toBe(
      "Review the code changes against the base branch 'main'. The merge base commit for this comparison is abc123. Run `git diff abc123` to inspect the changes relative to main. Provide prioritized, actionable findings.",
    );
    expect(reviewPrompt({ type: 'baseBranch', branch: 'main' }, null)).toContain('git merge-base HEAD');
    expect(reviewPrompt({ type: 'commit', sha: 'deadbeef', title: 'Fix it' }, null)).toBe(
      'Review the code changes introduced by commit deadbeef ("Fix it"). Provide prioritized, actionable findings.',
    );
    expect(reviewPrompt({ type: 'custom', instructions: '  check security \n' }, null)).toBe('check security');
  });

  it('names each review as Codex does, and refuses empty instructions', () => {
    expect(reviewHint({ type: 'uncommittedChanges' })).toBe('current changes');
    expect(reviewHint({ type: 'baseBranch', branch: 'dev' })).toBe("changes against 'dev'");
    expect(reviewHint({ type: 'commit', sha: '0123456789', title: 'T' })).toBe('commit 0123456: T');
    expect(reviewTargetProblem({ type: 'custom', instructions: ' ' })).toBe('Review prompt cannot be empty');
    expect(reviewTargetProblem({ type: 'uncommittedChanges' })).toBeNull();
  });
});
