/** Shared helpers for runtime tests: a config, an in-process app server over the fake server, a notification log. */
import { isContextFragment } from '../../../src/protocol/context-fragments.js';
import { modelFamily } from '../../../src/runtime/tools/model-family.js';
import { toolTable } from '../../../src/runtime/tools/registry.js';
import type { AppServerClient, ServerNotification, ServerNotificationMethod, ServerNotificationMap } from '../../../src/protocol/api.js';
import { createInProcessAppServer, type InProcessAppServerOptions } from '../../../src/runtime/app-server.js';
import type { TillerConfig } from '../../../src/runtime/config.js';
import { FakeResponsesServer, type RecordedRequest } from '../../support/fake-responses-server.js';
import { tempDir, testConfig } from './config.js';

// The shell tool runs `$SHELL -lc`; a login bash here sources slow profiles, so tests use sh.
process.env.SHELL = '/bin/sh';

export { tempDir, testConfig } from './config.js';

/** Records every notification and lets a test wait for one matching a predicate. */
export class NotificationLog {
  readonly all: ServerNotification[] = [];
  private waiters: Array<{ test: (n: ServerNotification) => boolean; resolve: (n: ServerNotification) => void }> = [];

  push = (n: ServerNotification): void => {
    this.all.push(n);
    for (const waiter of [...this.waiters]) {
      if (waiter.test(n)) {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        waiter.resolve(n);
      }
    }
  };

  of<M extends ServerNotificationMethod>(method: M): Array<ServerNotificationMap[M]> {
    return this.all.filter((n) => n.method === method).map((n) => n.params as ServerNotificationMap[M]);
  }

  /** The first notification (already seen or future) matching; rejects after `timeoutMs`. */
  waitFor<M extends ServerNotificationMethod>(
    method: M,
    predicate: (params: ServerNotificationMap[M]) => boolean = () => true,
    timeoutMs = 10_000,
  ): Promise<ServerNotificationMap[M]> {
    const test = (n: ServerNotification): boolean => n.method === method && predicate(n.params as ServerNotificationMap[M]);
    const seen = this.all.find(test);
    if (seen) return Promise.resolve(seen.params as ServerNotificationMap[M]);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out waiting for ${method}`)), timeoutMs);
      this.waiters.push({
        test,
        resolve: (n) => {
          clearTimeout(timer);
          resolve(n.params as ServerNotificationMap[M]);
        },
      });
    });
  }
}

export interface Harness {
  fake: FakeResponsesServer;
  server: AppServerClient;
  log: NotificationLog;
  threadId: string;
  config: TillerConfig;
  close(): Promise<void>;
}

export async function startHarness(
  options: { config?: Partial<TillerConfig>; server?: Partial<InProcessAppServerOptions>; cwd?: string } = {},
): Promise<Harness> {
  const fake = await FakeResponsesServer.start();
  const config = testConfig({ baseUrl: fake.baseUrl, ...options.config });
  const server = createInProcessAppServer({ config, cwd: options.cwd ?? tempDir(), backoffMs: () => 5, ...options.server });
  const log = new NotificationLog();
  server.onNotification(log.push);
  await server.request('initialize', { clientInfo: { name: 'test', version: '0' }, capabilities: { tillerExtensions: true } });
  const { thread } = await server.request('thread/start', {});
  return {
    fake,
    server,
    log,
    threadId: thread.id,
    config,
    async close() {
      await server.close();
      await fake.close();
    },
  };
}

export function text(value: string): { type: 'text'; text: string; text_elements: [] } {
  return { type: 'text', text: value, text_elements: [] };
}

/** `hello` answered, `/compact` run, then `next` sent: the request `next` went out in. */
export async function helloCompactNext(h: Harness): Promise<RecordedRequest> {
  const threadId = h.threadId;
  h.fake.enqueue({ text: 'answer' }, { text: 'the summary' }, { text: 'after' });
  await h.server.request('turn/start', { threadId, input: [text('hello')] });
  await h.log.waitFor('turn/completed');
  await h.server.request('turn/start', { threadId, input: [], kind: 'compact' });
  await h.log.waitFor('turn/completed', () => h.log.of('turn/completed').length >= 2);
  await h.server.request('turn/start', { threadId, input: [text('next')] });
  await h.log.waitFor('turn/completed', () => h.log.of('turn/completed').length >= 3);
  return h.fake.requests.at(-1)!;
}

/** The built-in tools a request for the test config's model offers (no MCP server, no hosted tool). */
export const OFFERED: string[] = toolTable(modelFamily(testConfig().model)).specs.map((spec) => ('name' in spec ? spec.name : spec.type));

type InputBody = { input: Array<{ type: string; role?: string; content?: Array<{ type: string; text?: string }> }> };

/**
 * A request's input items without the context messages Tiller adds to every request (the brief,
 * permissions, environment; test/runtime/turn-context.test.ts pins those). AGENTS.md stays.
 */
// biome-ignore lint/suspicious/noExplicitAny: request bodies are read as JSON in the tests.
export function conversation(body: { input: readonly unknown[] }): any[] {
  return (body.input as InputBody['input']).filter(
    (item) => !(item.type === 'message' && isContextFragment(item.content?.[0]?.text ?? '')),
  );
}

/**
 * Every input_text string of a recorded request body, in order, without the context Tiller adds
 * to every request (the brief, permissions, environment: test/runtime/turn-context.test.ts pins those).
 */
export function inputTexts(body: {
  input: Array<{ type: string; role?: string; content?: Array<{ type: string; text?: string }> }>;
}): string[] {
  return body.input.flatMap((item) =>
    item.type === 'message'
      ? (item.content ?? []).flatMap((c) => (c.text !== undefined && !isContextFragment(c.text) ? [c.text] : []))
      : [],
  );
}
