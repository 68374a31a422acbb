/**
 * A review read back from its rendered text (the `exitedReviewMode` item a session keeps), so a
 * resumed session draws the same findings cell. The text is Codex's layout (runtime/review/output.ts):
 * the explanation, `Full review comments:` or `Review comment:`, then `- <title> — <path>:<start>-<end>`
 * and the body indented by two spaces. Text in any other shape is all explanation.
 */
import type { ReviewFinding } from '../../../protocol/review.js';

const HEADERS = new Set(['Full review comments:', 'Review comment:']);
const FINDING = /^- (.*) — (.+):(\d+)-(\d+)$/;

export function parseRenderedReview(text: string): { explanation: string; findings: ReviewFinding[] } {
  const lines = text.split('\n');
  const header = lines.findIndex((line) => HEADERS.has(line));
  if (header === -1) return { explanation: text, findings: [] };
  const findings: ReviewFinding[] = [];
  const bodies: string[][] = [];
  for (const line of lines.slice(header + 1)) {
    const match = FINDING.exec(line);
    if (match) {
      const [, title, path, start, end] = match as unknown as [string, string, string, string, string];
      const priority = /^\[P([0-3])\]/.exec(title);
      findings.push({
        title,
        body: '',
        confidence_score: 0,
        priority: priority ? Number(priority[1]) : null,
        code_location: { absolute_file_path: path, line_range: { start: Number(start), end: Number(end) } },
      });
      bodies.push([]);
    } else if (line === '' && bodies.length === 0) continue;
    else if (bodies.length > 0 && (line.startsWith('  ') || line === '')) bodies.at(-1)!.push(line.slice(2));
    else return { explanation: text, findings: [] };
  }
  findings.forEach((finding, i) => {
    finding.body = bodies[i]!.join('\n').replace(/\n+$/, '');
  });
  return { explanation: lines.slice(0, header).join('\n').trim(), findings };
}
