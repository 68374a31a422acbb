/**
 * Keep-alive agents that can open a connection before the first request needs it. A thread's model
 * client opens one to its server while the user types: the first Enter then writes its request into
 * an open socket instead of waiting for TCP (and TLS) to set one up. The socket is handed to the
 * first request to that host and port, and the agent keeps it alive after as any other. One the
 * server closes meanwhile is dropped, and the request connects as usual.
 */
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { connect as netConnect, isIP, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import type { Duplex } from 'node:stream';

interface ConnectOptions {
  host?: string | null;
  port?: number | string | null;
}

type CreateConnection = (options: ConnectOptions, callback: (error: Error | null, socket: Duplex) => void) => Duplex | undefined;

/** One open, unused socket per host and port, taken by the first request there. */
class WarmSockets {
  private readonly open = new Map<string, Socket>();

  add(key: string, socket: Socket): void {
    if (this.open.has(key)) {
      socket.destroy();
      return;
    }
    this.open.set(key, socket);
    // Unused, it must not keep the process alive; a refused or dropped one is simply forgotten.
    socket.unref();
    const forget = (): void => {
      if (this.open.get(key) === socket) this.open.delete(key);
    };
    socket.once('error', forget);
    socket.once('close', forget);
    socket.once('end', () => {
      forget();
      socket.destroy();
    });
  }

  has(key: string): boolean {
    return this.open.has(key);
  }

  take(key: string): Socket | null {
    const socket = this.open.get(key);
    if (socket === undefined) return null;
    this.open.delete(key);
    if (socket.destroyed || socket.readableEnded) return null;
    socket.removeAllListeners('error');
    socket.removeAllListeners('close');
    socket.removeAllListeners('end');
    // A request in flight holds the process as a connection made for it would.
    socket.ref();
    return socket;
  }
}

const keyOf = (host: string | null | undefined, port: number | string | null | undefined, fallback: number): string =>
  `${host ?? 'localhost'}:${port === undefined || port === null || port === '' ? fallback : Number(port)}`;

export interface WarmAgents {
  http: HttpAgent;
  https: HttpsAgent;
  /** Opens a connection to the URL's origin unless one is open already (errors are silent). */
  preconnect(url: URL): void;
}

export function createWarmAgents(): WarmAgents {
  const warm = new WarmSockets();
  const http = new HttpAgent({ keepAlive: true });
  const https = new HttpsAgent({ keepAlive: true });
  // The agents' own connect, unless a warm socket for the same host and port is waiting.
  for (const [agent, port] of [
    [http, 80],
    [https, 443],
  ] as const) {
    const own = (agent as unknown as { createConnection: CreateConnection }).createConnection.bind(agent);
    (agent as unknown as { createConnection: CreateConnection }).createConnection = (options, callback) =>
      warm.take(`${port === 443 ? 'https' : 'http'}//${keyOf(options.host, options.port, port)}`) ?? own(options, callback);
  }
  return {
    http,
    https,
    preconnect(url) {
      const secure = url.protocol === 'https:';
      if (!secure && url.protocol !== 'http:') return;
      const host = url.hostname.replace(/^\[|\]$/g, '');
      const port = url.port === '' ? (secure ? 443 : 80) : Number(url.port);
      const key = `${secure ? 'https' : 'http'}//${keyOf(host, port, port)}`;
      if (warm.has(key)) return;
      const socket = secure
        ? tlsConnect({ host, port, ALPNProtocols: ['http/1.1'], ...(isIP(host) === 0 ? { servername: host } : {}) })
        : netConnect({ host, port });
      warm.add(key, socket);
    },
  };
}
