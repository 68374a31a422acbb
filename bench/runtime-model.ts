/**
 * Model transport cost: CPU time to stream 10,000 deltas through the `openai` SDK and our event
 * mapping, from the fake Responses server over real HTTP (server in the same process, so its CPU
 * is included), and from the embedded offline model's in-process fetch.
 */
import { FakeResponsesServer } from '../test/support/fake-responses-server.js';
import { createSdkModelClient } from '../src/runtime/model/wires/responses/client.js';
import { createOfflineModelClient } from '../src/runtime/model/wires/offline/client.js';
import type { ModelClient, ModelRequest } from '../src/runtime/model/types.js';
import { median, ms, type BenchRow } from './lib.js';

const DELTAS = 10_000;
const RUNS = 5;

function request(text: string): ModelRequest {
  return {
    model: 'bench',
    input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text }] }],
    tools: [],
    tool_choice: 'auto',
    parallel_tool_calls: false,
    store: false,
    stream: true,
    include: [],
    prompt_cache_key: 'bench',
  };
}

/** CPU milliseconds (user + system) for one full stream; fails if a delta is missing. */
async function cpuOfStream(client: ModelClient, body: ModelRequest, expected: number): Promise<number> {
  const start = process.cpuUsage();
  let deltas = 0;
  for await (const event of client.stream(body, new AbortController().signal)) {
    if (event.type === 'output_text_delta') deltas += 1;
  }
  const used = process.cpuUsage(start);
  if (deltas !== expected) throw new Error(`expected ${expected} deltas, got ${deltas}`);
  return (used.user + used.system) / 1000;
}

export default async function run(): Promise<BenchRow[]> {
  const server = await FakeResponsesServer.start();
  const rows: BenchRow[] = [];
  try {
    const deltas = Array.from({ length: DELTAS }, (_, i) => `w${i} `);
    server.setDefault({ deltas });
    const http = createSdkModelClient({ label: 'bench', baseURL: server.baseUrl, apiKey: 'dummy', idleTimeoutMs: 60_000 });
    await cpuOfStream(http, request('warm-up'), DELTAS);
    const httpRuns: number[] = [];
    for (let i = 0; i < RUNS; i++) httpRuns.push(await cpuOfStream(http, request('bench'), DELTAS));
    rows.push({
      name: `CPU to stream ${DELTAS.toLocaleString('en-US')} deltas (fake server, HTTP SSE)`,
      value: ms(median(httpRuns)),
      note: `median of ${RUNS}, server CPU included`,
    });

    // The offline model streams one delta per word of its account; a long prompt makes a long account.
    const offline = createOfflineModelClient({ idleTimeoutMs: 60_000, delayMs: 0 });
    const body = request('hello');
    let words = 0;
    for await (const event of offline.stream(body, new AbortController().signal)) if (event.type === 'output_text_delta') words += 1;
    const offlineRuns: number[] = [];
    for (let i = 0; i < RUNS; i++) offlineRuns.push(await cpuOfStream(offline, body, words));
    rows.push({
      name: `CPU per offline answer (${words} deltas, in-process fetch)`,
      value: ms(median(offlineRuns)),
      note: `median of ${RUNS}`,
    });
  } finally {
    await server.close();
  }
  return rows;
}
