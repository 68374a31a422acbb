/**
 * The embedded offline model: the Responses wire against a server in process (client.ts), so a run
 * without a key or network takes the same SDK path as a real one. It reads no key, URL or label.
 */
import type { Wire } from '../../wire.js';
import { createOfflineModelClient } from './client.js';

export const offlineWire: Wire<'offline'> = {
  id: 'offline',
  create: (options) => createOfflineModelClient({ idleTimeoutMs: options.idleTimeoutMs }),
};
