/**
 * A request that gets no HTTP answer says where it went, why it failed and what to check, in one
 * message: a closed port and TLS failures for real on 127.0.0.1, a failed name lookup as the error
 * Node's resolver makes (a real lookup would need a resolver on loopback).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connectionError, connectionFailure } from '../../../src/runtime/model/errors.js';
import { createSdkModelClient } from '../../../src/runtime/model/wires/responses/client.js';
import { ModelError } from '../../../src/runtime/model/types.js';
import { FakeResponsesServer } from '../../support/fake-responses-server.js';
import { startHarness, text, type Harness } from '../support/harness.js';
import { startTlsServer, TEST_CA_PATH } from './tls-server.js';
import { helloRequest } from '../support/model-request.js';

const PROXY_VARIABLES = ['HTTP_PROXY', 'http_proxy', 'HTTPS_PROXY', 'https_proxy', 'NO_PROXY', 'no_proxy'];
let saved: Record<string, string | undefined>;
beforeEach(() => {
  // A proxy in the test machine's environment would change every message here.
  saved = Object.fromEntries(PROXY_VARIABLES.map((name) => [name, process.env[name]]));
  for (const name of PROXY_VARIABLES) delete process.env[name];
});
afterEach(() => {
  for (const name of PROXY_VARIABLES) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
});

const request = helloRequest();

async function failure(baseURL: string, fetch?: typeof globalThis.fetch): Promise<ModelError> {
  const client = createSdkModelClient({ label: 'x', baseURL, apiKey: 'dummy', idleTimeoutMs: 5000, ...(fetch ? { fetch } : {}) });
  try {
    for await (const _event of client.stream(request, new AbortController().signal)) {
      // Only the failure matters.
    }
  } catch (error) {
    if (error instanceof ModelError) return error;
    throw error;
  }
  throw new Error('the request succeeded');
}

/** A base URL on 127.0.0.1 where nothing listens (a server started, then closed). */
async function closedBaseUrl(): Promise<string> {
  const closed = await FakeResponsesServer.start();
  await closed.close();
  return closed.baseUrl;
}

/** The error Node's resolver gives for a name that does not exist, inside undici's `fetch failed`. */
function lookupFailure(hostname: string, code = 'ENOTFOUND'): TypeError {
  const cause = Object.assign(new Error(`getaddrinfo ${code} ${hostname}`), { errno: -3008, code, syscall: 'getaddrinfo', hostname });
  return new TypeError('fetch failed', { cause });
}

describe('connection errors through the SDK client', () => {
  it('a refused connection names the URL, ECONNREFUSED with the address, and asks whether the server runs', async () => {
    const baseURL = await closedBaseUrl();
    const error = await failure(baseURL);
    const { host } = new URL(baseURL);
    expect(error).toMatchObject({ retryable: true, info: { httpConnectionFailed: { httpStatusCode: null } }, additionalDetails: null });
    expect(error.message).toBe(
      `error sending request to ${baseURL}/responses: connection refused (ECONNREFUSED ${host}). Is the server running, and on that port?`,
    );
  });

  it('an unknown host names the host and points at the base URL settings', async () => {
    const error = await failure('https://api.example.invalid/v1', async () => {
      throw lookupFailure('api.example.invalid');
    });
    expect(error.retryable).toBe(true);
    expect(error.message).toBe(
      'error sending request to https://api.example.invalid/v1/responses: host name not found (ENOTFOUND api.example.invalid). ' +
        'Check the host name in the base URL (base_url in config.toml, OPENAI_BASE_URL or --base-url).',
    );
  });

  it('a certificate signed by an unknown CA fails at once (no retry) and names NODE_EXTRA_CA_CERTS', async () => {
    const tls = await startTlsServer({ chain: false });
    try {
      const error = await failure(`${tls.url}/v1`);
      expect(error).toMatchObject({ retryable: false, info: { httpConnectionFailed: { httpStatusCode: null } } });
      expect(error.message).toBe(
        `error sending request to ${tls.url}/v1/responses: the server's TLS certificate is not trusted (UNABLE_TO_VERIFY_LEAF_SIGNATURE). ` +
          "If your organisation's CA (or a proxy that inspects TLS) signs it, point NODE_EXTRA_CA_CERTS at that CA's PEM file.",
      );
    } finally {
      await tls.close();
    }
  });

  it('a self-signed CA sent in the chain is SELF_SIGNED_CERT_IN_CHAIN, with the same advice', async () => {
    const tls = await startTlsServer({ chain: true });
    try {
      const error = await failure(`${tls.url}/v1`);
      expect(error.retryable).toBe(false);
      expect(error.message).toContain('not trusted (SELF_SIGNED_CERT_IN_CHAIN)');
      expect(error.message).toContain('NODE_EXTRA_CA_CERTS');
    } finally {
      await tls.close();
    }
  });

  it('an https:// URL to a plain-HTTP server says so, at once', async () => {
    const plain = await FakeResponsesServer.start();
    try {
      const error = await failure(plain.baseUrl.replace('http://', 'https://'));
      expect(error.retryable).toBe(false);
      expect(error.message).toMatch(
        /TLS handshake failed \(ERR_SSL_[A-Z_]+\)\. Does the server speak HTTPS\? For a plain-HTTP server use an http:\/\/ URL\.$/,
      );
      expect(plain.requests).toHaveLength(0);
    } finally {
      await plain.close();
    }
  });

  it('the advice works: with NODE_EXTRA_CA_CERTS naming the CA, the same server is trusted', async () => {
    const tls = await startTlsServer({ chain: false });
    try {
      const script = `fetch(${JSON.stringify(`${tls.url}/v1/models`)}).then((r) => console.log(r.status), (e) => console.log(e.cause?.code ?? e.message))`;
      const run = (extra: Record<string, string>) =>
        promisify(execFile)(process.execPath, ['-e', script], { env: { PATH: process.env.PATH ?? '', ...extra } });
      expect((await run({})).stdout.trim()).toBe('UNABLE_TO_VERIFY_LEAF_SIGNATURE');
      expect((await run({ NODE_EXTRA_CA_CERTS: TEST_CA_PATH })).stdout.trim()).toBe('200');
    } finally {
      await tls.close();
    }
  });
});

describe('connectionFailure', () => {
  const code = (value: string, extra: Record<string, unknown> = {}) =>
    new TypeError('fetch failed', { cause: Object.assign(new Error(`${value} failure`), { code: value, ...extra }) });

  it('says an expired certificate is not valid now and suggests the clock', () => {
    const f = connectionFailure(code('CERT_HAS_EXPIRED'), null);
    expect(f).toEqual({
      what: "the server's TLS certificate is not valid now (CERT_HAS_EXPIRED)",
      hint: "Check the server's certificate and this machine's clock.",
      retryable: false,
    });
  });

  it('tells a certificate for another host, and an https:// URL to a plain-HTTP server', () => {
    expect(connectionFailure(code('ERR_TLS_CERT_ALTNAME_INVALID'), null)).toMatchObject({
      retryable: false,
      hint: 'Check the host name in the base URL.',
    });
    expect(connectionFailure(code('ERR_SSL_PACKET_LENGTH_TOO_LONG'), null).hint).toContain('http:// URL');
  });

  it('reads the first error of an AggregateError (Node tries each address of a name) and an IPv6 address', () => {
    const refused = (address: string) =>
      Object.assign(new Error(`connect ECONNREFUSED ${address}:8000`), { code: 'ECONNREFUSED', address, port: 8000 });
    const aggregate = new AggregateError([refused('::1'), refused('127.0.0.1')], '');
    const f = connectionFailure(new TypeError('fetch failed', { cause: aggregate }), null);
    expect(f.what).toBe('connection refused (ECONNREFUSED [::1]:8000)');
  });

  it('with a proxy, a failed lookup is the proxy host', () => {
    const f = connectionFailure(lookupFailure('proxy.corp'), { variable: 'HTTPS_PROXY', proxy: 'http://proxy.corp:3128/' });
    expect(f).toMatchObject({ what: 'host name not found (ENOTFOUND proxy.corp)', hint: "Check the proxy's host name in HTTPS_PROXY." });
  });

  it('keeps the first line and code of anything else, redacted and retryable', () => {
    const f = connectionFailure(new TypeError('fetch failed', { cause: new Error('odd Bearer abcdefghijkl happened\nsecond line') }), null);
    expect(f).toEqual({ what: 'odd Bearer [REDACTED] happened', hint: null, retryable: true });
  });

  it('connectionError without a target still says the cause', () => {
    expect(connectionError(code('ECONNRESET')).message).toBe(
      'error sending request: the connection was closed by the other end (ECONNRESET).',
    );
  });
});

describe('a refused connection in a turn', () => {
  let h: Harness | null = null;
  afterEach(async () => {
    await h?.close();
    h = null;
  });

  it('announces each retry with the reason, then fails with one message that has the URL and the hint', async () => {
    const baseUrl = await closedBaseUrl();
    h = await startHarness({ config: { baseUrl, streamMaxRetries: 2 } });
    await h.server.request('turn/start', { threadId: h.threadId, input: [text('hi')] });
    const done = await h.log.waitFor('turn/completed');
    const errors = h.log.of('error');
    expect(errors.map((e) => [e.willRetry, e.error.message])).toEqual([
      [true, 'Reconnecting... 1/2'],
      [true, 'Reconnecting... 2/2'],
      [false, expect.stringContaining('exceeded retry limit, last error: error sending request to')],
    ]);
    expect(errors[0]!.error.additionalDetails).toContain('ECONNREFUSED');
    const final = errors[2]!.error;
    expect(final.message).toContain(`${baseUrl}/responses: connection refused (ECONNREFUSED`);
    expect(final.message).toContain('Is the server running');
    // One message: nothing repeated beside it.
    expect(final.additionalDetails ?? null).toBeNull();
    expect(done.turn.status).toBe('failed');
  });

  it('an untrusted certificate fails the turn at once, without "Reconnecting"', async () => {
    const tls = await startTlsServer({ chain: false });
    try {
      h = await startHarness({ config: { baseUrl: `${tls.url}/v1` } });
      await h.server.request('turn/start', { threadId: h.threadId, input: [text('hi')] });
      await h.log.waitFor('turn/completed');
      const errors = h.log.of('error');
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatchObject({ willRetry: false });
      expect(errors[0]!.error.message).toContain('UNABLE_TO_VERIFY_LEAF_SIGNATURE');
    } finally {
      await tls.close();
    }
  });
});
