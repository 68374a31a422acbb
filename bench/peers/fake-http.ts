/** What the bench's fake model servers share: a JSON-over-HTTP server on 127.0.0.1 and its clean stop. */
import { createServer, type ServerResponse } from 'node:http';

export interface FakeRequest {
  method: string;
  path: string;
  /** The parsed JSON body (null when there is none or it is not JSON). */
  body: any;
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** Listens on a free port; resolves with its origin (`http://127.0.0.1:<port>`) and a close that drops open streams. */
export async function serveFake(
  handle: (req: FakeRequest, res: ServerResponse) => void,
): Promise<{ origin: string; close(): Promise<void> }> {
  const server = createServer(async (req, res) => {
    try {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      let body: unknown = null;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        // No body (a GET), or not JSON.
      }
      handle({ method: req.method ?? 'GET', path: new URL(req.url ?? '/', 'http://localhost').pathname, body }, res);
    } catch {
      res.destroy();
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('fake server: no TCP address');
  return {
    origin: `http://127.0.0.1:${address.port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
