/**
 * HTTP(S) proxies from the environment: `HTTPS_PROXY` for https:// URLs, `HTTP_PROXY` for http://
 * ones (and for https:// when `HTTPS_PROXY` is unset), `NO_PROXY` for hosts reached directly; each
 * also in lower case, which wins, as in curl and undici. Without NO_PROXY, this machine's own
 * addresses go direct (a proxy cannot reach a server on our loopback: a local vLLM or Ollama);
 * an empty NO_PROXY sends everything through the proxy. The proxy is undici's EnvHttpProxyAgent
 * with undici's own fetch: Node 20's built-in fetch is an older undici whose requests a v7
 * dispatcher cannot carry. undici loads only when a proxy variable is set, so start-up without
 * one never pays for it.
 */
import type { Dispatcher } from 'undici';

export interface ProxySettings {
  /** '' when unset: undici then reads nothing from process.env itself. */
  httpProxy: string;
  httpsProxy: string;
  noProxy: string;
}

type Env = Readonly<Record<string, string | undefined>>;

/** The proxy variables of `env`, or null when neither HTTP_PROXY nor HTTPS_PROXY (any case) is set. */
export function proxySettings(env: Env): ProxySettings | null {
  const httpProxy = withScheme(env.http_proxy ?? env.HTTP_PROXY ?? '');
  const httpsProxy = withScheme(env.https_proxy ?? env.HTTPS_PROXY ?? '');
  if (httpProxy === '' && httpsProxy === '') return null;
  return { httpProxy, httpsProxy, noProxy: env.no_proxy ?? env.NO_PROXY ?? DEFAULT_NO_PROXY };
}

/** NO_PROXY when the variable is unset. */
export const DEFAULT_NO_PROXY = 'localhost,127.0.0.1,[::1]';

/** `proxy.corp:3128` means http://proxy.corp:3128, as in curl. */
function withScheme(value: string): string {
  const trimmed = value.trim();
  return trimmed === '' || /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `http://${trimmed}`;
}

/** The variable that names the proxy for `url` (for messages), or null when it goes direct. */
export function proxyFor(url: string, settings: ProxySettings | null): { variable: string; proxy: string } | null {
  if (settings === null) return null;
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return null;
  }
  const host = target.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const port = Number(target.port) || (target.protocol === 'https:' ? 443 : 80);
  if (bypassed(host, port, settings.noProxy)) return null;
  if (target.protocol === 'https:' && settings.httpsProxy !== '') return { variable: 'HTTPS_PROXY', proxy: settings.httpsProxy };
  return settings.httpProxy === '' ? null : { variable: 'HTTP_PROXY', proxy: settings.httpProxy };
}

/** NO_PROXY as undici reads it: `*`, or host names (a leading `.` or `*.` is dropped) with an optional port. */
function bypassed(host: string, port: number, noProxy: string): boolean {
  if (noProxy.trim() === '*') return true;
  for (const entry of noProxy.split(/[,\s]/)) {
    if (entry === '') continue;
    const match = /^(.+):(\d+)$/.exec(entry);
    const name = (match ? match[1]! : entry)
      .replace(/^\*?\./, '')
      .replace(/^\[|\]$/g, '')
      .toLowerCase();
    if (match && Number(match[2]) !== port) continue;
    if (host === name || host.endsWith(`.${name}`)) return true;
  }
  return false;
}

export interface ProxyTransport {
  fetch: typeof globalThis.fetch;
  dispatcher: Dispatcher;
}

/** undici's fetch with an EnvHttpProxyAgent for `settings`; throws a readable error for a bad proxy URL. */
export async function createProxyTransport(settings: ProxySettings): Promise<ProxyTransport> {
  const loaded = (await import('undici')) as typeof import('undici') & { default?: typeof import('undici') };
  // undici is CommonJS: Node's ESM loader gives named exports, the esbuild bundle only `default`.
  const undici = typeof loaded.EnvHttpProxyAgent === 'function' ? loaded : loaded.default!;
  for (const [variable, value] of [
    ['HTTP_PROXY', settings.httpProxy],
    ['HTTPS_PROXY', settings.httpsProxy],
  ] as const) {
    if (value !== '' && !URL.canParse(value)) throw new Error(`${variable} is not a URL: ${displayUrl(value)}`);
  }
  return {
    fetch: undici.fetch as unknown as typeof globalThis.fetch,
    dispatcher: new undici.EnvHttpProxyAgent(settings),
  };
}

/** A URL for a message: without user name, password or query (a proxy URL often holds credentials). */
export function displayUrl(url: string): string {
  try {
    const parsed = new URL(url);
    // `user:password@host` parses as a URL of scheme `user:` with no host: not one to trust.
    if (parsed.host === '') throw new TypeError('no host');
    parsed.username = '';
    parsed.password = '';
    parsed.search = '';
    parsed.hash = '';
    return parsed.href;
  } catch {
    // Not a URL: drop anything that looks like `user:password@`.
    return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)?[^/@\s]*@/i, '$1');
  }
}
