/** What the fake model servers share: an HTTP server on a free port of 127.0.0.1 that closes with every connection dropped. */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

export interface ListeningFake {
  /** `http://<host>:<port>/v1`, as a provider's base URL. */
  baseUrl: string;
  /** Drops the open connections (streams held open included), then stops listening. */
  close(): Promise<void>;
}

/** `handle` answers each request; a throw destroys the response. `name` says whose server failed to listen. */
export async function listenFake(
  name: string,
  handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>,
  options: { port?: number; host?: string } = {},
): Promise<ListeningFake> {
  const server = createServer();
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error(`${name}: no TCP address`);
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('request', (req, res) => {
    handle(req, res).catch(() => res.destroy());
  });
  return {
    baseUrl: `http://${host}:${address.port}/v1`,
    async close() {
      for (const socket of sockets) socket.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
