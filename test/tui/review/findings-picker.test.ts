/** Acting on a review finding: which findings, the keys, and the "fix this" message. */
import { describe, expect, it } from 'vitest';
import type { ReviewFinding } from '../../../src/protocol/review.js';
import { findingsPickerKey, fixMessage, latestFindings } from '../../../src/tui/chat/review/findings-picker.js';
import { findingsPickerLines } from '../../../src/tui/chat/review/review-picker-lines.js';
import type { KeyEvent } from '../../../src/tui/keys/types.js';
import type { TranscriptCell } from '../../../src/tui/store-types.js';

const key = (name: KeyEvent['name'], extra: Partial<KeyEvent> = {}): KeyEvent =>
  ({ type: 'key', name, ctrl: false, alt: false, meta: false, shift: false, kind: 'press', ...extra }) as KeyEvent;

const finding = (title: string, start: number, end: number): ReviewFinding => ({
  title,
  body: ' The body. ',
  confidence_score: 0.5,
  priority: 2,
  code_location: { absolute_file_path: '/r/a.ts', line_range: { start, end } },
});
const A = finding('[P2] First', 3, 7);
const B = finding('Second', 9, 9);

describe('findings picker', () => {
  it('takes the latest review cell', () => {
    const cells = [
      { kind: 'review', id: 1, explanation: '', findings: [B] },
      { kind: 'info', id: 2, text: 'x' },
      { kind: 'review', id: 3, explanation: '', findings: [A, B] },
    ] as TranscriptCell[];
    expect(latestFindings(cells)).toEqual([A, B]);
    expect(latestFindings([])).toEqual([]);
  });

  it('the message names the title, path:start-end and the body', () => {
    expect(fixMessage(A)).toBe('Fix this review finding: [P2] First\nAt /r/a.ts:3-7\n\nThe body.');
    expect(fixMessage(B)).toContain('At /r/a.ts:9\n');
  });

  it('↑/↓ wrap, f and Enter fix, y copies the highlighted finding, Esc closes', () => {
    expect(findingsPickerKey(key('down'), 1, [A, B])).toEqual({ type: 'move', selected: 0 });
    expect(findingsPickerKey(key('up'), 0, [A, B])).toEqual({ type: 'move', selected: 1 });
    expect(findingsPickerKey(key('char', { char: 'f' }), 1, [A, B])).toEqual({ type: 'fix', finding: B });
    expect(findingsPickerKey(key('enter'), 0, [A, B])).toEqual({ type: 'fix', finding: A });
    expect(findingsPickerKey(key('char', { char: 'y' }), 0, [A, B])).toEqual({ type: 'copy', finding: A });
    expect(findingsPickerKey(key('escape'), 0, [A, B])).toEqual({ type: 'close' });
    expect(findingsPickerKey(key('char', { char: 'q' }), 0, [A, B])).toEqual({ type: 'ignore' });
  });

  it('lists each finding with its priority and place, the highlighted one marked', () => {
    const rows = findingsPickerLines([A, B], 1, 80);
    expect(rows).toContain('  [P2] First — /r/a.ts:3-7');
    expect(rows).toContain('▸ [P2] Second — /r/a.ts:9');
  });
});
