/**
 * The app-server v2 wire shapes (camelCase, docs/codex-parity.md#app-server) and `AppServerClient`,
 * the interface the in-process TUI, `tiller exec` and `tiller app-server` all speak through. The
 * shapes live in a module each; importers take them from here.
 */
import type { ClientMethod, ClientRequestMap } from './client-requests.js';
import type { ServerNotification } from './server-notifications.js';
import type { ServerRequestMap, ServerRequestMethod } from './server-requests.js';

export type * from './client-requests.js';
export type * from './input-report.js';
export * from './json-rpc-error.js';
export type * from './mcp-server-status.js';
export type * from './pending-input.js';
export type * from './checkpoints.js';
export type * from './server-notifications.js';
export type * from './server-requests.js';
export * from './settings.js';
export * from './thread.js';
export * from './review.js';
export type * from './v2-user-input.js';

/**
 * The app server as a client sees it, in process or over stdio. Requests reject with JsonRpcError.
 */
export interface AppServerClient {
  request<M extends ClientMethod>(method: M, params: ClientRequestMap[M]['params']): Promise<ClientRequestMap[M]['result']>;
  /** Subscribe to notifications; returns the unsubscribe function. */
  onNotification(listener: (n: ServerNotification) => void): () => void;
  /** The handler that answers server requests (approvals). One handler; a later call replaces it. */
  setServerRequestHandler(
    handler: <M extends ServerRequestMethod>(req: {
      method: M;
      params: ServerRequestMap[M]['params'];
    }) => Promise<ServerRequestMap[M]['result']>,
  ): void;
  close(): Promise<void>;
}
