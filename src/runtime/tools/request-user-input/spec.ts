/**
 * The `request_user_input` tool's schema (Codex's: one to three questions, each with options), its
 * arguments and their limits, and what the model reads back: Codex's JSON of the answers.
 */
import type { ToolRequestUserInputQuestion, ToolRequestUserInputResponse } from '../../../protocol/api.js';
import type { FunctionToolSpec } from '../../model/types.js';

export const REQUEST_USER_INPUT_TOOL_NAME = 'request_user_input';
export const MAX_QUESTIONS = 3;
/** Codex asks for 2–3 options; a few more are let through, a list the picker cannot show is not. */
export const MAX_OPTIONS = 6;
const MAX_TEXT_CHARS = 500;

export const CANCELLED_OUTPUT = 'request_user_input was cancelled before receiving a response';
/** `tiller exec`, or a client that cannot answer: the model is told to go on without. */
export const NO_USER_OUTPUT =
  'request_user_input is unavailable: no user can answer in this session. Decide with your best judgement and go on.';

export const REQUEST_USER_INPUT_TOOL_SPEC: FunctionToolSpec = {
  type: 'function',
  name: REQUEST_USER_INPUT_TOOL_NAME,
  description:
    'Asks the user one to three short questions, each with a few choices, and waits for the answers. First tell the user in a message what you need to decide and why.',
  strict: false,
  parameters: {
    type: 'object',
    properties: {
      questions: {
        type: 'array',
        description: 'The questions; one is best, never more than 3',
        items: {
          type: 'object',
          properties: {
            id: { type: 'string', description: 'Stable snake_case id the answer is keyed by' },
            header: { type: 'string', description: 'Short header shown above the question (at most 12 characters)' },
            question: { type: 'string', description: 'The question, one sentence' },
            options: {
              type: 'array',
              description:
                'Two or three exclusive choices, the recommended one first with "(Recommended)" after its label. No "Other" choice: the user can always answer in their own words.',
              items: {
                type: 'object',
                properties: {
                  label: { type: 'string', description: 'The choice, 1-5 words' },
                  description: { type: 'string', description: 'One short sentence on what choosing it means' },
                },
                required: ['label', 'description'],
                additionalProperties: false,
              },
            },
          },
          required: ['id', 'header', 'question', 'options'],
          additionalProperties: false,
        },
      },
    },
    required: ['questions'],
    additionalProperties: false,
  },
};

const failure = (reason: string): { error: string } => ({ error: `failed to parse function arguments: ${reason}` });

function text(value: unknown, where: string, allowEmpty = false): string | { error: string } {
  if (typeof value !== 'string' || (!allowEmpty && value.trim() === '')) return failure(`${where} must be a non-empty string`);
  if (value.length > MAX_TEXT_CHARS) return failure(`${where} is longer than ${MAX_TEXT_CHARS} characters`);
  return value;
}

/** The questions as the client is asked them (`isOther` set on each, as Codex does), or the error for the model. */
export function parseRequestUserInputArguments(raw: string): { questions: ToolRequestUserInputQuestion[] } | { error: string } {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return failure('not JSON');
  }
  const questions = typeof value === 'object' && value !== null ? (value as { questions?: unknown }).questions : undefined;
  if (!Array.isArray(questions) || questions.length === 0) return failure('`questions` must be a non-empty array');
  if (questions.length > MAX_QUESTIONS) return failure(`at most ${MAX_QUESTIONS} questions can be asked at once`);
  const out: ToolRequestUserInputQuestion[] = [];
  const ids = new Set<string>();
  for (const [i, entry] of questions.entries()) {
    const q = (typeof entry === 'object' && entry !== null ? entry : {}) as Record<string, unknown>;
    const id = text(q.id, `questions[${i}].id`);
    const header = text(q.header, `questions[${i}].header`, true);
    const question = text(q.question, `questions[${i}].question`);
    for (const field of [id, header, question]) if (typeof field !== 'string') return field;
    if (ids.has(id as string)) return failure(`questions[${i}].id repeats "${id as string}"`);
    ids.add(id as string);
    if (!Array.isArray(q.options) || q.options.length === 0)
      return { error: 'request_user_input requires non-empty options for every question' };
    if (q.options.length > MAX_OPTIONS) return failure(`questions[${i}] has more than ${MAX_OPTIONS} options`);
    const options: { label: string; description: string }[] = [];
    for (const [j, option] of q.options.entries()) {
      const o = (typeof option === 'object' && option !== null ? option : {}) as Record<string, unknown>;
      const label = text(o.label, `questions[${i}].options[${j}].label`);
      const description = text(o.description ?? '', `questions[${i}].options[${j}].description`, true);
      if (typeof label !== 'string') return label;
      if (typeof description !== 'string') return description;
      options.push({ label, description });
    }
    out.push({ id: id as string, header: header as string, question: question as string, isOther: true, isSecret: false, options });
  }
  return { questions: out };
}

/** Codex's output: the response's JSON, answers keyed by question id, only for the questions asked. */
export function formatAnswersForModel(questions: readonly ToolRequestUserInputQuestion[], response: ToolRequestUserInputResponse): string {
  const answers: ToolRequestUserInputResponse['answers'] = {};
  for (const question of questions) {
    const given = response.answers[question.id]?.answers;
    if (given !== undefined) answers[question.id] = { answers: given.map((a) => a.slice(0, 4 * MAX_TEXT_CHARS)) };
  }
  return JSON.stringify({ answers });
}
