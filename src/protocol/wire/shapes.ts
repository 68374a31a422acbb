/**
 * zod schemas of the shapes shared by the app server's results and notifications (src/protocol/thread.ts,
 * mcp-server-status.ts): threads, turns, items, token usage, MCP servers. Objects are strict, so a
 * field the type does not declare fails; what an MCP server gave (its tools, resources, call results)
 * is passed through as the server sent it.
 */
import { z } from 'zod';
import type {
  CodexErrorInfo,
  CommandAction,
  McpResource,
  McpResourceTemplate,
  McpServerStatus,
  McpTool,
  SandboxPolicy,
  Thread,
  ThreadItem,
  TillerTurnCheckpoint,
  TokenUsageBreakdown,
  Turn,
  TurnError,
  V2UserInput,
  WebSearchAction,
} from '../api.js';
import { agrees } from './check.js';

export const approvalPolicySchema = z.enum(['on-request', 'never', 'untrusted']);
export const reasoningEffortSchema = z.enum(['minimal', 'low', 'medium', 'high', 'xhigh']);
const imageDetail = z.enum(['auto', 'low', 'high', 'original']);

export const sandboxPolicySchema = agrees<SandboxPolicy>()(
  z.discriminatedUnion('type', [
    z.strictObject({ type: z.literal('dangerFullAccess') }),
    z.strictObject({ type: z.literal('readOnly'), networkAccess: z.boolean().optional() }),
    z.strictObject({
      type: z.literal('workspaceWrite'),
      writableRoots: z.array(z.string()).optional(),
      networkAccess: z.boolean().optional(),
      excludeTmpdirEnvVar: z.boolean().optional(),
      excludeSlashTmp: z.boolean().optional(),
    }),
  ]),
);

const userInputSchema = agrees<V2UserInput>()(
  z.discriminatedUnion('type', [
    z.strictObject({
      type: z.literal('text'),
      text: z.string(),
      text_elements: z.array(
        z.strictObject({ byteRange: z.strictObject({ start: z.number(), end: z.number() }), placeholder: z.string().nullable() }),
      ),
    }),
    z.strictObject({ type: z.literal('image'), url: z.string().optional(), fileId: z.string().optional(), detail: imageDetail.nullish() }),
    z.strictObject({ type: z.literal('localImage'), path: z.string(), detail: imageDetail.nullish() }),
    z.strictObject({ type: z.literal('audio'), url: z.string().optional(), fileId: z.string().optional() }),
    z.strictObject({ type: z.literal('localAudio'), path: z.string() }),
    z.strictObject({ type: z.literal('skill'), name: z.string(), path: z.string() }),
    z.strictObject({ type: z.literal('mention'), name: z.string(), path: z.string() }),
  ]),
);

export const commandActionSchema = agrees<CommandAction>()(
  z.discriminatedUnion('type', [
    z.strictObject({ type: z.literal('read'), command: z.string(), name: z.string(), path: z.string() }),
    z.strictObject({ type: z.literal('listFiles'), command: z.string(), path: z.string().nullable() }),
    z.strictObject({ type: z.literal('search'), command: z.string(), query: z.string().nullable(), path: z.string().nullable() }),
    z.strictObject({ type: z.literal('unknown'), command: z.string() }),
  ]),
);

export const webSearchActionSchema = agrees<WebSearchAction>()(
  z.discriminatedUnion('type', [
    z.strictObject({ type: z.literal('search'), query: z.string().nullable(), queries: z.array(z.string()).nullable() }),
    z.strictObject({ type: z.literal('openPage'), url: z.string().nullable() }),
    z.strictObject({ type: z.literal('findInPage'), url: z.string().nullable(), pattern: z.string().nullable() }),
    z.strictObject({ type: z.literal('other') }),
  ]),
);

export const fileUpdateChangeSchema = z.strictObject({
  path: z.string(),
  kind: z.discriminatedUnion('type', [
    z.strictObject({ type: z.literal('add') }),
    z.strictObject({ type: z.literal('delete') }),
    z.strictObject({ type: z.literal('update'), move_path: z.string().nullable() }),
  ]),
  diff: z.string(),
});

export const tillerTurnCheckpointSchema = agrees<TillerTurnCheckpoint>()(
  z.strictObject({
    turnId: z.string(),
    workspace: z.string(),
    before: z.string().nullable(),
    after: z.string().nullable(),
    note: z.string().nullable(),
    changedFiles: z.number().optional(),
    rewind: z.strictObject({ redo: z.string(), at: z.number() }).nullable().optional(),
  }),
);

export const threadItemSchema = agrees<ThreadItem>()(
  z.discriminatedUnion('type', [
    z.strictObject({ type: z.literal('userMessage'), id: z.string(), content: z.array(userInputSchema) }),
    z.strictObject({ type: z.literal('agentMessage'), id: z.string(), text: z.string() }),
    z.strictObject({ type: z.literal('reasoning'), id: z.string(), summary: z.array(z.string()), content: z.array(z.string()) }),
    z.strictObject({
      type: z.literal('commandExecution'),
      id: z.string(),
      command: z.string(),
      commandActions: z.array(commandActionSchema),
      cwd: z.string(),
      status: z.enum(['inProgress', 'completed', 'failed', 'declined']),
      aggregatedOutput: z.string().nullable(),
      exitCode: z.number().nullable(),
      durationMs: z.number().nullable(),
    }),
    z.strictObject({
      type: z.literal('mcpToolCall'),
      id: z.string(),
      server: z.string(),
      tool: z.string(),
      status: z.enum(['inProgress', 'completed', 'failed']),
      arguments: z.unknown(),
      result: z.strictObject({ content: z.array(z.unknown()), structuredContent: z.unknown() }).nullable(),
      error: z.strictObject({ message: z.string() }).nullable(),
      durationMs: z.number().nullable(),
    }),
    z.strictObject({ type: z.literal('imageView'), id: z.string(), path: z.string() }),
    z.strictObject({ type: z.literal('webSearch'), id: z.string(), query: z.string(), action: webSearchActionSchema.nullable() }),
    z.strictObject({
      type: z.literal('fileChange'),
      id: z.string(),
      changes: z.array(fileUpdateChangeSchema),
      status: z.enum(['inProgress', 'completed', 'failed', 'declined']),
    }),
    z.strictObject({ type: z.literal('contextCompaction'), id: z.string() }),
    z.strictObject({ type: z.literal('enteredReviewMode'), id: z.string(), review: z.string() }),
    z.strictObject({ type: z.literal('exitedReviewMode'), id: z.string(), review: z.string() }),
  ]),
);

const httpStatus = z.strictObject({ httpStatusCode: z.number().nullable() });
export const codexErrorInfoSchema = agrees<CodexErrorInfo>()(
  z.union([
    z.enum([
      'contextWindowExceeded',
      'usageLimitExceeded',
      'serverOverloaded',
      'cyberPolicy',
      'internalServerError',
      'unauthorized',
      'badRequest',
      'threadRollbackFailed',
      'sandboxError',
      'other',
    ]),
    z.strictObject({ httpConnectionFailed: httpStatus }),
    z.strictObject({ responseStreamConnectionFailed: httpStatus }),
    z.strictObject({ responseStreamDisconnected: httpStatus }),
    z.strictObject({ responseTooManyFailedAttempts: httpStatus }),
    z.strictObject({ activeTurnNotSteerable: z.strictObject({ turnKind: z.enum(['review', 'compact']) }) }),
  ]),
);

export const turnErrorSchema = agrees<TurnError>()(
  z.strictObject({ message: z.string(), codexErrorInfo: codexErrorInfoSchema.nullable(), additionalDetails: z.string().nullable() }),
);

export const turnSchema = agrees<Turn>()(
  z.strictObject({
    id: z.string(),
    items: z.array(threadItemSchema),
    itemsView: z.enum(['notLoaded', 'summary', 'full']),
    status: z.enum(['completed', 'interrupted', 'failed', 'inProgress']),
    error: turnErrorSchema.nullable(),
    startedAt: z.number().nullable(),
    completedAt: z.number().nullable(),
    durationMs: z.number().nullable(),
  }),
);

export const threadSchema = agrees<Thread>()(
  z.strictObject({
    id: z.string(),
    model: z.string(),
    modelProvider: z.string(),
    cwd: z.string(),
    createdAt: z.number(),
    updatedAt: z.number(),
    preview: z.string(),
    cliVersion: z.string(),
    ephemeral: z.boolean(),
    status: z.discriminatedUnion('type', [
      z.strictObject({ type: z.literal('notLoaded') }),
      z.strictObject({ type: z.literal('idle') }),
      z.strictObject({ type: z.literal('active'), activeFlags: z.array(z.string()) }),
      z.strictObject({ type: z.literal('systemError') }),
    ]),
    sessionId: z.string(),
    projectId: z.string().nullable(),
    source: z.enum(['cli', 'exec', 'appServer', 'vscode', 'unknown']),
    path: z.string().nullable(),
    forkedFromId: z.string().nullable(),
    name: z.string().nullable(),
    turns: z.array(turnSchema),
    tillerTurnCount: z.number().nullable().optional(),
  }),
);

export const tokenUsageBreakdownSchema = agrees<TokenUsageBreakdown>()(
  z.strictObject({
    inputTokens: z.number(),
    cachedInputTokens: z.number(),
    outputTokens: z.number(),
    reasoningOutputTokens: z.number(),
    totalTokens: z.number(),
    cacheWriteInputTokens: z.number().optional(),
  }),
);
export const tokenUsageSchema = z.strictObject({ total: tokenUsageBreakdownSchema, last: tokenUsageBreakdownSchema });

// MCP's own objects: the server's fields beyond the declared ones pass through (MCP adds `_meta`,
// `icons`, …). The compile-time check runs on the strict form, the wire is checked with the loose one.
const mcpToolShape = agrees<McpTool>()(
  z.strictObject({
    name: z.string(),
    title: z.string().optional(),
    description: z.string().optional(),
    inputSchema: z.record(z.string(), z.unknown()),
    outputSchema: z.record(z.string(), z.unknown()).optional(),
    annotations: z.record(z.string(), z.unknown()).optional(),
  }),
).shape;
const mcpResourceShape = agrees<McpResource>()(
  z.strictObject({
    uri: z.string(),
    name: z.string(),
    title: z.string().optional(),
    description: z.string().optional(),
    mimeType: z.string().optional(),
    size: z.number().optional(),
  }),
).shape;
const mcpResourceTemplateShape = agrees<McpResourceTemplate>()(
  z.strictObject({
    uriTemplate: z.string(),
    name: z.string(),
    title: z.string().optional(),
    description: z.string().optional(),
    mimeType: z.string().optional(),
  }),
).shape;

function mcpServerStatus(loose: boolean) {
  const object = loose ? z.looseObject : z.strictObject;
  return z.strictObject({
    name: z.string(),
    status: z.enum(['starting', 'ready', 'failed', 'disabled']),
    error: z.string().optional(),
    tools: z.record(z.string(), object(mcpToolShape)),
    resources: z.array(object(mcpResourceShape)),
    resourceTemplates: z.array(object(mcpResourceTemplateShape)),
    authStatus: z.enum(['unsupported', 'notLoggedIn', 'bearerToken', 'oAuth']),
    startupError: z.string().nullable(),
  });
}
agrees<McpServerStatus>()(mcpServerStatus(false));
export const mcpServerStatusSchema = mcpServerStatus(true);
