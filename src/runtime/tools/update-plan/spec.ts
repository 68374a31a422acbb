/**
 * The `update_plan` tool's schema (Codex's), its arguments and their limits. The plan only informs
 * the user (the TUI's checklist, `turn/plan/updated`, exec's `todo_list`): the model reads back
 * "Plan updated" and nothing else.
 */
import type { TurnPlanStep, TurnPlanStepStatus } from '../../../protocol/api.js';
import type { FunctionToolSpec } from '../../model/types.js';

export const UPDATE_PLAN_TOOL_NAME = 'update_plan';
export const PLAN_UPDATED_OUTPUT = 'Plan updated';

/** A plan longer than this is refused: it is drawn whole on every update and sent to every client. */
export const MAX_PLAN_STEPS = 100;
/** Characters of one step or of the explanation. */
export const MAX_PLAN_TEXT_CHARS = 2_000;

export const UPDATE_PLAN_TOOL_SPEC: FunctionToolSpec = {
  type: 'function',
  name: UPDATE_PLAN_TOOL_NAME,
  description:
    'Records the plan for the task and shows it to the user as a checklist. Give every step with its status each time; at most one step is in_progress.',
  strict: false,
  parameters: {
    type: 'object',
    properties: {
      explanation: { type: 'string' },
      plan: {
        type: 'array',
        description: 'The steps, in order',
        items: {
          type: 'object',
          properties: {
            step: { type: 'string' },
            status: { type: 'string', description: 'One of: pending, in_progress, completed' },
          },
          required: ['step', 'status'],
          additionalProperties: false,
        },
      },
    },
    required: ['plan'],
    additionalProperties: false,
  },
};

export interface UpdatePlanArguments {
  explanation: string | null;
  plan: TurnPlanStep[];
}

const STATUS: Record<string, TurnPlanStepStatus> = { pending: 'pending', in_progress: 'inProgress', completed: 'completed' };

const failure = (reason: string): { error: string } => ({ error: `failed to parse function arguments: ${reason}` });

/** Parses and bounds the model's arguments; a string error goes back to the model as the output. */
export function parseUpdatePlanArguments(raw: string): UpdatePlanArguments | { error: string } {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return failure('not JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return failure('expected an object');
  const { explanation, plan } = value as { explanation?: unknown; plan?: unknown };
  if (explanation !== undefined && explanation !== null && typeof explanation !== 'string')
    return failure('`explanation` must be a string');
  if (typeof explanation === 'string' && explanation.length > MAX_PLAN_TEXT_CHARS)
    return failure(`\`explanation\` is longer than ${MAX_PLAN_TEXT_CHARS} characters`);
  if (!Array.isArray(plan)) return failure('`plan` must be an array of {step, status}');
  if (plan.length > MAX_PLAN_STEPS) return failure(`\`plan\` has ${plan.length} steps; at most ${MAX_PLAN_STEPS} are allowed`);
  const steps: TurnPlanStep[] = [];
  for (const [index, entry] of plan.entries()) {
    const { step, status } = (typeof entry === 'object' && entry !== null ? entry : {}) as { step?: unknown; status?: unknown };
    if (typeof step !== 'string') return failure(`plan[${index}].step must be a string`);
    if (step.length > MAX_PLAN_TEXT_CHARS) return failure(`plan[${index}].step is longer than ${MAX_PLAN_TEXT_CHARS} characters`);
    const mapped = typeof status === 'string' && Object.hasOwn(STATUS, status) ? STATUS[status] : undefined;
    if (mapped === undefined) return failure(`plan[${index}].status must be one of: pending, in_progress, completed`);
    steps.push({ step, status: mapped });
  }
  if (steps.filter((s) => s.status === 'inProgress').length > 1) return failure('at most one step can be in_progress');
  return { explanation: typeof explanation === 'string' ? explanation : null, plan: steps };
}
