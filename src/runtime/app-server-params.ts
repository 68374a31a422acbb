/**
 * zod schemas for the app-server request params (docs/codex-parity.md#requests-and-results). Unknown fields are ignored
 * (as serde does); a wrong field is reported by its path, e.g. `input[0].text`.
 */
import { z } from 'zod';
import {
  type ClientMethod,
  type ClientRequestMap,
  REASONING_EFFORTS,
  type ReasoningEffort,
  type SandboxPolicy,
  type V2UserInput,
} from '../protocol/api.js';
import { CLIENT_ID_MAX_CHARS } from '../protocol/pending-input.js';
import { formatPath, parseV2UserInputs } from '../protocol/schemas.js';
import { TOO_DEEP_PROBLEM, tooDeepPath, tooDeepWhere } from '../protocol/json-depth.js';

const approvalPolicy = z.enum(['on-request', 'never', 'untrusted']);
const effort = z.enum(REASONING_EFFORTS as [ReasoningEffort, ...ReasoningEffort[]]);
const sandboxMode = z.enum(['read-only', 'workspace-write', 'danger-full-access']);
const sandboxPolicy = z
  .discriminatedUnion('type', [
    z.object({ type: z.literal('dangerFullAccess') }),
    z.object({ type: z.literal('readOnly'), networkAccess: z.boolean().nullish() }),
    z.object({
      type: z.literal('workspaceWrite'),
      writableRoots: z.array(z.string()).nullish(),
      networkAccess: z.boolean().nullish(),
      excludeTmpdirEnvVar: z.boolean().nullish(),
      excludeSlashTmp: z.boolean().nullish(),
    }),
  ])
  .transform(
    (policy): SandboxPolicy => Object.fromEntries(Object.entries(policy).filter(([, v]) => v !== null && v !== undefined)) as SandboxPolicy,
  );

/** Tiller's id of one input (turn/start, turn/steer, tiller/pendingInput/edit). */
const clientId = z.string().min(1, 'must not be empty').max(CLIENT_ID_MAX_CHARS, `must be at most ${CLIENT_ID_MAX_CHARS} characters`);

export const initializeParamsSchema = z.object({
  clientInfo: z.object({ name: z.string(), version: z.string(), title: z.string().nullish() }),
  capabilities: z
    .object({
      experimentalApi: z.boolean().nullish(),
      optOutNotificationMethods: z.array(z.string()).nullish(),
      tillerExtensions: z.boolean().nullish(),
    })
    .nullish(),
});

export const threadStartParamsSchema = z.object({
  model: z.string().nullish(),
  cwd: z.string().nullish(),
  approvalPolicy: approvalPolicy.nullish(),
  sandbox: sandboxMode.nullish(),
  ephemeral: z.boolean().nullish(),
});

const threadSource = z.enum(['cli', 'exec', 'appServer', 'vscode', 'unknown']);

export const threadListParamsSchema = z.object({
  cursor: z.string().nullish(),
  limit: z.number().int().nonnegative().nullish(),
  cwd: z.union([z.string(), z.array(z.string())]).nullish(),
  searchTerm: z.string().nullish(),
  sourceKinds: z.array(threadSource).nullish(),
});

export const threadReadParamsSchema = z.object({
  threadId: z.string(),
  includeTurns: z.boolean().nullish(),
});

/** What a resumed or forked thread may run with instead of what it recorded. */
const threadOverrides = {
  model: z.string().nullish(),
  cwd: z.string().nullish(),
  approvalPolicy: approvalPolicy.nullish(),
  sandbox: sandboxMode.nullish(),
  excludeTurns: z.boolean().nullish(),
  tillerTurnsLimit: z.number().int().nonnegative().nullish(),
};

export const threadResumeParamsSchema = z.object({ threadId: z.string(), ...threadOverrides });

export const threadForkParamsSchema = z.object({
  threadId: z.string(),
  lastTurnId: z.string().nullish(),
  tillerBeforeTurnId: z.string().nullish(),
  ephemeral: z.boolean().nullish(),
  ...threadOverrides,
});

export const threadRevertParamsSchema = z.object({
  threadId: z.string(),
  beforeTurnId: z.string().min(1),
});

export const turnStartParamsSchema = z.object({
  threadId: z.string(),
  input: z.array(z.unknown()),
  cwd: z.string().nullish(),
  approvalPolicy: approvalPolicy.nullish(),
  sandboxPolicy: sandboxPolicy.nullish(),
  model: z.string().nullish(),
  // null (clear) and absent (keep) mean different things here: zod keeps them apart.
  effort: effort.nullish(),
  tillerClearEffort: z.boolean().nullish(),
  kind: z.enum(['regular', 'review', 'compact']).nullish(),
  outputSchema: z.record(z.string(), z.unknown()).nullish(),
  tillerClientId: clientId.nullish(),
  tillerModelProvider: z.string().min(1).nullish(),
});

export const turnSteerParamsSchema = z.object({
  threadId: z.string(),
  input: z.array(z.unknown()),
  expectedTurnId: z.string(),
  tillerClientId: clientId.nullish(),
});

export const tillerPendingInputEditParamsSchema = z
  .object({
    threadId: z.string(),
    clientId,
    action: z.enum(['hold', 'release', 'replace', 'retract']),
    input: z.array(z.unknown()).nullish(),
  })
  .superRefine((params, ctx) => {
    const given = params.input !== undefined && params.input !== null;
    if (params.action === 'replace' && !given) ctx.addIssue({ code: 'custom', path: ['input'], message: 'required for replace' });
    if (params.action !== 'replace' && given)
      ctx.addIssue({ code: 'custom', path: ['input'], message: `not allowed for ${params.action}` });
  });

export const turnInterruptParamsSchema = z.object({
  threadId: z.string(),
  turnId: z.string(),
});

export const modelListParamsSchema = z.object({
  cursor: z.string().nullish(),
  limit: z.number().int().positive().nullish(),
  tillerProviders: z.boolean().nullish(),
});

export const tillerShellCommandParamsSchema = z.object({
  threadId: z.string(),
  command: z.string().trim().min(1),
});

export const tillerInspectInputParamsSchema = z.object({
  threadId: z.string().nullish(),
  input: z.array(z.unknown()),
});

export const tillerCheckpointsListParamsSchema = z.object({ threadId: z.string() });
export const tillerCheckpointsRestoreParamsSchema = z.object({
  threadId: z.string(),
  turnId: z.string(),
  force: z.boolean().optional(),
  paths: z.array(z.string()).optional(),
});
export const tillerCheckpointsDiffParamsSchema = z.object({ threadId: z.string(), turnId: z.string() });
export const tillerCheckpointsRedoParamsSchema = z.object({ threadId: z.string(), force: z.boolean().optional() });

export const threadCompactStartParamsSchema = z.object({ threadId: z.string() });

const CODEX_REVIEW_TARGETS = [
  z.object({ type: z.literal('uncommittedChanges') }),
  z.object({ type: z.literal('baseBranch'), branch: z.string() }),
  z.object({ type: z.literal('commit'), sha: z.string(), title: z.string().nullish() }),
  z.object({ type: z.literal('custom'), instructions: z.string() }),
] as const;

export const reviewStartParamsSchema = z.object({
  threadId: z.string(),
  target: z.discriminatedUnion('type', [
    ...CODEX_REVIEW_TARGETS,
    z.object({ type: z.literal('tiller/sessionChanges'), threadId: z.string().nullish() }),
  ]),
  delivery: z.literal('inline').nullish(),
});

/** Codex's own targets: what a client without Tiller's extensions may name (its error for any other). */
const codexReviewStartParamsSchema = reviewStartParamsSchema.extend({
  target: z.discriminatedUnion('type', [...CODEX_REVIEW_TARGETS]),
});

export const threadShellCommandParamsSchema = z.object({
  threadId: z.string(),
  command: z.string().trim().min(1),
  timeoutMs: z.number().int().nonnegative().nullish(),
});

export const mcpServerStatusListParamsSchema = z.object({
  cursor: z.string().nullish(),
  limit: z.number().int().positive().nullish(),
});

export const mcpServerRefreshParamsSchema = z.object({
  name: z.string().nullish(),
});

export const threadSetNameParamsSchema = z.object({ threadId: z.string(), name: z.string() });
export const tillerCommandSessionsListParamsSchema = z.object({ threadId: z.string() });
export const tillerCommandSessionsStopParamsSchema = z.object({ threadId: z.string(), id: z.number().int().nullish() });

export const paramsSchemas = {
  initialize: initializeParamsSchema,
  'thread/start': threadStartParamsSchema,
  'thread/list': threadListParamsSchema,
  'thread/read': threadReadParamsSchema,
  'thread/resume': threadResumeParamsSchema,
  'thread/fork': threadForkParamsSchema,
  'thread/revert': threadRevertParamsSchema,
  'turn/start': turnStartParamsSchema,
  'turn/steer': turnSteerParamsSchema,
  'turn/interrupt': turnInterruptParamsSchema,
  'model/list': modelListParamsSchema,
  'tiller/shellCommand': tillerShellCommandParamsSchema,
  'thread/shellCommand': threadShellCommandParamsSchema,
  'thread/compact/start': threadCompactStartParamsSchema,
  'review/start': reviewStartParamsSchema,
  'mcpServerStatus/list': mcpServerStatusListParamsSchema,
  'mcpServer/refresh': mcpServerRefreshParamsSchema,
  'tiller/pendingInput/edit': tillerPendingInputEditParamsSchema,
  'tiller/inspectInput': tillerInspectInputParamsSchema,
  'thread/name/set': threadSetNameParamsSchema,
  'tiller/commandSessions/list': tillerCommandSessionsListParamsSchema,
  'tiller/commandSessions/stop': tillerCommandSessionsStopParamsSchema,
  'tiller/checkpoints/list': tillerCheckpointsListParamsSchema,
  'tiller/checkpoints/restore': tillerCheckpointsRestoreParamsSchema,
  'tiller/checkpoints/redo': tillerCheckpointsRedoParamsSchema,
  'tiller/checkpoints/diff': tillerCheckpointsDiffParamsSchema,
} as const;

export type ParamsMethod = keyof typeof paramsSchemas;

type WithTypedInput<T> = T extends { input: unknown[] }
  ? Omit<T, 'input'> & { input: V2UserInput[] }
  : T extends { input?: unknown[] | null }
    ? Omit<T, 'input'> & { input?: V2UserInput[] | null }
    : T;
export type ParsedParams<M extends ParamsMethod> = WithTypedInput<z.output<(typeof paramsSchemas)[M]>>;

/** The app server's handler for each method: the parsed params in, the method's result out. */
export type MethodHandlers = { [M in ClientMethod]: (params: ParsedParams<M>) => Promise<ClientRequestMap[M]['result']> };

/**
 * Parses params; the error message names the first bad field. `tiller`: the client has Tiller's
 * extensions; without them review/start knows Codex's targets only (a Tiller one is an unknown variant).
 */
export function parseParams<M extends ParamsMethod>(
  method: M,
  params: unknown,
  tiller = true,
): { ok: true; value: ParsedParams<M> } | { ok: false; message: string } {
  // Methods whose params are all optional accept a missing params object.
  const optional =
    method === 'thread/start' ||
    method === 'thread/list' ||
    method === 'model/list' ||
    method === 'mcpServerStatus/list' ||
    method === 'mcpServer/refresh';
  const value = params === undefined || params === null ? (optional ? {} : params) : params;
  // Before any recursive validator sees it (and before it is stored or sent on).
  const deep = tooDeepPath(value);
  if (deep !== null)
    return {
      ok: false,
      message: `Invalid params: ${tooDeepWhere(deep, (path) => (path.length === 0 ? 'params' : formatPath(path)))}: ${TOO_DEEP_PROBLEM}`,
    };
  const schema = method === 'review/start' && !tiller ? codexReviewStartParamsSchema : paramsSchemas[method];
  const parsed = schema.safeParse(value);
  if (parsed.success) {
    const data = parsed.data as Record<string, unknown>;
    if (data.input === undefined || data.input === null) return { ok: true, value: data as ParsedParams<M> };
    // Items are checked by the protocol layer, which also validates text element ranges.
    const input = parseV2UserInputs(data.input);
    if (!input.ok)
      return {
        ok: false,
        message: `Invalid params: input${input.error.path === 'input' ? '' : input.error.path.startsWith('[') ? input.error.path : `.${input.error.path}`}: ${input.error.problem}`,
      };
    return { ok: true, value: { ...data, input: input.value } as ParsedParams<M> };
  }
  return { ok: false, message: issueText(parsed.error) };
}

function issueText(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'Invalid params';
  const problem = issue.message.replace(/^Invalid input: /, '');
  const where = issue.path.length === 0 ? 'params' : formatPath(issue.path);
  return `Invalid params: ${where}: ${problem}`;
}

/**
 * Parses a one-line turn/start once, as a first Enter would. zod builds a schema's parser on its
 * first use (about 9 ms for turn/start), so the server does it in the pause after it starts instead
 * of on the first message.
 */
export function warmTurnStartParams(): void {
  parseParams('turn/start', WARM_TURN_START);
}

/** Valid params, so the warm-up takes the whole path a message takes. */
export const WARM_TURN_START = {
  threadId: '00000000-0000-7000-8000-000000000000',
  input: [{ type: 'text', text: 'warm', text_elements: [] }],
};
