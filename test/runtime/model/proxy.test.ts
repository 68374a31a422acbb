/**
 * HTTPS_PROXY / HTTP_PROXY / NO_PROXY (and lower case) from process.env, against a CONNECT proxy and
 * the fake Responses server, both on 127.0.0.1. Every test starts with no proxy variable set and
 * puts the environment back afterwards. Loopback goes direct unless NO_PROXY says otherwise, so the
 * tests that want the proxy used set NO_PROXY empty.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ConnectProxy } from '../../support/connect-proxy.js';
import { FakeResponsesServer } from '../../support/fake-responses-server.js';
import { createSdkModelClient } from '../../../src/runtime/model/wires/responses/client.js';
import { DEFAULT_NO_PROXY, displayUrl, proxyFor, proxySettings } from '../../../src/runtime/model/proxy.js';
import { ModelError, type ModelEvent } from '../../../src/runtime/model/types.js';
import { startTlsServer, type TlsServer } from './tls-server.js';
import { fakeServerEnv, spawnTiller } from '../support/spawn.js';
import { helloRequest } from '../support/model-request.js';

const PROXY_VARIABLES = ['HTTP_PROXY', 'http_proxy', 'HTTPS_PROXY', 'https_proxy', 'NO_PROXY', 'no_proxy'];

let server: FakeResponsesServer;
let proxy: ConnectProxy;
let saved: Record<string, string | undefined>;

beforeAll(async () => {
  server = await FakeResponsesServer.start();
  proxy = await ConnectProxy.start();
});
afterAll(async () => {
  await proxy.close();
  await server.close();
});
beforeEach(() => {
  saved = Object.fromEntries(PROXY_VARIABLES.map((name) => [name, process.env[name]]));
  for (const name of PROXY_VARIABLES) delete process.env[name];
  server.requests.length = 0;
  proxy.seen.length = 0;
  proxy.refuseWith = null;
});
afterEach(() => {
  for (const name of PROXY_VARIABLES) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
});

const request = helloRequest();

async function run(baseURL = server.baseUrl): Promise<{ events: ModelEvent[]; error: ModelError | null }> {
  // Made after the variables are set: the client reads them when it is created.
  const client = createSdkModelClient({ label: 'x', baseURL, apiKey: 'dummy', idleTimeoutMs: 5000 });
  const events: ModelEvent[] = [];
  try {
    for await (const event of client.stream(request, new AbortController().signal)) events.push(event);
    return { events, error: null };
  } catch (error) {
    if (!(error instanceof ModelError)) throw error;
    return { events, error };
  }
}

const serverHost = (): string => new URL(server.baseUrl).host;

describe('proxy variables', () => {
  it('sends an http:// request through HTTP_PROXY (a CONNECT tunnel) to the server', async () => {
    process.env.HTTP_PROXY = proxy.url;
    process.env.HTTPS_PROXY = proxy.url;
    process.env.NO_PROXY = '';
    server.enqueue({ text: 'through the proxy' });
    const { events, error } = await run();
    expect(error).toBeNull();
    expect(events.at(-1)).toMatchObject({ type: 'completed' });
    expect(proxy.seen).toEqual([`CONNECT ${serverHost()}`]);
    expect(server.requests).toHaveLength(1);
  });

  it('reads the lower-case variable first, as curl does', async () => {
    process.env.http_proxy = proxy.url;
    process.env.HTTP_PROXY = 'http://127.0.0.1:1';
    process.env.no_proxy = '';
    process.env.NO_PROXY = '127.0.0.1';
    const { error } = await run();
    expect(error).toBeNull();
    expect(proxy.seen).toEqual([`CONNECT ${serverHost()}`]);
  });

  it('goes direct to a host NO_PROXY names', async () => {
    process.env.HTTP_PROXY = proxy.url;
    process.env.NO_PROXY = 'example.com, 127.0.0.1';
    const { error } = await run();
    expect(error).toBeNull();
    expect(proxy.seen).toEqual([]);
    expect(server.requests).toHaveLength(1);
  });

  it('without NO_PROXY, goes direct to this machine (127.0.0.1, localhost, ::1): no proxy can reach it', async () => {
    process.env.HTTP_PROXY = proxy.url;
    process.env.HTTPS_PROXY = proxy.url;
    const { error } = await run();
    expect(error).toBeNull();
    expect(proxy.seen).toEqual([]);
    expect(server.requests).toHaveLength(1);
  });

  it('goes direct with no proxy variable at all', async () => {
    const { error } = await run();
    expect(error).toBeNull();
    expect(proxy.seen).toEqual([]);
    expect(server.requests).toHaveLength(1);
  });

  it('sends an https:// request through HTTPS_PROXY: the TLS handshake happens inside the tunnel', async () => {
    const tls: TlsServer = await startTlsServer({ chain: false });
    try {
      process.env.HTTPS_PROXY = proxy.url;
      process.env.NO_PROXY = '';
      const { error } = await run(`${tls.url}/v1`);
      expect(proxy.seen).toEqual([`CONNECT ${new URL(tls.url).host}`]);
      // The test CA is trusted nowhere: reaching the certificate check proves the tunnel carried TLS.
      expect(error!.message).toContain('UNABLE_TO_VERIFY_LEAF_SIGNATURE');
      expect(error!.message).toContain(`through the proxy ${proxy.url}/ (HTTPS_PROXY)`);
    } finally {
      await tls.close();
    }
  });

  it('says so when the proxy refuses the connection, naming the variable', async () => {
    process.env.HTTP_PROXY = 'http://127.0.0.1:1';
    process.env.NO_PROXY = '';
    const { error } = await run();
    expect(error).toMatchObject({ retryable: true, info: { httpConnectionFailed: { httpStatusCode: null } } });
    expect(error!.message).toBe(
      `error sending request to ${server.baseUrl}/responses through the proxy http://127.0.0.1:1/ (HTTP_PROXY): ` +
        'connection refused (ECONNREFUSED 127.0.0.1:1). Is the proxy running? Check HTTP_PROXY.',
    );
    expect(server.requests).toHaveLength(0);
  });

  it('a proxy that wants credentials (407) is not retried, and its password never shows', async () => {
    process.env.HTTP_PROXY = proxy.url.replace('http://', 'http://someone:hunter2secret@');
    process.env.NO_PROXY = '';
    proxy.refuseWith = 407;
    const { error } = await run();
    expect(error).toMatchObject({ retryable: false });
    expect(error!.message).toContain('the proxy refused the request (HTTP 407)');
    expect(error!.message).toContain('http://user:password@host:port');
    expect(error!.message).not.toContain('hunter2secret');
    expect(error!.message).not.toContain('someone');
  });

  it('the shipped bundle too: `tiller exec` goes through HTTP_PROXY and ends when the turn does', async () => {
    server.enqueue({ text: 'proxied answer' });
    const child = spawnTiller(['exec', 'hi'], fakeServerEnv(server, { HTTP_PROXY: proxy.url, NO_PROXY: '' }));
    expect(await child.exit).toBe(0);
    expect(child.lines.join('\n')).toContain('proxied answer');
    expect(proxy.seen).toEqual([`CONNECT ${serverHost()}`]);
  });

  it('a proxy variable that is no URL fails the request at once, saying which', async () => {
    process.env.HTTPS_PROXY = 'http://[not a host';
    const { error } = await run();
    expect(error).toMatchObject({ retryable: false });
    expect(error!.message).toMatch(/^cannot use the proxy: HTTPS_PROXY is not a URL/);
  });
});

describe('proxySettings and proxyFor', () => {
  it('is null without HTTP_PROXY or HTTPS_PROXY, whatever NO_PROXY says', () => {
    expect(proxySettings({})).toBeNull();
    expect(proxySettings({ NO_PROXY: 'localhost', HTTP_PROXY: '  ' })).toBeNull();
  });

  it('takes a proxy without a scheme as http://; loopback is NO_PROXY when it is unset', () => {
    expect(proxySettings({ HTTPS_PROXY: 'proxy.corp:3128' })).toEqual({
      httpProxy: '',
      httpsProxy: 'http://proxy.corp:3128',
      noProxy: DEFAULT_NO_PROXY,
    });
    const settings = proxySettings({ HTTPS_PROXY: 'http://p:1' });
    for (const url of ['https://127.0.0.1:8000/v1', 'https://localhost/v1', 'https://[::1]:8443/v1', 'https://app.localhost/v1']) {
      expect(proxyFor(url, settings)).toBeNull();
    }
    expect(proxyFor('https://127.0.0.1/v1', proxySettings({ HTTPS_PROXY: 'http://p:1', NO_PROXY: '' }))).not.toBeNull();
  });

  it('an empty lower-case variable turns the upper-case one off, as in undici', () => {
    expect(proxySettings({ http_proxy: '', HTTP_PROXY: 'http://p:1' })).toBeNull();
  });

  it('picks HTTPS_PROXY for https, HTTP_PROXY for http and for https without HTTPS_PROXY', () => {
    const both = proxySettings({ HTTP_PROXY: 'http://h:1', HTTPS_PROXY: 'http://s:2' });
    expect(proxyFor('https://api.openai.com/v1/responses', both)).toEqual({ variable: 'HTTPS_PROXY', proxy: 'http://s:2' });
    expect(proxyFor('http://10.0.0.5:8000/v1/responses', both)).toEqual({ variable: 'HTTP_PROXY', proxy: 'http://h:1' });
    const httpOnly = proxySettings({ HTTP_PROXY: 'http://h:1' });
    expect(proxyFor('https://api.openai.com/v1/responses', httpOnly)).toEqual({ variable: 'HTTP_PROXY', proxy: 'http://h:1' });
    expect(proxyFor('http://x/v1', proxySettings({ HTTPS_PROXY: 'http://s:2' }))).toBeNull();
  });

  it('matches NO_PROXY entries by host, parent domain and port; `*` matches everything', () => {
    const settings = (noProxy: string) => proxySettings({ HTTPS_PROXY: 'http://p:1', NO_PROXY: noProxy });
    expect(proxyFor('https://api.corp.example/v1', settings('.corp.example'))).toBeNull();
    expect(proxyFor('https://api.corp.example/v1', settings('*.corp.example'))).toBeNull();
    expect(proxyFor('https://corp.example/v1', settings('corp.example'))).toBeNull();
    expect(proxyFor('https://notcorp.example/v1', settings('corp.example'))).not.toBeNull();
    expect(proxyFor('https://localhost:8443/v1', settings('localhost:8443'))).toBeNull();
    expect(proxyFor('https://localhost:9443/v1', settings('localhost:8443'))).not.toBeNull();
    expect(proxyFor('https://localhost/v1', settings('localhost:443'))).toBeNull();
    expect(proxyFor('https://anything/v1', settings('*'))).toBeNull();
  });

  it('shows URLs without credentials or query', () => {
    expect(displayUrl('http://me:secret@proxy.corp:3128')).toBe('http://proxy.corp:3128/');
    expect(displayUrl('https://host/v1/responses?api-key=abc')).toBe('https://host/v1/responses');
    expect(displayUrl('me:secret@proxy.corp:3128 ')).not.toContain('secret');
  });
});
