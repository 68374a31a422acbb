/**
 * An https server on 127.0.0.1 with the test certificate of test/fixtures/tls (signed by a test CA
 * nobody trusts): `chain: false` sends the leaf alone (UNABLE_TO_VERIFY_LEAF_SIGNATURE), `chain:
 * true` the leaf and the self-signed CA (SELF_SIGNED_CERT_IN_CHAIN). It answers 200 to anything.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import { fileURLToPath } from 'node:url';

export const TLS_FIXTURES = fileURLToPath(new URL('../../fixtures/tls/', import.meta.url));
export const TEST_CA_PATH = `${TLS_FIXTURES}ca.pem`;

export interface TlsServer {
  /** `https://127.0.0.1:PORT`, no trailing slash. */
  url: string;
  close(): Promise<void>;
}

export async function startTlsServer({ chain }: { chain: boolean }): Promise<TlsServer> {
  const leaf = readFileSync(`${TLS_FIXTURES}server.pem`, 'utf8');
  const cert = chain ? leaf + readFileSync(TEST_CA_PATH, 'utf8') : leaf;
  const server = createServer({ key: readFileSync(`${TLS_FIXTURES}server-key.pem`), cert }, (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('ok');
  });
  // A failed handshake is the point of these tests, not a server error.
  server.on('tlsClientError', () => undefined);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('tls server: no TCP address');
  return {
    url: `https://127.0.0.1:${address.port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
