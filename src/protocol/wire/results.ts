/**
 * zod schemas of the result of every client method (src/protocol/client-requests.ts `ClientRequestMap`), each
 * checked at compile time against its type. `tiller…` fields are Tiller's extensions.
 */
import { z } from 'zod';
import type {
  ClientMethod,
  ClientRequestMap,
  Model,
  TillerInputReport,
  TillerShellCommandResult,
  ThreadResumeResult,
  ThreadStartResult,
} from '../api.js';
import { agrees } from './check.js';
import {
  approvalPolicySchema,
  mcpServerStatusSchema,
  reasoningEffortSchema,
  sandboxPolicySchema,
  threadSchema,
  tokenUsageSchema,
  turnSchema,
  tillerTurnCheckpointSchema,
} from './shapes.js';

type Result<M extends ClientMethod> = ClientRequestMap[M]['result'];
/** `{}` on the wire: no field may be there. */
const empty = z.record(z.string(), z.never());

const checkpointsRestoreResult = z.discriminatedUnion('status', [
  z.strictObject({
    status: z.literal('restored'),
    changes: z.array(z.strictObject({ path: z.string(), kind: z.enum(['add', 'delete', 'update']) })),
  }),
  z.strictObject({ status: z.literal('userEdited'), paths: z.array(z.string()) }),
  z.strictObject({ status: z.literal('unavailable'), message: z.string() }),
]);

const threadStartShape = {
  thread: threadSchema,
  model: z.string(),
  modelProvider: z.string(),
  cwd: z.string(),
  approvalPolicy: approvalPolicySchema,
  approvalsReviewer: z.literal('user'),
  sandbox: sandboxPolicySchema,
  reasoningEffort: reasoningEffortSchema.nullable(),
  tillerInstructions: z.array(z.strictObject({ path: z.string(), bytes: z.number(), fileBytes: z.number() })).optional(),
  tillerWarnings: z.array(z.string()).optional(),
};
const threadStartResult = agrees<ThreadStartResult>()(z.strictObject(threadStartShape));
const threadResumeResult = agrees<ThreadResumeResult>()(
  z.strictObject({
    ...threadStartShape,
    tillerTokenUsage: tokenUsageSchema.nullable().optional(),
    tillerRolloutWarnings: z.array(z.string()).optional(),
  }),
);

const modelSchema = agrees<Model>()(
  z.strictObject({
    id: z.string(),
    model: z.string(),
    displayName: z.string(),
    description: z.string(),
    hidden: z.boolean(),
    supportedReasoningEfforts: z.array(z.strictObject({ reasoningEffort: reasoningEffortSchema, description: z.string() })),
    defaultReasoningEffort: reasoningEffortSchema,
    isDefault: z.boolean(),
    tillerProvider: z.string().optional(),
    tillerProviderName: z.string().optional(),
  }),
);

const tillerShellCommandResult = agrees<TillerShellCommandResult>()(
  z.strictObject({
    exitCode: z.number().nullable(),
    output: z.string(),
    durationMs: z.number(),
    sandbox: z.enum(['confined', 'none', 'unavailable']),
    sandboxDenied: z.boolean(),
  }),
);

const role = z.enum(['user', 'developer', 'assistant', 'system']);
const inputReport = agrees<TillerInputReport>()(
  z.strictObject({
    parts: z.array(
      z.discriminatedUnion('type', [
        z.strictObject({ role, type: z.literal('text'), chars: z.number(), preview: z.string() }),
        z.strictObject({
          role,
          type: z.literal('image'),
          detail: z.enum(['auto', 'low', 'high', 'original']),
          mime: z.string().nullable(),
          width: z.number().nullable(),
          height: z.number().nullable(),
          bytes: z.number().nullable(),
          ref: z.string().nullable(),
        }),
        z.strictObject({
          role,
          type: z.literal('audio'),
          mime: z.string().nullable(),
          bytes: z.number().nullable(),
          ref: z.string().nullable(),
        }),
      ]),
    ),
    skills: z.array(z.strictObject({ name: z.string(), path: z.string(), chars: z.number() })),
    hooks: z.array(z.string()),
    textChars: z.number(),
    maxTextChars: z.number(),
  }),
);

export const resultSchemas = {
  initialize: agrees<Result<'initialize'>>()(
    z.strictObject({ userAgent: z.string(), codexHome: z.string(), platformFamily: z.enum(['unix', 'windows']), platformOs: z.string() }),
  ),
  'thread/start': threadStartResult,
  'turn/start': agrees<Result<'turn/start'>>()(z.strictObject({ turn: turnSchema })),
  'turn/steer': agrees<Result<'turn/steer'>>()(z.strictObject({ turnId: z.string() })),
  'turn/interrupt': agrees<Result<'turn/interrupt'>>()(empty),
  'model/list': agrees<Result<'model/list'>>()(
    z.strictObject({ data: z.array(modelSchema), nextCursor: z.string().nullable(), note: z.string().nullable() }),
  ),
  'thread/list': agrees<Result<'thread/list'>>()(z.strictObject({ data: z.array(threadSchema), nextCursor: z.string().nullable() })),
  'thread/read': agrees<Result<'thread/read'>>()(z.strictObject({ thread: threadSchema })),
  'thread/resume': threadResumeResult,
  'thread/fork': threadResumeResult,
  'thread/revert': agrees<Result<'thread/revert'>>()(z.strictObject({ thread: threadSchema })),
  'tiller/shellCommand': tillerShellCommandResult,
  'thread/shellCommand': agrees<Result<'thread/shellCommand'>>()(z.strictObject({ tillerShellCommand: tillerShellCommandResult })),
  'thread/compact/start': agrees<Result<'thread/compact/start'>>()(empty),
  'review/start': agrees<Result<'review/start'>>()(z.strictObject({ turn: turnSchema, reviewThreadId: z.string() })),
  'mcpServerStatus/list': agrees<Result<'mcpServerStatus/list'>>()(
    z.strictObject({ data: z.array(mcpServerStatusSchema), nextCursor: z.string().nullable() }),
  ),
  'mcpServer/refresh': agrees<Result<'mcpServer/refresh'>>()(empty),
  'tiller/pendingInput/edit': agrees<Result<'tiller/pendingInput/edit'>>()(
    z.strictObject({ status: z.enum(['held', 'released', 'replaced', 'retracted', 'alreadyDelivered', 'notPending']) }),
  ),
  'tiller/inspectInput': inputReport,
  'thread/name/set': agrees<Result<'thread/name/set'>>()(empty),
  'tiller/commandSessions/list': agrees<Result<'tiller/commandSessions/list'>>()(
    z.strictObject({
      data: z.array(
        z.strictObject({
          id: z.number(),
          command: z.string(),
          startedAtMs: z.number(),
          runningMs: z.number(),
          lastLine: z.string(),
          exited: z.boolean(),
          exitCode: z.number().nullable(),
        }),
      ),
    }),
  ),
  'tiller/commandSessions/stop': agrees<Result<'tiller/commandSessions/stop'>>()(z.strictObject({ stopped: z.array(z.number()) })),
  'tiller/checkpoints/list': agrees<Result<'tiller/checkpoints/list'>>()(
    z.strictObject({ checkpoints: z.array(tillerTurnCheckpointSchema) }),
  ),
  'tiller/checkpoints/restore': agrees<Result<'tiller/checkpoints/restore'>>()(checkpointsRestoreResult),
  'tiller/checkpoints/redo': agrees<Result<'tiller/checkpoints/redo'>>()(checkpointsRestoreResult),
  'tiller/checkpoints/diff': agrees<Result<'tiller/checkpoints/diff'>>()(
    z.strictObject({ workspace: z.string(), patch: z.string().nullable() }),
  ),
} satisfies { [M in ClientMethod]: z.ZodType<Result<M>> };
