/**
 * An in-memory AppServerClient for controller and routing tests: records every request, answers
 * with scripted responders (defaults behave like an idle, healthy server) and lets the test emit
 * notifications and server requests.
 */
import type {
  AppServerClient,
  ClientMethod,
  ClientRequestMap,
  ServerNotification,
  ServerNotificationMap,
  ServerNotificationMethod,
  ServerRequestMap,
  ServerRequestMethod,
  Thread,
  Turn,
} from '../../../src/protocol/api.js';

type Responder<M extends ClientMethod> = (
  params: ClientRequestMap[M]['params'],
) => ClientRequestMap[M]['result'] | Promise<ClientRequestMap[M]['result']>;

export interface RecordedRequest {
  method: ClientMethod;
  params: unknown;
}

type ServerRequestHandler = Parameters<AppServerClient['setServerRequestHandler']>[0];

export function turn(id: string, status: Turn['status'] = 'inProgress', error: Turn['error'] = null): Turn {
  return { id, items: [], itemsView: 'notLoaded', status, error, startedAt: null, completedAt: null, durationMs: null };
}

/** A loaded thread as thread/start returns it (every field filled). */
export function fakeThread(id = 'thread-1', extra: Partial<Thread> = {}): Thread {
  return {
    id,
    model: 'fake-model',
    modelProvider: 'fake',
    cwd: '/work',
    createdAt: 0,
    updatedAt: 0,
    preview: '',
    cliVersion: '0.0.0',
    ephemeral: false,
    status: { type: 'idle' },
    sessionId: id,
    projectId: null,
    source: 'cli',
    path: null,
    forkedFromId: null,
    name: null,
    turns: [],
    ...extra,
  };
}

function resumed(thread: Thread): ClientRequestMap['thread/resume']['result'] {
  return {
    thread,
    model: thread.model,
    modelProvider: thread.modelProvider,
    cwd: thread.cwd,
    approvalPolicy: 'on-request',
    approvalsReviewer: 'user',
    sandbox: { type: 'workspaceWrite' },
    reasoningEffort: null,
  };
}

export class FakeAppServerClient implements AppServerClient {
  readonly requests: RecordedRequest[] = [];
  private listeners = new Set<(n: ServerNotification) => void>();
  private responders = new Map<ClientMethod, Responder<ClientMethod>[]>();
  private defaults: { [M in ClientMethod]: Responder<M> };
  private turnCounter = 0;
  serverRequestHandler: ServerRequestHandler | null = null;
  closed = false;

  constructor() {
    this.defaults = {
      initialize: () => ({ userAgent: 'fake/1.0', codexHome: '/home/fake', platformFamily: 'unix', platformOs: 'linux' }),
      'thread/start': () => ({
        thread: fakeThread(),
        model: 'fake-model',
        modelProvider: 'fake',
        cwd: '/work',
        approvalPolicy: 'on-request',
        approvalsReviewer: 'user',
        sandbox: { type: 'workspaceWrite' },
        reasoningEffort: null,
      }),
      'turn/start': () => ({ turn: turn(`turn-${++this.turnCounter}`) }),
      'review/start': (p) => ({ turn: turn(`turn-${++this.turnCounter}`), reviewThreadId: p.threadId }),
      'turn/steer': (p) => ({ turnId: p.expectedTurnId }),
      'turn/interrupt': () => ({}),
      'model/list': () => ({
        data: ['fake-model', 'fake-model-large'].map((id) => ({
          id,
          model: id,
          displayName: id,
          description: '',
          hidden: false,
          supportedReasoningEfforts: [],
          defaultReasoningEffort: 'medium',
          isDefault: id === 'fake-model',
        })),
        nextCursor: null,
        note: null,
      }),
      'tiller/shellCommand': (p) => ({
        exitCode: 0,
        output: `ran ${p.command}\n`,
        durationMs: 1,
        sandbox: 'confined',
        sandboxDenied: false,
      }),
      'thread/shellCommand': (p) => ({
        tillerShellCommand: { exitCode: 0, output: `ran ${p.command}\n`, durationMs: 1, sandbox: 'confined', sandboxDenied: false },
      }),
      'thread/compact/start': () => ({}),
      'thread/name/set': () => ({}),
      'tiller/commandSessions/list': () => ({ data: [] }),
      'tiller/commandSessions/stop': () => ({ stopped: [] }),
      'mcpServerStatus/list': () => ({ data: [], nextCursor: null }),
      'mcpServer/refresh': () => ({}),
      'tiller/pendingInput/edit': () => ({ status: 'notPending' }),
      'tiller/inspectInput': () => ({ parts: [], skills: [], hooks: [], textChars: 0, maxTextChars: 1 << 20 }),
      'tiller/checkpoints/list': () => ({ checkpoints: [] }),
      'tiller/checkpoints/restore': () => ({ status: 'unavailable', message: 'no checkpoints in the fake client' }),
      'tiller/checkpoints/redo': () => ({ status: 'unavailable', message: 'no checkpoints in the fake client' }),
      'tiller/checkpoints/diff': () => ({ workspace: '', patch: null }),
      'thread/list': () => ({ data: [], nextCursor: null }),
      'thread/read': (p) => ({ thread: fakeThread(p.threadId, { status: { type: 'notLoaded' } }) }),
      'thread/resume': (p) => resumed(fakeThread(p.threadId)),
      'thread/fork': () => resumed(fakeThread('thread-fork')),
      'thread/revert': (p) => ({ thread: fakeThread(p.threadId) }),
    };
  }

  /** Answer the next call of `method` with this responder (FIFO; afterwards the default applies). */
  once<M extends ClientMethod>(method: M, responder: Responder<M>): this {
    const list = this.responders.get(method) ?? [];
    list.push(responder as unknown as Responder<ClientMethod>);
    this.responders.set(method, list);
    return this;
  }

  /** Replace the default responder of `method`. */
  always<M extends ClientMethod>(method: M, responder: Responder<M>): this {
    (this.defaults as Record<ClientMethod, unknown>)[method] = responder;
    return this;
  }

  async request<M extends ClientMethod>(method: M, params: ClientRequestMap[M]['params']): Promise<ClientRequestMap[M]['result']> {
    this.requests.push({ method, params: structuredClone(params) });
    const scripted = this.responders.get(method)?.shift() as Responder<M> | undefined;
    const responder = scripted ?? (this.defaults[method] as Responder<M>);
    return responder(params);
  }

  onNotification(listener: (n: ServerNotification) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  setServerRequestHandler(handler: ServerRequestHandler): void {
    this.serverRequestHandler = handler;
  }

  async close(): Promise<void> {
    this.closed = true;
  }

  emit<M extends ServerNotificationMethod>(method: M, params: ServerNotificationMap[M]): void {
    for (const l of this.listeners) l({ method, params } as ServerNotification);
  }

  serverRequest<M extends ServerRequestMethod>(method: M, params: ServerRequestMap[M]['params']): Promise<ServerRequestMap[M]['result']> {
    if (this.serverRequestHandler === null) throw new Error('no server request handler');
    return this.serverRequestHandler({ method, params });
  }

  requestsOf<M extends ClientMethod>(method: M): ClientRequestMap[M]['params'][] {
    return this.requests.filter((r) => r.method === method).map((r) => r.params as ClientRequestMap[M]['params']);
  }
}
