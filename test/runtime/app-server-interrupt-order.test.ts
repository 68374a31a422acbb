/**
 * Over the JSON-RPC connection, requests are answered in the order they came, except turn/interrupt:
 * it is answered at once, however long a turn/start before it takes to be prepared.
 */
import { describe, expect, it, vi } from 'vitest';
import { JsonRpcConnection } from '../../src/runtime/app-server-stdio.js';
import { FakeAppServerClient, turn } from '../tui/chat/fake-client.js';

describe('turn/interrupt over the connection', () => {
  it('is answered while a turn/start sent before it is still being prepared; other requests keep their order', async () => {
    let releaseStart!: () => void;
    const client = new FakeAppServerClient().once(
      'turn/start',
      () => new Promise((resolve) => (releaseStart = () => resolve({ turn: turn('turn-2') }))),
    );
    const answered: unknown[] = [];
    const connection = new JsonRpcConnection(client, { write: (message) => void answered.push((message as { id?: unknown }).id) });
    connection.handleLine(JSON.stringify({ id: 1, method: 'initialize', params: { clientInfo: { name: 't', version: '1' } } }));
    await new Promise((resolve) => setImmediate(resolve));
    connection.handleLine(JSON.stringify({ id: 2, method: 'turn/start', params: { threadId: 'b', input: [] } }));
    connection.handleLine(JSON.stringify({ id: 3, method: 'turn/interrupt', params: { threadId: 'a', turnId: 'turn-1' } }));
    connection.handleLine(JSON.stringify({ id: 4, method: 'thread/list', params: {} }));
    // 2 waits for releaseStart and 4 is answered after it, so once 3 is out the order is settled.
    await vi.waitFor(() => expect(answered).toContain(3));
    expect(answered).toEqual([1, 3]);
    releaseStart();
    await connection.close();
    expect(answered).toEqual([1, 3, 2, 4]);
  });
});
