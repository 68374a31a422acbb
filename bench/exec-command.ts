/**
 * exec_command latency: from Enter (turn/start, the fake model answering with the call at once) and
 * from the item's start to the first output byte on the wire, against a bare spawn of the same shell
 * line reading its first stdout byte. Unsandboxed, in pipes and in a pty.
 */
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { AppServerClient, ServerNotification } from '../src/protocol/api.js';
import { createInProcessAppServer } from '../src/runtime/app-server.js';
import { modelCommandEnvironment } from '../src/runtime/commands/environment.js';
import { EXEC_SESSION_ENV } from '../src/runtime/commands/sessions/session-env.js';
import { testConfig } from '../test/runtime/support/config.js';
import { FakeResponsesServer } from '../test/support/fake-responses-server.js';
import { type BenchRow, median, ms } from './lib.js';

const RUNS = 10;
const CMD = 'echo first-byte';

function next(server: AppServerClient, test: (n: ServerNotification) => boolean): Promise<number> {
  return new Promise((resolve) => {
    const off = server.onNotification((n) => {
      if (test(n)) {
        off();
        resolve(performance.now());
      }
    });
  });
}

/** The same shell line with the same environment, spawned directly. */
function bareSpawn(env: NodeJS.ProcessEnv): Promise<number> {
  const start = performance.now();
  return new Promise((resolve) => {
    const child = spawn('/bin/sh', ['-lc', CMD], { env, detached: true, stdio: ['ignore', 'pipe', 'ignore'] });
    child.stdout.once('data', () => resolve(performance.now() - start));
  });
}

export default async function run(): Promise<BenchRow[]> {
  process.env.SHELL = '/bin/sh';
  const fake = await FakeResponsesServer.start();
  const config = testConfig({ baseUrl: fake.baseUrl, approvalPolicy: 'never', sandboxMode: 'danger-full-access' });
  const server = createInProcessAppServer({ config, cwd: tmpdir() });
  const env = { ...modelCommandEnvironment(config), ...EXEC_SESSION_ENV };
  const rows: BenchRow[] = [];
  try {
    const { thread } = await server.request('thread/start', {});
    const input = [{ type: 'text' as const, text: 'bench', text_elements: [] }];
    const bare: number[] = [];
    for (const tty of [false, true]) {
      const fromEnter: number[] = [];
      const over: number[] = [];
      // The first run loads the parser (and node-pty); it is a warm-up, not a sample.
      for (let i = 0; i <= RUNS; i++) {
        fake.enqueue({ functionCall: { name: 'exec_command', arguments: { cmd: CMD, tty } } }, { text: 'done' });
        const started = next(server, (n) => n.method === 'item/started' && n.params.item.type === 'commandExecution');
        const firstByte = next(server, (n) => n.method === 'item/commandExecution/outputDelta');
        const done = next(server, (n) => n.method === 'turn/completed');
        // Interleaved with the exec_command runs, so both see the same load on a shared machine.
        const spawnMs = await bareSpawn(env);
        const enter = performance.now();
        await server.request('turn/start', { threadId: thread.id, input });
        const [itemAt, byteAt] = await Promise.all([started, firstByte]);
        if (i > 0) {
          bare.push(spawnMs);
          fromEnter.push(byteAt - enter);
          over.push(byteAt - itemAt - spawnMs);
        }
        await done;
      }
      const how = tty ? 'pty' : 'pipes';
      rows.push({
        name: `exec_command (${how}): Enter to first output byte`,
        value: ms(median(fromEnter)),
        note: `median of ${RUNS}, fake model on 127.0.0.1`,
      });
      rows.push({
        name: `exec_command (${how}): over a bare spawn`,
        value: ms(median(over)),
        note: 'item start to first byte, less the bare spawn run just before (median; goal ≤ 20 ms)',
      });
    }
    rows.unshift({ name: 'bare spawn of `/bin/sh -lc` to first stdout byte', value: ms(median(bare)), note: `median of ${bare.length}` });
  } finally {
    await server.close();
    await fake.close();
  }
  return rows;
}
