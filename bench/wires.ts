/**
 * Enter → first delta on each wire (Responses, Chat Completions, Anthropic Messages): the in-process
 * app server with the wire's client made through the registry, as model/create.ts makes it, against
 * that wire's fake server on 127.0.0.1. Same measure as runtime.ts, one row per wire.
 */
import { tmpdir } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { AppServerClient, ServerNotification } from '../src/protocol/api.js';
import { createInProcessAppServer } from '../src/runtime/app-server.js';
import { type WireId, wireById } from '../src/runtime/model/wires/index.js';
import { testConfig } from '../test/runtime/support/config.js';
import { FakeAnthropicServer } from '../test/support/fake-anthropic-server.js';
import { FakeChatServer } from '../test/support/fake-chat-server.js';
import { FakeResponsesServer } from '../test/support/fake-responses-server.js';
import { type BenchRow, median, ms } from './lib.js';

interface Fake {
  baseUrl: string;
  answer(): void;
  close(): Promise<void>;
}

const ANSWER = 'first second';

const FAKES: ReadonlyArray<[WireId, string, () => Promise<Fake>]> = [
  [
    'responses',
    'gpt-5.5',
    async () => {
      const fake = await FakeResponsesServer.start();
      return { baseUrl: fake.baseUrl, answer: () => fake.enqueue({ text: ANSWER }), close: () => fake.close() };
    },
  ],
  [
    'chat',
    'gpt-5.5',
    async () => {
      const fake = await FakeChatServer.start();
      return { baseUrl: fake.baseUrl, answer: () => fake.enqueue({ text: ANSWER }), close: () => fake.close() };
    },
  ],
  [
    'anthropic',
    'claude-sonnet-4-5',
    async () => {
      const fake = await FakeAnthropicServer.start();
      return { baseUrl: fake.baseUrl, answer: () => fake.enqueue({ text: ANSWER }), close: () => fake.close() };
    },
  ],
];

function next(server: AppServerClient, test: (n: ServerNotification) => boolean): Promise<void> {
  return new Promise((resolve) => {
    const off = server.onNotification((n) => {
      if (test(n)) {
        off();
        resolve();
      }
    });
  });
}

async function firstDelta(wire: WireId, model: string, start: () => Promise<Fake>): Promise<number[]> {
  const fake = await start();
  const modelClient = wireById(wire).create({ label: wire, baseUrl: fake.baseUrl, apiKey: 'bench-key', idleTimeoutMs: 30_000 });
  const server = createInProcessAppServer({ config: testConfig({ model, streamIdleTimeoutMs: 30_000 }), cwd: tmpdir(), modelClient });
  try {
    const { thread } = await server.request('thread/start', {});
    const input = [{ type: 'text' as const, text: 'bench', text_elements: [] }];
    const samples: number[] = [];
    // The first run pays for loading the wire's SDK; it is a warm-up, not a sample.
    for (let i = 0; i < 11; i++) {
      fake.answer();
      const delta = next(server, (n) => n.method === 'item/agentMessage/delta');
      const done = next(server, (n) => n.method === 'turn/completed');
      const begun = performance.now();
      await server.request('turn/start', { threadId: thread.id, input });
      await delta;
      if (i > 0) samples.push(performance.now() - begun);
      await done;
    }
    return samples;
  } finally {
    await server.close();
    await fake.close();
  }
}

export default async function run(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  for (const [wire, model, start] of FAKES) {
    const samples = await firstDelta(wire, model, start);
    rows.push({
      name: `Enter → first delta, ${wire} wire (${model}, local SSE)`,
      value: ms(median(samples)),
      note: 'median of 10, after one warm-up',
    });
  }
  return rows;
}
