/** `tiller app-server` as a child speaking JSON-RPC lines over stdio, against a fresh fake Responses server per test. */
import { afterEach, beforeEach, expect } from 'vitest';
import { FakeResponsesServer } from '../../support/fake-responses-server.js';
import { type Child, fakeServerEnv, spawnTiller } from './spawn.js';

export type Message = {
  jsonrpc?: string;
  id?: unknown;
  method?: string;
  params?: any;
  result?: any;
  error?: { code: number; message: string; data?: unknown };
};

export const parseMessage = (line: string): Message => JSON.parse(line) as Message;

export interface StdioAppServer {
  readonly fake: FakeResponsesServer;
  readonly child: Child;
  /** Writes one line: a string as is, anything else as JSON. */
  send(message: unknown): void;
  /** The response (not a server request) with this id. */
  response(id: unknown): Promise<Message>;
  notification(method: string, test?: (m: Message) => boolean): Promise<Message>;
  /** initialize (checking the user agent), then thread/start; resolves with the thread id. */
  initialize(): Promise<string>;
}

/** Starts the fake server and the child before each test and closes both after it. */
export function stdioAppServerPerTest(cwd?: () => string): StdioAppServer {
  let fake: FakeResponsesServer | null = null;
  let child: Child | null = null;
  beforeEach(async () => {
    fake = await FakeResponsesServer.start();
    child = spawnTiller(['app-server'], fakeServerEnv(fake), cwd?.());
  });
  afterEach(async () => {
    child?.proc.stdin.end();
    await child?.exit;
    await fake?.close();
    child = null;
    fake = null;
  });
  const running = (): { fake: FakeResponsesServer; child: Child } => {
    if (fake === null || child === null) throw new Error('no test is running');
    return { fake, child };
  };
  const server: StdioAppServer = {
    get fake() {
      return running().fake;
    },
    get child() {
      return running().child;
    },
    send(message) {
      running().child.proc.stdin.write(`${typeof message === 'string' ? message : JSON.stringify(message)}\n`);
    },
    async response(id) {
      return parseMessage(await running().child.waitForLine((l) => parseMessage(l).id === id && parseMessage(l).method === undefined));
    },
    async notification(method, test = () => true) {
      return parseMessage(
        await running().child.waitForLine((l) => {
          const m = parseMessage(l);
          return m.method === method && m.id === undefined && test(m);
        }),
      );
    },
    async initialize() {
      server.send({
        id: 'init',
        method: 'initialize',
        params: { clientInfo: { name: 'test', version: '1' }, capabilities: { tillerExtensions: true } },
      });
      expect((await server.response('init')).result).toMatchObject({
        userAgent: expect.stringMatching(/^tiller\//),
        platformFamily: 'unix',
      });
      server.send({ id: 'thread', method: 'thread/start', params: {} });
      return (await server.response('thread')).result.thread.id as string;
    },
  };
  return server;
}
