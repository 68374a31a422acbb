/**
 * The rows of the harness tools' cells: an image the model looked at, a web search the server ran,
 * and the model's plan as a checklist (also drawn live, updated in place while the turn runs).
 */
import type { ChalkInstance } from 'chalk';
import type { TurnPlanStep } from '../../protocol/api.js';
import { sanitize } from '../markdown.js';
import { defaultChalk, wrapWithPrefix } from './row-shapes.js';
import { palette } from '../theme.js';

export interface PlanView {
  explanation: string | null;
  steps: readonly TurnPlanStep[];
}

export function imageViewLines(path: string, width: number, c: ChalkInstance = defaultChalk): string[] {
  return wrapWithPrefix(`${c.bold('Viewed image')} ${sanitize(path)}`, width, `${c.dim('•')} `, '  ');
}

export function webSearchLines(query: string, width: number, c: ChalkInstance = defaultChalk): string[] {
  const what = query === '' ? '' : ` ${sanitize(query)}`;
  return wrapWithPrefix(`${c.bold('Searched the web')}${what}`, width, `${c.dim('•')} `, '  ');
}

const MARK: Record<TurnPlanStep['status'], string> = { completed: '✔', inProgress: '▶', pending: '□' };

/** `• Updated Plan`, the explanation, then one row per step: done ones dim and struck, the current one bold. */
export function planLines(plan: PlanView, width: number, c: ChalkInstance = defaultChalk): string[] {
  const rows = [`${c.dim('•')} ${c.bold('Updated Plan')}`];
  if (plan.explanation !== null && plan.explanation.trim() !== '')
    rows.push(...wrapWithPrefix(sanitize(plan.explanation), width, '  └ ', '    ').map((l) => c.dim(c.italic(l))));
  if (plan.steps.length === 0) rows.push(c.dim('  └ (no steps)'));
  plan.steps.forEach((step, i) => {
    const lead = i === 0 && rows.length === 1 ? '  └ ' : '    ';
    const text = sanitize(step.step);
    const line = wrapWithPrefix(`${MARK[step.status]} ${text}`, width, lead, '      ');
    const style =
      step.status === 'completed'
        ? (l: string) => c.dim(c.strikethrough(l))
        : step.status === 'inProgress'
          ? (l: string) => palette(c).accent(c.bold(l))
          : (l: string) => l;
    rows.push(...line.map(style));
  });
  return rows;
}
