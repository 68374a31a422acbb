/**
 * The review's answer: Codex's findings JSON read leniently (an answer with prose around the object
 * still gives its findings; an answer that is not JSON at all becomes the explanation, shown as it
 * came), and rendered as Codex renders it for `exitedReviewMode` and `codex review`'s stdout.
 */
import { z } from 'zod';
import type { ReviewFinding, ReviewOutput } from '../../protocol/review.js';

export type { ReviewFinding, ReviewOutput };

const lineRange = z.object({ start: z.number().int(), end: z.number().int() });
const findingSchema = z.object({
  title: z.string(),
  body: z.string().catch(''),
  confidence_score: z.number().catch(0),
  priority: z.number().int().min(0).max(3).nullish().catch(null),
  code_location: z.object({ absolute_file_path: z.string(), line_range: lineRange }),
});
const outputSchema = z.object({
  findings: z.array(z.unknown()).catch([]),
  overall_correctness: z.string().catch(''),
  overall_explanation: z.string().catch(''),
  overall_confidence_score: z.number().catch(0),
});

/** What an empty review renders as (Codex's words). */
export const REVIEW_FALLBACK_MESSAGE = 'Reviewer failed to output a response.';

function asOutput(value: unknown): ReviewOutput | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const parsed = outputSchema.safeParse(value);
  if (!parsed.success) return null;
  // A malformed finding is dropped, not the review.
  const findings = parsed.data.findings.flatMap((f) => {
    const finding = findingSchema.safeParse(f);
    return finding.success ? [finding.data] : [];
  });
  return { ...parsed.data, findings };
}

function tryJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The model's answer as a review: the whole text as JSON, else the outermost `{…}` in it, else the text as the explanation. */
export function parseReviewOutput(text: string): ReviewOutput {
  const whole = asOutput(tryJson(text));
  if (whole) return whole;
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start !== -1 && end > start) {
    const inner = asOutput(tryJson(text.slice(start, end + 1)));
    if (inner) return inner;
  }
  return { findings: [], overall_correctness: '', overall_explanation: text, overall_confidence_score: 0 };
}

export function findingLocation(finding: ReviewFinding): string {
  const { absolute_file_path: path, line_range: range } = finding.code_location;
  return `${path}:${range.start}-${range.end}`;
}

/** Codex's findings block: a header, then per finding `- title — path:start-end` and the body indented. */
export function renderFindingsBlock(findings: readonly ReviewFinding[]): string[] {
  const lines = [findings.length > 1 ? 'Full review comments:' : 'Review comment:'];
  for (const finding of findings) {
    lines.push('', `- ${finding.title} — ${findingLocation(finding)}`);
    for (const line of finding.body.split('\n')) lines.push(`  ${line}`);
  }
  return lines;
}

/** The review as text: the explanation, then the findings block; the fallback when both are empty. */
export function renderReviewOutput(output: ReviewOutput): string {
  const sections: string[] = [];
  const explanation = output.overall_explanation.trim();
  if (explanation !== '') sections.push(explanation);
  if (output.findings.length > 0) sections.push(renderFindingsBlock(output.findings).join('\n').trim());
  return sections.length === 0 ? REVIEW_FALLBACK_MESSAGE : sections.join('\n\n');
}
