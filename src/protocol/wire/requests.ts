/**
 * zod schemas of the server's requests to the client (src/protocol/server-requests.ts `ServerRequestMap`: the
 * approval request) and of the answer it expects, checked at compile time against it.
 */
import { z } from 'zod';
import type { ServerRequestMap, ServerRequestMethod } from '../api.js';
import { agrees } from './check.js';
import { commandActionSchema } from './shapes.js';

type Request<M extends ServerRequestMethod> = ServerRequestMap[M];

export const serverRequestSchemas = {
  'item/commandExecution/requestApproval': {
    params: agrees<Request<'item/commandExecution/requestApproval'>['params']>()(
      z.strictObject({
        threadId: z.string(),
        turnId: z.string(),
        itemId: z.string(),
        startedAtMs: z.number(),
        command: z.string(),
        commandActions: z.array(commandActionSchema),
        cwd: z.string(),
        reason: z.string().nullable(),
        tillerMcpToolCall: z.strictObject({ server: z.string(), tool: z.string(), arguments: z.unknown() }).optional(),
      }),
    ),
    result: agrees<Request<'item/commandExecution/requestApproval'>['result']>()(
      z.strictObject({ decision: z.enum(['accept', 'acceptForSession', 'decline', 'cancel']) }),
    ),
  },
  'item/fileChange/requestApproval': {
    params: agrees<Request<'item/fileChange/requestApproval'>['params']>()(
      z.strictObject({
        threadId: z.string(),
        turnId: z.string(),
        itemId: z.string(),
        startedAtMs: z.number(),
        reason: z.string().nullable(),
        grantRoot: z.string().nullable(),
      }),
    ),
    result: agrees<Request<'item/fileChange/requestApproval'>['result']>()(
      z.strictObject({
        decision: z.enum(['accept', 'acceptForSession', 'decline', 'cancel']),
        tillerFiles: z
          .array(z.strictObject({ path: z.string(), decision: z.enum(['accept', 'decline']), content: z.string().optional() }))
          .optional(),
      }),
    ),
  },
  'item/tool/requestUserInput': {
    params: agrees<Request<'item/tool/requestUserInput'>['params']>()(
      z.strictObject({
        threadId: z.string(),
        turnId: z.string(),
        itemId: z.string(),
        questions: z.array(
          z.strictObject({
            id: z.string(),
            header: z.string(),
            question: z.string(),
            isOther: z.boolean(),
            isSecret: z.boolean(),
            options: z.array(z.strictObject({ label: z.string(), description: z.string() })).nullable(),
          }),
        ),
        isBlocking: z.boolean(),
        autoResolutionMs: z.number().nullable(),
      }),
    ),
    result: agrees<Request<'item/tool/requestUserInput'>['result']>()(
      z.strictObject({ answers: z.record(z.string(), z.strictObject({ answers: z.array(z.string()) })) }),
    ),
  },
} satisfies { [M in ServerRequestMethod]: { params: z.ZodType<Request<M>['params']>; result: z.ZodType<Request<M>['result']> } };
