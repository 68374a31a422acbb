/**
 * The app server's providers (issue 29): one model client per provider id, the launch provider's
 * being the app server's own; a thread moved to another one (turn/start `tillerModelProvider`); each
 * base URL looked at once, when a thread first uses it (providers-probe.ts), its warning emitted.
 */
import {
  JSONRPC_INVALID_PARAMS,
  JsonRpcError,
  type ModelListParams,
  type ModelListResult,
  type ServerNotification,
} from '../protocol/api.js';
import { ConfigError, type TillerConfig } from './config.js';
import type { Session } from './core/session.js';
import { createModelClient } from './model/create.js';
import type { ModelClient } from './model/types.js';
import { listModels } from './model-list.js';
import { listProvidersModels } from './providers-models.js';
import { probeBaseUrl } from './providers-probe.js';
import { providerConfig } from './providers-switch.js';

export class ThreadProviders {
  private readonly clients = new Map<string, ModelClient>();
  private readonly probed = new Set<string>();

  /**
   * `config`: the launch config, whose provider is the app server's own client (`own`); `injected`:
   * that client was given (tests), so no base URL is looked at; a thread's `warning` is emitted
   * unless the server has `closed`.
   */
  constructor(
    private readonly config: TillerConfig,
    private readonly own: () => ModelClient,
    private readonly injected: boolean,
    private readonly emit: (notification: ServerNotification) => void,
    private readonly closed: () => boolean,
  ) {}

  /** model/list: the launch provider's models, or with `tillerProviders` every provider's (providers-models.ts). */
  listModels(params: ModelListParams): Promise<ModelListResult> {
    if (params.tillerProviders) return listProvidersModels({ config: this.config, clientFor: this.clientFor });
    return listModels(this.own(), this.config, params);
  }

  clientFor = (id: string, config: TillerConfig): ModelClient => {
    if (id === providerId(this.config)) return this.own();
    let made = this.clients.get(id);
    if (made === undefined) this.clients.set(id, (made = createModelClient(config)));
    return made;
  };

  /** A thread started or resumed, on the launch provider; `result` is passed through. */
  opened<T>(threadId: string, result: T): T {
    this.probe(threadId, this.config);
    return result;
  }

  /**
   * turn/start: with a provider named, the thread's turns go there from this one on (invalid params
   * when it cannot be used). Returns the session.
   */
  forTurn(session: Session, id: string | null | undefined): Session {
    if (id == null || id === providerId(session.config)) return session;
    const threadId = session.threadId;
    let config: TillerConfig;
    try {
      config = providerConfig(this.config, id);
    } catch (error) {
      if (error instanceof ConfigError) throw new JsonRpcError(JSONRPC_INVALID_PARAMS, error.message);
      throw error;
    }
    session.useProvider(config, this.clientFor(id, config));
    this.probe(threadId, config);
    return session;
  }

  private probe(threadId: string, config: TillerConfig): void {
    const id = providerId(config);
    if (this.probed.has(id) || this.injected) return;
    this.probed.add(id);
    void probeBaseUrl(config).then((message) => {
      if (message !== null && !this.closed()) this.emit({ method: 'warning', params: { threadId, turnId: '', message } });
    });
  }
}

function providerId(config: Pick<TillerConfig, 'provider'>): string {
  return config.provider?.id ?? 'openai';
}
