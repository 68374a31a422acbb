/** The `exec_command` tool's schema (Codex's names and parameters) and its arguments. */
import type { FunctionToolSpec } from '../../model/types.js';
import { clampYield } from '../../commands/sessions/yield-time.js';

export const EXEC_COMMAND_TOOL_NAME = 'exec_command';
export const DEFAULT_EXEC_YIELD_TIME_MS = 10_000;

export const EXEC_COMMAND_SPEC: FunctionToolSpec = {
  type: 'function',
  name: EXEC_COMMAND_TOOL_NAME,
  description:
    'Runs a command line, in a pseudo-terminal when tty is true, and returns its output; a command still running when the wait ends keeps a session id for write_stdin.',
  strict: false,
  parameters: {
    type: 'object',
    properties: {
      cmd: { type: 'string', description: 'The command line to run.' },
      workdir: { type: 'string', description: "Where it runs; relative to the turn's working directory, which is the default." },
      shell: { type: 'string', description: "The shell that runs it; the user's shell by default." },
      login: { type: 'boolean', description: 'Run the shell as a login shell (-lc); true by default.' },
      tty: { type: 'boolean', description: 'Give the command a pseudo-terminal (needed to write to it later); false: plain pipes.' },
      yield_time_ms: { type: 'number', description: 'How long to wait for output before answering: 10000 ms by default, 250 to 30000.' },
      max_output_tokens: {
        type: 'number',
        description: 'The most output tokens to return (10000 by default); longer output keeps its head and tail.',
      },
      sandbox_permissions: {
        type: 'string',
        enum: ['use_default', 'require_escalated'],
        description: '`use_default` runs in the sandbox; `require_escalated` asks the user to run it outside.',
      },
      justification: { type: 'string', description: 'With require_escalated: the question the user is asked.' },
      prefix_rule: {
        type: 'array',
        items: { type: 'string' },
        description: 'With require_escalated: the command prefix an approval could cover, e.g. ["git", "pull"].',
      },
    },
    required: ['cmd'],
    additionalProperties: false,
  },
};

export interface ExecCommandArguments {
  cmd: string;
  workdir: string | null;
  shell: string | null;
  login: boolean;
  tty: boolean;
  yieldTimeMs: number;
  maxOutputTokens: number | null;
  escalated: boolean;
  justification: string | null;
  prefixRule: string[] | null;
}

const POSIX_SHELLS = new Set(['bash', 'zsh', 'sh', 'dash', 'ksh']);
const fail = (what: string): { error: string } => ({ error: `failed to parse function arguments: ${what}` });
const optional = (value: unknown, type: 'string' | 'boolean' | 'number'): boolean =>
  value === undefined || value === null || typeof value === type;

/** Parses the model's arguments; a string error is told back to the model as the tool output. */
export function parseExecCommandArguments(raw: string): ExecCommandArguments | { error: string } {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return fail('not JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return fail('expected an object');
  const v = value as Record<string, unknown>;
  if (typeof v.cmd !== 'string' || v.cmd.trim() === '') return fail('`cmd` must be a non-empty string');
  for (const key of ['workdir', 'shell', 'justification'] as const)
    if (!optional(v[key], 'string')) return fail(`\`${key}\` must be a string`);
  for (const key of ['login', 'tty'] as const) if (!optional(v[key], 'boolean')) return fail(`\`${key}\` must be a boolean`);
  for (const key of ['yield_time_ms', 'max_output_tokens'] as const) {
    if (!optional(v[key], 'number') || (typeof v[key] === 'number' && !(v[key] >= 0)))
      return fail(`\`${key}\` must be a number of 0 or more`);
  }
  // The approval reads `cmd` as a POSIX shell script: another program would run it some other way.
  if (typeof v.shell === 'string' && v.shell !== '' && !POSIX_SHELLS.has(v.shell.split('/').pop()!)) {
    return fail('`shell` must be a POSIX shell (bash, zsh, sh, dash or ksh)');
  }
  const permissions = v.sandbox_permissions ?? 'use_default';
  if (permissions !== 'use_default' && permissions !== 'require_escalated') {
    return fail('`sandbox_permissions` must be "use_default" or "require_escalated"');
  }
  const rule = v.prefix_rule;
  if (rule !== undefined && rule !== null && !(Array.isArray(rule) && rule.every((word) => typeof word === 'string'))) {
    return fail('`prefix_rule` must be an array of strings');
  }
  return {
    cmd: v.cmd,
    workdir: typeof v.workdir === 'string' && v.workdir !== '' ? v.workdir : null,
    shell: typeof v.shell === 'string' && v.shell !== '' ? v.shell : null,
    login: v.login !== false,
    tty: v.tty === true,
    yieldTimeMs: clampYield(typeof v.yield_time_ms === 'number' ? v.yield_time_ms : DEFAULT_EXEC_YIELD_TIME_MS),
    maxOutputTokens: typeof v.max_output_tokens === 'number' ? Math.floor(v.max_output_tokens) : null,
    escalated: permissions === 'require_escalated',
    justification: typeof v.justification === 'string' && v.justification.trim() !== '' ? v.justification : null,
    prefixRule: Array.isArray(rule) ? (rule as string[]) : null,
  };
}
