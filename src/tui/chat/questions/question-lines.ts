/** The rows of the model's question above the composer (question-queue.ts). */
import type { ChalkInstance } from 'chalk';
import { sanitize } from '../../markdown.js';
import { defaultChalk, wrapWithPrefix } from '../../components/row-shapes.js';
import type { QuestionPrompt } from '../../store-types.js';
import { palette } from '../../theme.js';

export const QUESTION_HINT = '↑/↓ choose · 1-9 or Enter answer · Esc skip · type to write a message instead';

export function questionLines(prompt: QuestionPrompt, width: number, c: ChalkInstance = defaultChalk): string[] {
  const count = prompt.count > 1 ? c.dim(` (${prompt.number}/${prompt.count})`) : '';
  const header = prompt.header.trim() === '' ? 'Question' : sanitize(prompt.header);
  const rows = [`${palette(c).accent('?')} ${c.bold(header)}${count}`];
  rows.push(...wrapWithPrefix(sanitize(prompt.question), width, '  ', '  '));
  prompt.options.forEach((option, i) => {
    const chosen = i === prompt.selected;
    const text = `${i + 1}. ${sanitize(option.label)}${option.description ? c.dim(` — ${sanitize(option.description)}`) : ''}`;
    const lines = wrapWithPrefix(text, width, chosen ? `${palette(c).accent('›')} ` : '  ', '     ');
    rows.push(...(chosen ? lines.map((l) => c.bold(l)) : lines));
  });
  rows.push(...wrapWithPrefix(QUESTION_HINT, width, '  ', '  ').map((l) => c.dim(l)));
  return rows;
}
