/** The `write_stdin` tool's schema (Codex's names and parameters) and its arguments. */
import type { FunctionToolSpec } from '../../model/types.js';
import { clampYield, MIN_POLL_YIELD_TIME_MS } from '../../commands/sessions/yield-time.js';

export const WRITE_STDIN_TOOL_NAME = 'write_stdin';
export const DEFAULT_WRITE_YIELD_TIME_MS = 250;

export const WRITE_STDIN_SPEC: FunctionToolSpec = {
  type: 'function',
  name: WRITE_STDIN_TOOL_NAME,
  description:
    'Writes characters to a running exec_command session (started with tty) and returns what it printed since; empty chars only waits and reads.',
  strict: false,
  parameters: {
    type: 'object',
    properties: {
      session_id: { type: 'number', description: 'The session id exec_command returned.' },
      chars: { type: 'string', description: 'What to type (use "\\n" for Enter, "\\u0003" for Ctrl-C); empty polls.' },
      yield_time_ms: {
        type: 'number',
        description: 'How long to wait for output: 250 ms by default for a write, a poll waits 5000 to 30000.',
      },
      max_output_tokens: { type: 'number', description: 'The most output tokens to return (10000 by default).' },
    },
    required: ['session_id'],
    additionalProperties: false,
  },
};

export interface WriteStdinArguments {
  sessionId: number;
  chars: string;
  yieldTimeMs: number;
  maxOutputTokens: number | null;
}

const fail = (what: string): { error: string } => ({ error: `failed to parse function arguments: ${what}` });

export function parseWriteStdinArguments(raw: string): WriteStdinArguments | { error: string } {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return fail('not JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return fail('expected an object');
  const v = value as Record<string, unknown>;
  if (typeof v.session_id !== 'number' || !Number.isInteger(v.session_id)) return fail('`session_id` must be an integer');
  if (v.chars !== undefined && v.chars !== null && typeof v.chars !== 'string') return fail('`chars` must be a string');
  for (const key of ['yield_time_ms', 'max_output_tokens'] as const) {
    if (v[key] !== undefined && v[key] !== null && !(typeof v[key] === 'number' && v[key] >= 0))
      return fail(`\`${key}\` must be a number of 0 or more`);
  }
  const chars = typeof v.chars === 'string' ? v.chars : '';
  const requested = typeof v.yield_time_ms === 'number' ? v.yield_time_ms : DEFAULT_WRITE_YIELD_TIME_MS;
  return {
    sessionId: v.session_id,
    chars,
    // A poll waits longer, so a model polling in a loop does not spin.
    yieldTimeMs: chars === '' ? clampYield(requested, MIN_POLL_YIELD_TIME_MS) : clampYield(requested),
    maxOutputTokens: typeof v.max_output_tokens === 'number' ? Math.floor(v.max_output_tokens) : null,
  };
}
