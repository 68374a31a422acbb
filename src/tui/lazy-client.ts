/**
 * An AppServerClient whose runtime loads on first use. The runtime's chunk (core, model client,
 * zod schemas) costs ~100 ms to evaluate; loading it after the first frame keeps launch fast, and
 * keys typed meanwhile are already in the controller (requests simply wait for the load).
 */
import type { AppServerClient, ServerNotification } from '../protocol/api.js';

type RequestHandler = Parameters<AppServerClient['setServerRequestHandler']>[0];

export function lazyAppServerClient(load: () => Promise<AppServerClient>): AppServerClient {
  const listeners = new Set<(n: ServerNotification) => void>();
  let handler: RequestHandler | null = null;
  let loading: Promise<AppServerClient> | null = null;
  let client: AppServerClient | null = null;

  const ready = (): Promise<AppServerClient> => {
    loading ??= load().then((loaded) => {
      client = loaded;
      loaded.onNotification((n) => {
        for (const listener of listeners) listener(n);
      });
      if (handler !== null) loaded.setServerRequestHandler(handler);
      return loaded;
    });
    return loading;
  };

  return {
    async request(method, params) {
      return (await ready()).request(method, params);
    },
    onNotification(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    setServerRequestHandler(next) {
      handler = next;
      client?.setServerRequestHandler(next);
    },
    async close() {
      if (loading !== null) await (await loading).close();
    },
  };
}
