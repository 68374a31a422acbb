/**
 * What one client of the app server gets: Codex's protocol, and Tiller's extensions (`tiller/*`
 * notifications, `tiller*` fields) only when it asked for them in `initialize`
 * (`capabilities.tillerExtensions: true`), so a Codex client sees exactly Codex's shapes. Codex's
 * `capabilities.optOutNotificationMethods` drops the methods it names. Until a client initializes,
 * everything goes out (Tiller's own in-process front ends that never call `initialize`: exec).
 */
import type { InitializeParams, ServerNotification } from '../protocol/api.js';

export interface ClientExtensions {
  tiller: boolean;
  optOut: ReadonlySet<string>;
}

export const ALL_EXTENSIONS: ClientExtensions = { tiller: true, optOut: new Set() };

export function clientExtensionsOf(params: InitializeParams): ClientExtensions {
  const capabilities = params.capabilities ?? null;
  return { tiller: capabilities?.tillerExtensions === true, optOut: new Set(capabilities?.optOutNotificationMethods ?? []) };
}

/** `value` without its `tiller*` keys (the same object when it has none). */
export function withoutTillerFields<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const keys = Object.keys(value);
  if (!keys.some((key) => key.startsWith('tiller'))) return value;
  return Object.fromEntries(Object.entries(value).filter(([key]) => !key.startsWith('tiller'))) as T;
}

/** Payloads a tool or the user wrote: their keys are data, never Tiller's fields. */
const OPAQUE_KEYS = new Set(['arguments', 'result', 'structuredContent', 'content', 'input']);

/** A request's result as this client gets it: for a Codex client, without `tiller*` fields at any depth of Tiller's own shapes. */
export function resultFor<T>(result: T, client: ClientExtensions): T {
  return client.tiller ? result : (stripTiller(result) as T);
}

function stripTiller(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripTiller);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !key.startsWith('tiller'))
      .map(([key, inner]) => [key, OPAQUE_KEYS.has(key) ? inner : stripTiller(inner)]),
  );
}

/** The notification as this client gets it, or null when it does not get it. */
export function notificationFor(n: ServerNotification, client: ClientExtensions): ServerNotification | null {
  if (client.optOut.has(n.method)) return null;
  if (client.tiller) return n;
  if (n.method.startsWith('tiller/')) return null;
  const params = withoutTillerFields(n.params) as Record<string, unknown>;
  const nested = { ...params };
  let changed = params !== n.params;
  for (const key of ['item', 'thread', 'turn'] as const) {
    if (!(key in nested)) continue;
    const stripped = withoutTillerFields(nested[key]);
    if (stripped !== nested[key]) {
      nested[key] = stripped;
      changed = true;
    }
  }
  return changed ? ({ method: n.method, params: nested } as ServerNotification) : n;
}
