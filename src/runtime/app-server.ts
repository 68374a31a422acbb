/**
 * The in-process app server: validates requests in Codex's order (docs/codex-parity.md#request-validation), converts v2
 * input, submits it to the thread's Session and relays the core's notifications. The TUI uses it
 * directly; `tiller app-server` and `tiller exec` wrap it.
 */
import {
  ALL_EXTENSIONS,
  type ClientExtensions,
  clientExtensionsOf,
  notificationFor,
  resultFor,
  withoutTillerFields,
} from './client-extensions.js';
import { askClient } from './client-ask.js';
import { NoApproverError } from './core/no-approver.js';
import { platform } from 'node:os';
import { isAbsolute, resolve } from 'node:path';
import { errorMessage } from '../error-message.js';
import {
  type AppServerClient,
  type ApprovalPolicy,
  type ClientMethod,
  type ClientRequestMap,
  type CommandApprovalDecision,
  type FileChangeApprovalResult,
  commandActionsOf,
  JSONRPC_INTERNAL_ERROR,
  JSONRPC_INVALID_PARAMS,
  JSONRPC_INVALID_REQUEST,
  JSONRPC_METHOD_NOT_FOUND,
  JsonRpcError,
  type ServerNotification,
  type ServerRequestMap,
  type ToolRequestUserInputResponse,
  type Turn,
} from '../protocol/api.js';
import { checkInputTextLimit } from '../protocol/limits.js';
import { sandboxPolicyOf } from '../protocol/sandbox-policy.js';
import { fromV2 } from '../protocol/schemas.js';
import { serverRequestSchemas } from '../protocol/wire/requests.js';
import { interruptError, notSubmittedError } from '../protocol/turn-errors.js';
import { StartOrSteer, steerMode, turnInputRequest, userTurnInput } from '../protocol/turn-input.js';
import type { UserInput } from '../protocol/user-input.js';
import { TILLER_VERSION } from '../version.js';
import { type MethodHandlers, parseParams, type ParamsMethod, type ParsedParams } from './app-server-params.js';
import { checkpointHandlers } from './checkpoints/app-server-methods.js';
import type { TillerConfig } from './config.js';
import { loadThreadContext } from './context/thread-context.js';
import type { PendingInputEdit } from './core/pending-inputs.js';
import { newId } from './core/ids.js';
import { Session, type SessionOptions } from './core/session.js';
import type { ApprovalParams, FileChangeApprovalParams } from './core/turn-services.js';
import { runUserShellCommand } from './core/user-shell.js';
import { listCommandSessions, stopCommandSessions } from './commands/sessions/background-sessions.js';
import { inspectUserInput } from './inspect-input.js';
import { reviewHint, reviewTargetProblem } from './review/target.js';
import { McpManager } from './mcp/manager.js';
import { ThreadProviders } from './providers-threads.js';
import { createModelClient } from './model/create.js';
import type { ModelClient } from './model/types.js';
import type { ThreadSource } from './rollout/format.js';
import { ThreadStore } from './threads/store.js';
import { warmFirstTurn } from './warm-first-turn.js';

export interface InProcessAppServerOptions {
  config: TillerConfig;
  modelClient?: ModelClient;
  cwd?: string;
  /** Retry backoff override (tests keep retries fast); default 200 ms doubling with jitter. */
  backoffMs?: (attempt: number) => number;
  queueCapacity?: number;
  /** Local media preparation longer than this is announced (turn/mediaPreparation); default 100 ms. */
  mediaPreparationNoticeMs?: number;
  /** Replaces the conversion of user input to model items (tests inject a slow one). */
  prepareUserInput?: SessionOptions['prepareUserInput'];
  /** Turns wait for MCP servers still starting before they sample (`tiller exec`: no one watches them start). */
  mcpAwaitStartup?: boolean;
  /** Which client the threads started here are recorded as (`cli`: the TUI); default `appServer`. */
  source?: ThreadSource;
}

type ServerRequestHandler = Parameters<AppServerClient['setServerRequestHandler']>[0];

/** As Codex; clients (the TUI) treat it as "the turn already ended". */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function limitError(input: readonly UserInput[]): JsonRpcError | null {
  const tooLarge = checkInputTextLimit(input);
  return tooLarge ? new JsonRpcError(JSONRPC_INVALID_PARAMS, tooLarge.message, tooLarge.data) : null;
}

export function createInProcessAppServer(options: InProcessAppServerOptions): AppServerClient {
  const listeners = new Set<(n: ServerNotification) => void>();
  let modelClient: ModelClient | null = options.modelClient ?? null;
  let serverRequestHandler: ServerRequestHandler | null = null;
  let closed = false;
  const baseCwd = options.cwd ?? process.cwd();
  // The thread that started last: MCP notifications outside a turn are addressed to it.
  let latestThreadId: string | null = null;

  // What the client asked for in `initialize` (client-extensions.ts); the recorder sees everything.
  let extensions: ClientExtensions = ALL_EXTENSIONS;
  const emit = (notification: ServerNotification): void => {
    store.observe(notification);
    const shown = notificationFor(notification, extensions);
    if (shown === null) return;
    for (const listener of [...listeners]) {
      try {
        listener(shown);
      } catch {
        // A failing listener must not break the turn or the other listeners.
      }
    }
  };

  const client = (): ModelClient => (modelClient ??= createModelClient(options.config));
  const providers = new ThreadProviders(options.config, client, options.modelClient !== undefined, emit, () => closed);
  setTimeout(warmFirstTurn, 0).unref();
  // Before anything can emit: every notification passes the thread's recorder first.
  const store: ThreadStore = new ThreadStore({
    config: options.config,
    source: options.source ?? 'appServer',
    providerLabel: () => client().label,
    emit,
    createSession: (init) =>
      new Session({
        config: options.config,
        modelClient: client(),
        emit,
        requestApproval,
        requestUserInput,
        requestFileChangeApproval,
        ...init,
        ...(options.backoffMs ? { backoffMs: options.backoffMs } : {}),
        ...(options.queueCapacity ? { queueCapacity: options.queueCapacity } : {}),
        ...(options.mediaPreparationNoticeMs !== undefined ? { mediaPreparationNoticeMs: options.mediaPreparationNoticeMs } : {}),
        ...(options.prepareUserInput ? { prepareUserInput: options.prepareUserInput } : {}),
        mcp,
        ...(options.mcpAwaitStartup ? { mcpAwaitStartup: true } : {}),
      }),
  });

  // One set of MCP server processes for every thread of this app server. No SDK is loaded until one starts.
  const mcp = new McpManager(options.config.mcpServers, {
    cwd: baseCwd,
    events: {
      status: (name, status, error) =>
        emit({ method: 'mcpServer/startupStatus/updated', params: { threadId: latestThreadId, name, status, error } }),
      warning: (message) => {
        if (latestThreadId !== null) emit({ method: 'warning', params: { threadId: latestThreadId, turnId: '', message } });
      },
    },
  });

  const requestApproval = async (params: ApprovalParams, signal: AbortSignal): Promise<CommandApprovalDecision> => {
    const handler = serverRequestHandler;
    if (!handler) throw new NoApproverError();
    const send = (): Promise<unknown> =>
      handler({
        method: 'item/commandExecution/requestApproval',
        // A Codex client gets Codex's request (no `tillerMcpToolCall`).
        params: {
          ...(extensions.tiller ? params : withoutTillerFields(params)),
          startedAtMs: Date.now(),
          commandActions: commandActionsOf(params.command),
        },
      });
    return askClient(send, signal, approvalDecisionOf, () => 'cancel');
  };

  /** The model's questions to the client; rejects when no client can answer, the answer is malformed, or the turn ends. */
  const requestUserInput = async (
    params: ServerRequestMap['item/tool/requestUserInput']['params'],
    signal: AbortSignal,
  ): Promise<ToolRequestUserInputResponse> => {
    const handler = serverRequestHandler;
    if (!handler) throw new Error('no client to ask');
    const read = (result: unknown): ToolRequestUserInputResponse => {
      const answer = userInputAnswerOf(result);
      if (!answer) throw new Error('malformed answer');
      return answer;
    };
    return askClient(
      () => handler({ method: 'item/tool/requestUserInput', params }),
      signal,
      read,
      () => {
        throw new Error('turn ended');
      },
    );
  };

  const requestFileChangeApproval = async (params: FileChangeApprovalParams, signal: AbortSignal): Promise<FileChangeApprovalResult> => {
    const handler = serverRequestHandler;
    if (!handler) throw new NoApproverError();
    const send = (): Promise<unknown> =>
      handler({ method: 'item/fileChange/requestApproval', params: { ...params, startedAtMs: Date.now() } });
    // Per-file choices are Tiller's: a Codex client's answer is its decision alone.
    return askClient(
      send,
      signal,
      (result) => fileChangeApprovalOf(result, extensions.tiller),
      (): FileChangeApprovalResult => ({ decision: 'cancel' }),
    );
  };

  /** A thread is loaded (started, resumed, forked): MCP notifications outside a turn go to it. */
  const loaded = <T extends { thread: { id: string } }>(result: T): T => {
    latestThreadId = result.thread.id;
    // In the background: a thread never waits for a server.
    mcp.startAll();
    return result;
  };

  const thread = (threadId: string): Session => {
    if (!UUID.test(threadId)) throw new JsonRpcError(JSONRPC_INVALID_REQUEST, `invalid thread id: ${threadId}`);
    const session = store.session(threadId);
    if (!session) throw new JsonRpcError(JSONRPC_INVALID_REQUEST, `thread not found: ${threadId}`);
    return session;
  };

  const resolveCwd = (cwd: string | null | undefined, base: string): string | null =>
    cwd === null || cwd === undefined ? null : isAbsolute(cwd) ? cwd : resolve(base, cwd);

  const handlers: MethodHandlers = {
    initialize: async (params) => {
      extensions = clientExtensionsOf(params);
      return {
        userAgent: `tiller/${TILLER_VERSION}`,
        codexHome: options.config.home,
        platformFamily: process.platform === 'win32' ? 'windows' : 'unix',
        platformOs: platformOs(),
      };
    },

    'thread/start': async (params) => {
      const cwd = resolveCwd(params.cwd, baseCwd) ?? baseCwd;
      const model = params.model ?? options.config.model;
      const approvalPolicy: ApprovalPolicy = params.approvalPolicy ?? options.config.approvalPolicy;
      const sandbox = sandboxPolicyOf(params.sandbox ?? options.config.sandboxMode, {
        writableRoots: options.config.sandboxWritableRoots,
        networkAccess: options.config.sandboxNetworkAccess,
      });
      const context = await loadThreadContext({ cwd, home: options.config.home, projectDocMaxBytes: options.config.projectDocMaxBytes });
      const settings = { model, cwd, approvalPolicy, sandboxPolicy: sandbox, effort: options.config.reasoningEffort };
      const { thread: info } = store.start(settings, context, params.ephemeral ?? false);
      emit({ method: 'thread/started', params: { thread: providers.opened(info.id, info) } });
      return loaded({
        thread: info,
        model,
        modelProvider: info.modelProvider,
        cwd,
        approvalPolicy,
        approvalsReviewer: 'user' as const,
        sandbox,
        reasoningEffort: settings.effort,
        tillerInstructions: context.files,
        tillerWarnings: context.warnings,
      });
    },

    'thread/list': (params) => store.list(params),
    'thread/read': (params) => store.read(params),
    'thread/resume': async (params) => providers.opened(params.threadId, loaded(await store.resume(params))),
    'thread/fork': async (params) => loaded(await store.fork(params)),
    'thread/revert': (params) => store.revert(params),

    'thread/compact/start': async (params) => {
      const session = thread(params.threadId);
      try {
        await session.enqueueTurnInput(turnInputRequest(userTurnInput([]), { start: { kind: 'compact' } }), StartOrSteer);
      } catch (error) {
        throw new JsonRpcError(JSONRPC_INTERNAL_ERROR, `failed to start compaction: ${errorMessage(error)}`);
      }
      return {};
    },

    'review/start': async (params) => {
      const session = thread(params.threadId);
      const problem = reviewTargetProblem(params.target);
      if (problem) throw new JsonRpcError(JSONRPC_INVALID_REQUEST, problem);
      const hint = reviewHint(params.target);
      const request = turnInputRequest(userTurnInput([]), { start: { kind: 'review', review: params.target } });
      const result = await session.submitTurnInput(request, { type: 'startIfIdle' });
      if (result.type === 'notSubmitted') throw notSubmittedError(result.reason);
      const turn: Turn = {
        id: result.turnId,
        items: [{ type: 'userMessage', id: newId(), content: [{ type: 'text', text: hint, text_elements: [] }] }],
        itemsView: 'notLoaded',
        status: 'inProgress',
        error: null,
        startedAt: null,
        completedAt: null,
        durationMs: null,
      };
      return { turn, reviewThreadId: params.threadId };
    },

    'turn/start': async (params) => {
      const input = params.input.map(fromV2);
      const tooLarge = limitError(input);
      if (tooLarge) throw tooLarge;
      const session = providers.forTurn(thread(params.threadId), params.kind === 'review' ? null : params.tillerModelProvider);
      if (params.kind === 'review') throw new JsonRpcError(JSONRPC_INVALID_REQUEST, 'review turns are not supported');
      const request = turnInputRequest(userTurnInput(input, params.tillerClientId ?? null), {
        threadSettings: {
          cwd: resolveCwd(params.cwd, session.currentSettings.cwd),
          model: params.model ?? null,
          approvalPolicy: params.approvalPolicy ?? null,
          sandboxPolicy: params.sandboxPolicy ?? null,
          ...(params.tillerClearEffort ? { effort: null } : params.effort ? { effort: params.effort } : {}),
        },
        start: {
          kind: params.kind === 'compact' ? 'compact' : 'regular',
          ...(params.outputSchema ? { finalOutputJsonSchema: params.outputSchema } : {}),
        },
      });
      let id: string;
      try {
        ({ id } = await session.enqueueTurnInput(request, StartOrSteer));
      } catch (error) {
        throw new JsonRpcError(JSONRPC_INTERNAL_ERROR, `failed to start turn: ${errorMessage(error)}`);
      }
      const turn: Turn = {
        id,
        items: [],
        itemsView: 'notLoaded',
        status: 'inProgress',
        error: null,
        startedAt: null,
        completedAt: null,
        durationMs: null,
      };
      return { turn };
    },

    'turn/steer': async (params) => {
      const session = thread(params.threadId);
      if (params.expectedTurnId.length === 0) throw new JsonRpcError(JSONRPC_INVALID_REQUEST, 'expectedTurnId must not be empty');
      const input = params.input.map(fromV2);
      const tooLarge = limitError(input);
      if (tooLarge) throw tooLarge;
      const result = await session.submitTurnInput(
        turnInputRequest(userTurnInput(input, params.tillerClientId ?? null)),
        steerMode(params.expectedTurnId),
      );
      if (result.type === 'notSubmitted') throw notSubmittedError(result.reason);
      return { turnId: result.turnId };
    },

    'turn/interrupt': async (params) => {
      const session = thread(params.threadId);
      // An empty turn id is Codex's startup interrupt: whatever runs stops, and it is always acknowledged.
      if (params.turnId.length === 0) {
        await session.interrupt(null);
        return {};
      }
      const outcome = await session.interrupt(params.turnId);
      if (outcome.type !== 'interrupted') throw interruptError(params.turnId, outcome);
      return {};
    },

    'model/list': async (params) => providers.listModels(params),

    // Tiller's: no await before the session queues it, so it stays behind a steer sent before it.
    'tiller/pendingInput/edit': async (params) => {
      let edit: PendingInputEdit;
      if (params.action === 'replace') {
        const content = (params.input ?? []).map(fromV2);
        const tooLarge = limitError(content);
        if (tooLarge) throw tooLarge;
        if (content.length === 0) throw notSubmittedError({ type: 'emptyInput' });
        edit = { action: 'replace', content };
      } else edit = { action: params.action };
      return { status: await thread(params.threadId).editPendingInput(params.clientId, edit) };
    },

    // Tiller's: the thread's own conversion; before there is a thread, the one its threads get.
    'tiller/inspectInput': async (params) => {
      const prepare = params.threadId ? thread(params.threadId).prepareUserInput : options.prepareUserInput;
      const { skillsDir, userPromptSubmitHooks: hooks } = options.config;
      return (await inspectUserInput(params.input.map(fromV2), { skillsDir, hooks, ...(prepare ? { prepare } : {}) })).report;
    },

    ...checkpointHandlers((threadId) => thread(threadId).checkpoints),

    'tiller/shellCommand': async (params) => runUserShellCommand(thread(params.threadId), params.command),
    'thread/shellCommand': async (params) => ({
      tillerShellCommand: await runUserShellCommand(
        thread(params.threadId),
        params.command,
        AbortSignal.timeout(params.timeoutMs ?? SHELL_COMMAND_TIMEOUT_MS),
      ),
    }),

    'thread/name/set': (params) => store.setName(params),
    'tiller/commandSessions/list': async (params) =>
      tillerOnly(() => ({ data: listCommandSessions(thread(params.threadId).commandSessions, Date.now()) })),
    'tiller/commandSessions/stop': async (params) =>
      tillerOnly(() => ({ stopped: stopCommandSessions(thread(params.threadId).commandSessions, params.id ?? null) })),

    'mcpServerStatus/list': async (params) => {
      // Asking about the servers is wanting them: any not started yet start now.
      mcp.startAll();
      const all = mcp.status();
      const start = params.cursor ? Number.parseInt(params.cursor, 10) : 0;
      if (!Number.isInteger(start) || start < 0 || start > all.length)
        throw new JsonRpcError(JSONRPC_INVALID_PARAMS, `invalid cursor: ${params.cursor}`);
      const end = params.limit ? Math.min(all.length, start + params.limit) : all.length;
      return { data: all.slice(start, end), nextCursor: end < all.length ? String(end) : null };
    },

    'mcpServer/refresh': async (params) => {
      if (params.name && !mcp.has(params.name)) throw new JsonRpcError(JSONRPC_INVALID_REQUEST, `no MCP server named ${params.name}`);
      mcp.refresh(params.name ?? null);
      return {};
    },
  };

  /** A method only clients that asked for Tiller's extensions have: the others see Codex's "method not found". */
  function tillerOnly<T>(run: () => T): T {
    if (!extensions.tiller) throw new JsonRpcError(JSONRPC_METHOD_NOT_FOUND, 'method not found: tiller/commandSessions');
    return run();
  }

  return {
    async request<M extends ClientMethod>(method: M, params: ClientRequestMap[M]['params']): Promise<ClientRequestMap[M]['result']> {
      if (closed) throw new JsonRpcError(JSONRPC_INTERNAL_ERROR, 'app server is closed');
      if (!Object.hasOwn(handlers, method)) throw new JsonRpcError(JSONRPC_METHOD_NOT_FOUND, `method not found: ${String(method)}`);
      const parsed = parseParams(method as ParamsMethod, params, extensions.tiller);
      if (!parsed.ok) throw new JsonRpcError(JSONRPC_INVALID_PARAMS, parsed.message);
      const handler = handlers[method] as (p: unknown) => Promise<ClientRequestMap[M]['result']>;
      return resultFor(await handler(parsed.value), extensions);
    },
    onNotification(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    setServerRequestHandler(handler) {
      serverRequestHandler = handler;
    },
    async close() {
      if (closed) return;
      closed = true;
      await store.close();
      await mcp.close();
      listeners.clear();
    },
  };
}

/** thread/shellCommand's default `timeoutMs`: one hour, as Codex. */
const SHELL_COMMAND_TIMEOUT_MS = 60 * 60 * 1000;

/** Rust's `std::env::consts::OS` names, which Codex reports as `platformOs`. */
function platformOs(): string {
  const os = platform();
  return os === 'darwin' ? 'macos' : os === 'win32' ? 'windows' : os;
}

const APPROVAL_DECISIONS: ReadonlySet<string> = new Set<CommandApprovalDecision>(['accept', 'acceptForSession', 'decline', 'cancel']);

/**
 * The decision in a client's answer. Anything malformed (a missing or unknown decision, `null`, a
 * bare string) declines: a command runs only on an explicit accept.
 */
/** A client's answer to item/tool/requestUserInput, checked by hand (zod stays off the start-up path); null: malformed. */
export function userInputAnswerOf(result: unknown): ToolRequestUserInputResponse | null {
  const answers = typeof result === 'object' && result !== null ? (result as { answers?: unknown }).answers : undefined;
  if (typeof answers !== 'object' || answers === null || Array.isArray(answers)) return null;
  const out: ToolRequestUserInputResponse['answers'] = {};
  for (const [id, entry] of Object.entries(answers)) {
    const list = typeof entry === 'object' && entry !== null ? (entry as { answers?: unknown }).answers : undefined;
    if (!Array.isArray(list) || !list.every((a) => typeof a === 'string')) return null;
    out[id] = { answers: list as string[] };
  }
  return { answers: out };
}

/**
 * A patch approval's answer: its decision, and with `tiller` the per-file choices. Malformed choices
 * decline the patch: writing all of it could write a file the user meant to reject.
 */
export function fileChangeApprovalOf(result: unknown, tiller: boolean): FileChangeApprovalResult {
  const decision = approvalDecisionOf(result);
  const files = tiller && typeof result === 'object' && result !== null ? (result as { tillerFiles?: unknown }).tillerFiles : undefined;
  if (files === undefined) return { decision };
  const parsed = serverRequestSchemas['item/fileChange/requestApproval'].result.shape.tillerFiles.safeParse(files);
  return parsed.success && parsed.data !== undefined ? { decision, tillerFiles: parsed.data } : { decision: 'decline' };
}

export function approvalDecisionOf(result: unknown): CommandApprovalDecision {
  const decision = typeof result === 'object' && result !== null ? (result as { decision?: unknown }).decision : undefined;
  return typeof decision === 'string' && APPROVAL_DECISIONS.has(decision) ? (decision as CommandApprovalDecision) : 'decline';
}
