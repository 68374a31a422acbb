/**
 * zod schemas of every server notification's params (src/protocol/server-notifications.ts `ServerNotificationMap`),
 * each checked at compile time against its type. `tiller/…` methods and `tiller…` fields are
 * Tiller's extensions.
 */
import { z } from 'zod';
import type { HookRunSummary, ServerNotificationMap, ServerNotificationMethod, TillerDelivery } from '../api.js';
import { agrees } from './check.js';
import {
  fileUpdateChangeSchema,
  threadItemSchema,
  threadSchema,
  tillerTurnCheckpointSchema,
  tokenUsageSchema,
  turnErrorSchema,
  turnSchema,
} from './shapes.js';

type Params<M extends ServerNotificationMethod> = ServerNotificationMap[M];

const inTurn = { threadId: z.string(), turnId: z.string() };
const delta = z.strictObject({ ...inTurn, itemId: z.string(), delta: z.string() });

const hookRunSummary = agrees<HookRunSummary>()(
  z.strictObject({
    id: z.string(),
    eventName: z.literal('userPromptSubmit'),
    handlerType: z.literal('command'),
    executionMode: z.literal('sync'),
    scope: z.literal('turn'),
    source: z.literal('user'),
    sourcePath: z.string(),
    displayOrder: z.number(),
    status: z.enum(['completed', 'blocked']),
    statusMessage: z.string().nullable(),
    startedAt: z.number(),
    completedAt: z.number().nullable(),
    durationMs: z.number().nullable(),
    entries: z.tuple([]),
  }),
);

const tillerDelivery = agrees<TillerDelivery>()(
  z.strictObject({
    samplingRequest: z.number(),
    afterItem: z
      .discriminatedUnion('type', [
        z.strictObject({ id: z.string(), type: z.literal('commandExecution'), command: z.string() }),
        z.strictObject({ id: z.string(), type: z.literal('mcpToolCall'), server: z.string(), tool: z.string() }),
        z.strictObject({ id: z.string(), type: z.literal('other') }),
      ])
      .nullable(),
    deliveredAtMs: z.number(),
  }),
);

export const notificationSchemas = {
  'thread/started': agrees<Params<'thread/started'>>()(z.strictObject({ thread: threadSchema })),
  'turn/started': agrees<Params<'turn/started'>>()(z.strictObject({ threadId: z.string(), turn: turnSchema })),
  'item/started': agrees<Params<'item/started'>>()(z.strictObject({ item: threadItemSchema, ...inTurn, startedAtMs: z.number() })),
  'item/agentMessage/delta': agrees<Params<'item/agentMessage/delta'>>()(delta),
  'item/reasoning/textDelta': agrees<Params<'item/reasoning/textDelta'>>()(delta),
  'item/commandExecution/outputDelta': agrees<Params<'item/commandExecution/outputDelta'>>()(delta),
  'item/completed': agrees<Params<'item/completed'>>()(
    z.strictObject({ item: threadItemSchema, ...inTurn, completedAtMs: z.number(), tillerDelivery: tillerDelivery.optional() }),
  ),
  'turn/completed': agrees<Params<'turn/completed'>>()(z.strictObject({ threadId: z.string(), turn: turnSchema })),
  'turn/plan/updated': agrees<Params<'turn/plan/updated'>>()(
    z.strictObject({
      ...inTurn,
      explanation: z.string().nullable(),
      plan: z.array(z.strictObject({ step: z.string(), status: z.enum(['pending', 'inProgress', 'completed']) })),
    }),
  ),
  error: agrees<Params<'error'>>()(z.strictObject({ error: turnErrorSchema, willRetry: z.boolean(), ...inTurn })),
  'thread/tokenUsage/updated': agrees<Params<'thread/tokenUsage/updated'>>()(z.strictObject({ ...inTurn, tokenUsage: tokenUsageSchema })),
  'tiller/requiredMcpServers': agrees<Params<'tiller/requiredMcpServers'>>()(z.strictObject({ ...inTurn, servers: z.array(z.string()) })),
  'hook/completed': agrees<Params<'hook/completed'>>()(
    z.strictObject({ ...inTurn, run: hookRunSummary, tillerAdditionalContexts: z.number() }),
  ),
  warning: agrees<Params<'warning'>>()(z.strictObject({ ...inTurn, message: z.string() })),
  'tiller/mediaPreparation': agrees<Params<'tiller/mediaPreparation'>>()(
    z.strictObject({ ...inTurn, state: z.enum(['started', 'finished']), count: z.number() }),
  ),
  'tiller/skillInjected': agrees<Params<'tiller/skillInjected'>>()(z.strictObject({ ...inTurn, name: z.string(), path: z.string() })),
  'mcpServer/startupStatus/updated': agrees<Params<'mcpServer/startupStatus/updated'>>()(
    z.strictObject({
      threadId: z.string().nullable(),
      name: z.string(),
      status: z.enum(['starting', 'ready', 'failed']),
      error: z.string().nullable(),
    }),
  ),
  'tiller/mcpServerStarting': agrees<Params<'tiller/mcpServerStarting'>>()(z.strictObject({ ...inTurn, server: z.string() })),
  'item/mcpToolCall/progress': agrees<Params<'item/mcpToolCall/progress'>>()(
    z.strictObject({ ...inTurn, itemId: z.string(), message: z.string() }),
  ),
  'tiller/pendingInputsReturned': agrees<Params<'tiller/pendingInputsReturned'>>()(
    z.strictObject({ ...inTurn, clientIds: z.array(z.string()) }),
  ),
  'tiller/reviewOutput': agrees<Params<'tiller/reviewOutput'>>()(
    z.strictObject({
      ...inTurn,
      itemId: z.string(),
      output: z.strictObject({
        findings: z.array(
          z.strictObject({
            title: z.string(),
            body: z.string(),
            confidence_score: z.number(),
            priority: z.number().nullish(),
            code_location: z.strictObject({
              absolute_file_path: z.string(),
              line_range: z.strictObject({ start: z.number(), end: z.number() }),
            }),
          }),
        ),
        overall_correctness: z.string(),
        overall_explanation: z.string(),
        overall_confidence_score: z.number(),
      }),
    }),
  ),
  'thread/name/updated': agrees<Params<'thread/name/updated'>>()(
    z.strictObject({ threadId: z.string(), threadName: z.string().nullish() }),
  ),
  'tiller/turn/checkpoint': agrees<Params<'tiller/turn/checkpoint'>>()(
    z.strictObject({ ...inTurn, checkpoint: tillerTurnCheckpointSchema, commandChanges: z.array(fileUpdateChangeSchema) }),
  ),
} satisfies { [M in ServerNotificationMethod]: z.ZodType<Params<M>> };
