/**
 * A tiny HTTP proxy on 127.0.0.1 for tests: CONNECT tunnels (what undici's proxy agent uses, for
 * http:// targets too) and absolute-URI forwarding. It records what it was asked for, and can
 * refuse every request with a status instead (407: credentials wanted).
 */
import { createServer, request as httpRequest, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';

export class ConnectProxy {
  /** `CONNECT host:port` targets and forwarded absolute URIs, in arrival order. */
  readonly seen: string[] = [];
  /** Answer every request with this status instead of serving it. */
  refuseWith: number | null = null;
  private readonly sockets = new Set<Socket>();

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<ConnectProxy> {
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('proxy: no TCP address');
    const proxy = new ConnectProxy(server, `http://127.0.0.1:${address.port}`);
    server.on('connection', (socket) => proxy.track(socket));
    server.on('connect', (req, clientSocket: Socket, head: Buffer) => {
      proxy.seen.push(`CONNECT ${req.url}`);
      if (proxy.refuseWith !== null) {
        clientSocket.end(`HTTP/1.1 ${proxy.refuseWith} Refused\r\nContent-Length: 0\r\n\r\n`);
        return;
      }
      const [host, port] = splitHostPort(req.url ?? '');
      const upstream = connect(port, host, () => {
        clientSocket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        if (head.length > 0) upstream.write(head);
        upstream.pipe(clientSocket);
        clientSocket.pipe(upstream);
      });
      proxy.track(upstream);
      upstream.on('error', () => clientSocket.destroy());
      clientSocket.on('error', () => upstream.destroy());
    });
    server.on('request', (req, res) => {
      proxy.seen.push(`${req.method} ${req.url}`);
      if (proxy.refuseWith !== null || !/^http:\/\//.test(req.url ?? '')) {
        res.writeHead(proxy.refuseWith ?? 400, { 'content-length': '0' });
        res.end();
        return;
      }
      const forward = httpRequest(req.url!, { method: req.method, headers: req.headers }, (upstream) => {
        res.writeHead(upstream.statusCode ?? 502, upstream.headers);
        upstream.pipe(res);
      });
      forward.on('error', () => res.destroy());
      req.pipe(forward);
    });
    return proxy;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private track(socket: Socket): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
  }
}

function splitHostPort(target: string): [string, number] {
  const at = target.lastIndexOf(':');
  return [target.slice(0, at).replace(/^\[|\]$/g, ''), Number(target.slice(at + 1))];
}
