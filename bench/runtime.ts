/**
 * Runtime figures: Enter-to-first-delta through the in-process app server against the fake
 * Responses server on 127.0.0.1, and CPU time to stream 10,000 deltas through the runtime.
 */
import { tmpdir } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { AppServerClient, ServerNotification } from '../src/protocol/api.js';
import { createInProcessAppServer } from '../src/runtime/app-server.js';
import { testConfig } from '../test/runtime/support/config.js';
import { FakeResponsesServer } from '../test/support/fake-responses-server.js';
import { type BenchRow, median, ms } from './lib.js';

/** Resolves on the first notification matching `test`. */
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

export default async function run(): Promise<BenchRow[]> {
  const fake = await FakeResponsesServer.start();
  const server = createInProcessAppServer({
    config: testConfig({ model: 'bench-model', baseUrl: fake.baseUrl, streamIdleTimeoutMs: 30_000 }),
    cwd: tmpdir(),
  });
  try {
    const { thread } = await server.request('thread/start', {});
    const input = [{ type: 'text' as const, text: 'bench', text_elements: [] }];
    const firstDelta: number[] = [];
    // The first run pays for loading the SDK; it is a warm-up, not a sample.
    for (let i = 0; i < 11; i++) {
      fake.enqueue({ deltas: ['first ', 'second'] });
      const delta = next(server, (n) => n.method === 'item/agentMessage/delta');
      const done = next(server, (n) => n.method === 'turn/completed');
      const start = performance.now();
      await server.request('turn/start', { threadId: thread.id, input });
      await delta;
      if (i > 0) firstDelta.push(performance.now() - start);
      await done;
    }
    const cpu: number[] = [];
    const deltas = Array.from({ length: 10_000 }, (_, i) => `w${i} `);
    for (let i = 0; i < 5; i++) {
      fake.enqueue({ deltas });
      const done = next(server, (n) => n.method === 'turn/completed');
      const before = process.cpuUsage();
      await server.request('turn/start', { threadId: thread.id, input });
      await done;
      const used = process.cpuUsage(before);
      cpu.push((used.user + used.system) / 1000);
    }
    return [
      {
        name: 'Enter → first delta (in-process app server, local SSE)',
        value: ms(median(firstDelta)),
        note: 'median of 10, after one warm-up',
      },
      {
        name: 'CPU to stream 10,000 deltas through the runtime',
        value: ms(median(cpu)),
        note: 'median of 5; user+system, includes the in-process fake server',
      },
    ];
  } finally {
    await server.close();
    await fake.close();
  }
}
